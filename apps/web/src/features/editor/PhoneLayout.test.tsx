import { MantineProvider } from '@mantine/core';
import { render, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { PhoneLayout } from './PhoneLayout.tsx';

const renderLayout = () =>
  render(
    <MantineProvider env="test">
      <PhoneLayout
        toolbar={<h1>Spring sale</h1>}
        preview={<div role="img" aria-label="Email preview" />}
        sheets={[
          { id: 'comments', label: 'Comments', content: <p>Two threads</p> },
          {
            id: 'decide',
            label: 'Approve or request changes',
            content: <button type="button">Approve</button>,
          },
        ]}
      />
    </MantineProvider>,
  );

describe('PhoneLayout', () => {
  it('shows the preview alone until a sheet is opened, then one sheet at a time', async () => {
    renderLayout();
    expect(screen.getByRole('img', { name: 'Email preview' })).toBeVisible();
    expect(screen.queryByText('Two threads')).toBeNull();

    const bar = screen.getByRole('toolbar', { name: 'Review on the phone' });
    await userEvent.click(within(bar).getByRole('button', { name: 'Comments' }));
    expect(await screen.findByText('Two threads')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull();

    await userEvent.keyboard('{Escape}');
    await userEvent.click(within(bar).getByRole('button', { name: 'Approve or request changes' }));
    expect(await screen.findByRole('button', { name: 'Approve' })).toBeVisible();
  });
});
