import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { FormActions, FormProblems } from './FormParts.tsx';

const inMantine = (node: React.ReactNode) => render(<MantineProvider>{node}</MantineProvider>);

describe('form parts', () => {
  it('shows the problems no field shows as one alert, and nothing when there are none', () => {
    const { rerender } = inMantine(<FormProblems problems={['Name is taken.', 'Try again.']} />);
    expect(screen.getByRole('alert').textContent).toBe('Name is taken. Try again.');
    rerender(
      <MantineProvider>
        <FormProblems problems={[]} />
      </MantineProvider>,
    );
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('offers cancel and submit on an editable form', async () => {
    const onCancel = vi.fn();
    inMantine(
      <form>
        <FormActions readOnly={false} onCancel={onCancel} submitLabel="Create group" submitting={false} />
      </form>,
    );
    expect(screen.getByRole('button', { name: 'Create group' }).getAttribute('type')).toBe('submit');
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalledOnce();
  });

  it('offers only Close on a read-only form, or the label it is given', () => {
    const { rerender } = inMantine(
      <FormActions readOnly onCancel={() => {}} submitLabel="Save" submitting={false} />,
    );
    expect(screen.getByRole('button', { name: 'Close' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    rerender(
      <MantineProvider>
        <FormActions readOnly={false} onCancel={() => {}} cancelLabel="Close" submitLabel="Save" submitting />
      </MantineProvider>,
    );
    expect(screen.getByRole('button', { name: 'Close' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();
  });
});
