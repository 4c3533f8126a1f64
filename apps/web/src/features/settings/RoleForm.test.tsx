import { permissionKeys } from '@letterset/core/permissions';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { RoleForm } from './RoleForm.tsx';
import type { Role } from './settings-api.ts';

const apiCalls = vi.hoisted(() => ({ POST: vi.fn(), PATCH: vi.fn() }));
vi.mock('../../app/api.ts', () => ({ api: apiCalls }));

function answer(status: number, body: unknown) {
  const ok = status < 300;
  return Promise.resolve({
    data: ok ? body : undefined,
    error: ok ? undefined : body,
    response: { ok, status },
  });
}

function renderForm(role: Role | null, onSaved = vi.fn(), heldKeys: readonly string[] = permissionKeys) {
  const queryClient = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  render(
    <MantineProvider>
      <QueryClientProvider client={queryClient}>
        <RoleForm role={role} canSave heldKeys={heldKeys} onSaved={onSaved} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return onSaved;
}

const builtInViewer: Role = {
  id: 1,
  name: 'Viewer',
  role_permissions: ['email_commenting'],
  builtin: true,
  created_at: '2026-11-01T00:00:00.000Z',
  updated_at: '2026-11-01T00:00:00.000Z',
};

// The form renders all 73 permission checkboxes: slow in jsdom on a small CI machine.
describe('RoleForm', { timeout: 20_000 }, () => {
  beforeEach(() => {
    apiCalls.POST.mockReset();
    apiCalls.PATCH.mockReset();
  });

  it("shows the API's 422 messages on the fields they name, and the rest above the form", async () => {
    apiCalls.POST.mockReturnValue(
      answer(422, {
        message: 'Validation failed',
        errors: {
          name: ['is already used by another role'],
          'role_permissions.0': ['is not a permission'],
          base: ['x'],
        },
      }),
    );
    const onSaved = renderForm(null);
    await userEvent.click(screen.getByRole('textbox', { name: 'Name' }));
    await userEvent.paste('Reviewers');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Comment on emails' }));
    await userEvent.click(screen.getByRole('button', { name: 'Create role' }));

    expect(await screen.findByText('is already used by another role')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText('is not a permission')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('base x');
    expect(apiCalls.POST).toHaveBeenCalledWith('/api/v1/roles', {
      body: { name: 'Reviewers', role_permissions: ['email_commenting'] },
    });
    expect(onSaved).not.toHaveBeenCalled();
  });

  it('checks the name before asking the API', async () => {
    renderForm(null);
    await userEvent.click(screen.getByRole('button', { name: 'Create role' }));
    expect(await screen.findByText('Give the role a name')).toBeInTheDocument();
    expect(apiCalls.POST).not.toHaveBeenCalled();
  });

  it('shows built-in roles read-only, without a save button', () => {
    renderForm(builtInViewer);
    expect(screen.getByText('Built-in roles cannot be changed.', { exact: false })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveAttribute('readonly');
    expect(screen.getByRole('checkbox', { name: 'Comment on emails' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Comment on emails' })).toBeDisabled();
    expect(screen.queryByRole('button', { name: /save|create/i })).not.toBeInTheDocument();
  });

  it("offers only the keys the editor holds, and shows the API's 403 above the form", async () => {
    apiCalls.POST.mockReturnValue(
      answer(403, {
        message: 'You cannot create a role with these keys: it grants keys you do not hold (view_audit_logs)',
        code: 'grant_beyond_own_keys',
      }),
    );
    renderForm(null, vi.fn(), ['create_roles', 'email_commenting']);
    expect(screen.getByRole('checkbox', { name: 'Comment on emails' })).toBeEnabled();
    expect(screen.getByRole('checkbox', { name: 'View the audit log' })).toBeDisabled();
    expect(screen.getByText('view_audit_logs · you do not hold this key')).toBeInTheDocument();
    // A whole area ticks only the keys the editor holds.
    await userEvent.click(screen.getByRole('checkbox', { name: 'All of Organization' }));
    expect(screen.getByRole('checkbox', { name: 'Create roles' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Update roles' })).not.toBeChecked();

    await userEvent.click(screen.getByRole('textbox', { name: 'Name' }));
    await userEvent.paste('Role makers');
    await userEvent.click(screen.getByRole('button', { name: 'Create role' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'You cannot create a role with these keys: it grants keys you do not hold (view_audit_logs)',
    );
    expect(apiCalls.POST).toHaveBeenCalledWith('/api/v1/roles', {
      body: { name: 'Role makers', role_permissions: ['create_roles'] },
    });
  });

  it('shows a custom role holding keys the editor lacks read-only, naming them', () => {
    renderForm(
      { ...builtInViewer, id: 9, name: 'Auditors', builtin: false, role_permissions: ['view_audit_logs'] },
      vi.fn(),
      ['update_roles', 'email_commenting'],
    );
    expect(
      screen.getByText('This role holds keys you do not hold (view_audit_logs), so you cannot change it.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveAttribute('readonly');
    expect(screen.queryByRole('button', { name: 'Save role' })).not.toBeInTheDocument();
  });
});
