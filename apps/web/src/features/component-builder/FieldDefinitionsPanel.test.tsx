import type { FieldDefinition } from '@letterset/core';
import { MantineProvider } from '@mantine/core';
import { render, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../shared/api-error.ts';
import { FieldDefinitionsPanel } from './FieldDefinitionsPanel.tsx';
import {
  type DraftField,
  type FieldProblems,
  fieldProblemsFrom,
  toDraftFields,
} from './field-definitions.ts';

function Harness({
  initial = [],
  savedProblems = {},
  onFields,
  feedFields = null,
}: {
  initial?: FieldDefinition[];
  savedProblems?: FieldProblems;
  onFields?: (fields: DraftField[]) => void;
  feedFields?: string[] | null;
}) {
  const [fields, setFields] = useState(() => toDraftFields(initial));
  return (
    <MantineProvider env="test">
      <FieldDefinitionsPanel
        fields={fields}
        onChange={(next) => {
          setFields(next);
          onFields?.(next);
        }}
        problems={savedProblems}
        savedProblems={savedProblems}
        customStyles={[]}
        feedFields={feedFields}
      />
    </MantineProvider>
  );
}

const headline: FieldDefinition = {
  type: 'text',
  label: 'Headline',
  liquid_variable: 'headline',
  default_value: 'Hi',
};
const photo: FieldDefinition = { type: 'image', label: 'Photo', liquid_variable: 'photo', default_value: '' };

describe('FieldDefinitionsPanel', () => {
  it('adds a field of the chosen type with an unused Liquid variable and opens it', async () => {
    const user = userEvent.setup();
    let latest: DraftField[] = [];
    render(<Harness initial={[headline]} onFields={(fields) => (latest = fields)} />);

    await user.click(screen.getByRole('button', { name: 'Add field' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Number' }));

    expect(latest.map((field) => field.definition)).toEqual([
      headline,
      { type: 'number', label: 'Number 1', liquid_variable: 'number_1', default_value: 0 },
    ]);
    const added = screen.getByTestId('field-definition-number_1');
    expect(within(added).getByLabelText(/Liquid variable/)).toHaveValue('number_1');
    expect(within(added).getByLabelText('Minimum')).toBeVisible();
  });

  it("changing a field's type shows that type's validations and drops the old ones", async () => {
    const user = userEvent.setup();
    let latest: DraftField[] = [];
    render(
      <Harness
        initial={[{ ...headline, validations: { max_length: 40 } }]}
        onFields={(fields) => (latest = fields)}
      />,
    );
    await user.click(screen.getByRole('button', { name: /^Headline Text headline/ }));
    const field = screen.getByTestId('field-definition-headline');
    expect(within(field).getByLabelText('Maximum length')).toHaveValue('40');
    expect(within(field).queryByLabelText('Maximum')).toBeNull();

    await user.click(within(field).getByLabelText('Type', { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'Number' }));

    expect(within(field).getByLabelText('Minimum')).toBeVisible();
    expect(within(field).getByLabelText('Maximum')).toHaveValue('');
    expect(within(field).queryByLabelText('Maximum length')).toBeNull();
    expect(within(field).queryByLabelText('Must not be blank')).toBeNull();
    expect(latest[0]?.definition).toEqual({
      type: 'number',
      label: 'Headline',
      liquid_variable: 'headline',
      default_value: 0,
    });
  });

  it('shows a 422 message on the field definition it names, and opens that field', () => {
    const refusal = new ApiError(422, {
      message: 'Validation failed',
      errors: { 'field_definitions.1.liquid_variable': ['has already been taken'] },
    });
    render(<Harness initial={[headline, photo]} savedProblems={fieldProblemsFrom(refusal.fieldErrors)} />);

    const second = screen.getByTestId('field-definition-photo');
    expect(within(second).getByLabelText(/Liquid variable/)).toHaveAccessibleDescription(
      /has already been taken/,
    );
    expect(within(second).getByText('1 problem')).toBeInTheDocument();
    const first = screen.getByTestId('field-definition-headline');
    expect(within(first).queryByText('1 problem')).toBeNull();
    expect(within(first).queryByText('has already been taken')).toBeNull();
  });

  it('names the feed field a field takes, offering the feed’s fields, only when the component has a feed', async () => {
    const user = userEvent.setup();
    let latest: DraftField[] = [];
    const { unmount } = render(<Harness initial={[headline]} />);
    await user.click(screen.getByRole('button', { name: /^Headline Text headline/ }));
    expect(screen.queryByLabelText('Feed field')).toBeNull();
    unmount();

    render(
      <Harness
        initial={[headline]}
        feedFields={['title', 'price']}
        onFields={(fields) => (latest = fields)}
      />,
    );
    await user.click(screen.getByRole('button', { name: /^Headline Text headline/ }));
    await user.click(screen.getByRole('combobox', { name: 'Feed field' }));
    await user.click(await screen.findByRole('option', { name: 'title' }));
    expect(latest[0]?.definition.feed_field_name).toBe('title');
  });
});
