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

function renderForm(role: Role | null, onSaved = vi.fn()) {
  const queryClient = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  render(
    <MantineProvider>
      <QueryClientProvider client={queryClient}>
        <RoleForm role={role} canSave onSaved={onSaved} />
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

describe('RoleForm', () => {
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
    await userEvent.type(screen.getByRole('textbox', { name: 'Name' }), 'Reviewers');
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
});
