import { audiencesOf, type EmailContent } from '@letterset/core';
import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { AudienceSwitch } from './AudienceSwitch.tsx';

const membership = {
  id: 4,
  label: 'Membership',
  branches: [
    { key: 'gold', label: 'Gold members' },
    { key: 'others', label: 'Everyone else' },
  ],
};
const region = {
  id: 6,
  label: 'Region',
  branches: [
    { key: 'eu', label: 'Europe' },
    { key: 'us', label: 'Americas' },
  ],
  default_branch_key: 'eu',
};

function contentUsing(...conditionalIds: number[]): EmailContent {
  return {
    subject: { branch_content: { null_branch: { 'en-US': 'Hi' } } },
    preheader: { branch_content: { null_branch: { 'en-US': '' } } },
    container_component_instance: { id: 'c', component_id: 1, field_values: {} },
    component_instances: conditionalIds.map((id, index) => ({
      id: `i${index}`,
      component_id: 2,
      conditional_id: id,
      field_values: {},
    })),
  };
}

function renderSwitch(
  content: EmailContent,
  selection: Record<string, string>,
  shownConditionalId: number | null = null,
) {
  const onChange = vi.fn();
  render(
    <MantineProvider env="test">
      <AudienceSwitch
        audiences={audiencesOf(content, [membership, region])}
        selection={selection}
        shownConditionalId={shownConditionalId}
        onChange={onChange}
      />
    </MantineProvider>,
  );
  return onChange;
}

describe('AudienceSwitch', () => {
  it('is not shown for an email without conditionals', () => {
    renderSwitch(contentUsing(), {});
    expect(screen.queryByLabelText('Audience', { selector: 'input' })).toBeNull();
  });

  it('lists the branches of the one conditional by their labels and shows the selected one', async () => {
    const onChange = renderSwitch(contentUsing(4), { '4': 'others' });
    const input = screen.getByLabelText('Audience', { selector: 'input' });
    expect(input).toHaveValue('Everyone else');
    await userEvent.click(input);
    expect((await screen.findAllByRole('option')).map((option) => option.textContent)).toEqual([
      'Gold members',
      'Everyone else',
    ]);
    await userEvent.click(screen.getByRole('option', { name: 'Gold members' }));
    expect(onChange).toHaveBeenCalledWith(4, 'gold');
  });

  it('names the conditional of each branch when the email uses several', async () => {
    const onChange = renderSwitch(contentUsing(4, 6), { '4': 'others', '6': 'eu' }, 6);
    const input = screen.getByLabelText('Audience', { selector: 'input' });
    expect(input).toHaveValue('Region: Europe');
    await userEvent.click(input);
    expect((await screen.findAllByRole('option')).map((option) => option.textContent)).toEqual([
      'Membership: Gold members',
      'Membership: Everyone else',
      'Region: Europe',
      'Region: Americas',
    ]);
    await userEvent.click(screen.getByRole('option', { name: 'Membership: Gold members' }));
    expect(onChange).toHaveBeenCalledWith(4, 'gold');
  });
});
