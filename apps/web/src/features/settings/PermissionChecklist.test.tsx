import { type PermissionKey, permissionGroups } from '@letterset/core/permissions';
import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { PermissionChecklist } from './PermissionChecklist.tsx';

function Harness({
  initial,
  onChange,
}: {
  initial: PermissionKey[];
  onChange: (keys: PermissionKey[]) => void;
}) {
  const [value, setValue] = useState(initial);
  return (
    <PermissionChecklist
      value={value}
      onChange={(keys) => {
        setValue(keys);
        onChange(keys);
      }}
    />
  );
}

function renderChecklist(initial: PermissionKey[]) {
  const onChange = vi.fn();
  render(
    <MantineProvider>
      <Harness initial={initial} onChange={onChange} />
    </MantineProvider>,
  );
  return onChange;
}

const imageKeys = permissionGroups.find((group) => group.label === 'Image library')?.keys ?? [];

describe('PermissionChecklist', () => {
  it('shows every key once, grouped by area, checked when granted', () => {
    renderChecklist(['create_library_images', 'view_audit_logs']);
    expect(screen.getAllByRole('checkbox', { name: /^All of / })).toHaveLength(permissionGroups.length);
    expect(screen.getByRole('checkbox', { name: 'Upload images' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'View the audit log' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Rename images' })).not.toBeChecked();
    expect(screen.getByText('Image library (1 of 3)')).toBeInTheDocument();
  });

  it("a group's box is mixed when part of the area is granted and grants the whole area", async () => {
    const onChange = renderChecklist(['create_library_images', 'view_audit_logs']);
    const group = screen.getByRole('checkbox', { name: 'All of Image library' });
    expect(group).toHaveAttribute('data-indeterminate', 'true');

    await userEvent.click(group);
    expect(onChange).toHaveBeenLastCalledWith(expect.arrayContaining([...imageKeys, 'view_audit_logs']));
    expect(onChange.mock.lastCall?.[0]).toHaveLength(imageKeys.length + 1);
    expect(screen.getByRole('checkbox', { name: 'Delete images' })).toBeChecked();

    await userEvent.click(group);
    expect(onChange).toHaveBeenLastCalledWith(['view_audit_logs']);
  });

  it('one key toggles alone and the result keeps the checklist order', async () => {
    const onChange = renderChecklist(['view_audit_logs']);
    await userEvent.click(screen.getByRole('checkbox', { name: 'Create emails' }));
    expect(onChange).toHaveBeenLastCalledWith(['create_emails', 'view_audit_logs']);
    await userEvent.click(screen.getByRole('checkbox', { name: 'View the audit log' }));
    expect(onChange).toHaveBeenLastCalledWith(['create_emails']);
  });

  it('read-only (built-in roles) disables every box', () => {
    render(
      <MantineProvider>
        <PermissionChecklist value={['create_emails']} onChange={() => {}} readOnly />
      </MantineProvider>,
    );
    for (const box of screen.getAllByRole('checkbox')) expect(box).toBeDisabled();
  });
});
