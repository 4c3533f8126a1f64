import { MantineProvider, Select } from '@mantine/core';
import { useForm } from '@mantine/form';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { onlyChoice, useOnlyChoice } from './only-choice.ts';

describe('onlyChoice', () => {
  it('answers the only option when nothing is chosen', () => {
    expect(onlyChoice([{ value: '7' }], '')).toBe('7');
    expect(onlyChoice([{ value: '7' }], null)).toBe('7');
  });
  it('leaves the choice to the person when there are several options, none, or one chosen already', () => {
    expect(onlyChoice([{ value: '7' }, { value: '8' }], '')).toBeNull();
    expect(onlyChoice([], '')).toBeNull();
    expect(onlyChoice(undefined, '')).toBeNull();
    expect(onlyChoice([{ value: '7' }], '3')).toBeNull();
  });
});

function TeamChoice({ teams }: { teams: { value: string; label: string }[] | undefined }) {
  const form = useForm({ initialValues: { team_id: '' } });
  useOnlyChoice(teams, form.values.team_id, (value) => form.setFieldValue('team_id', value));
  return <Select label="Team" data={teams ?? []} {...form.getInputProps('team_id')} />;
}

describe('useOnlyChoice', () => {
  it('selects the only team once the list arrives', () => {
    const { rerender } = render(
      <MantineProvider env="test">
        <TeamChoice teams={undefined} />
      </MantineProvider>,
    );
    expect(screen.getByRole('combobox', { name: 'Team' })).toHaveValue('');
    rerender(
      <MantineProvider env="test">
        <TeamChoice teams={[{ value: '4', label: 'Acme' }]} />
      </MantineProvider>,
    );
    expect(screen.getByRole('combobox', { name: 'Team' })).toHaveValue('Acme');
  });

  it('does not choose among several teams', () => {
    render(
      <MantineProvider env="test">
        <TeamChoice
          teams={[
            { value: '4', label: 'Acme' },
            { value: '5', label: 'Lifecycle' },
          ]}
        />
      </MantineProvider>,
    );
    expect(screen.getByRole('combobox', { name: 'Team' })).toHaveValue('');
  });
});
