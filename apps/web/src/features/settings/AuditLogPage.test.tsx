import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { useState } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { PersonPicker } from './AuditLogPage.tsx';

const apiCalls = vi.hoisted(() => ({ GET: vi.fn() }));
vi.mock('../../app/api.ts', () => ({ api: apiCalls }));

const people = [
  { id: 5, first_name: 'Edith', last_name: 'Editor', email: 'edith@example.com' },
  { id: 6, first_name: 'Ada', last_name: 'Admin', email: 'ada@example.com' },
];

function Harness({ onChange }: { onChange: (userId: string | null) => void }) {
  const [userId, setUserId] = useState<string | null>(null);
  return (
    <PersonPicker
      value={userId}
      onChange={(chosen) => {
        setUserId(chosen);
        onChange(chosen);
      }}
    />
  );
}

describe('PersonPicker', { timeout: 20_000 }, () => {
  beforeEach(() => {
    apiCalls.GET.mockReset();
    // The API's search, as the users list answers it: names and email addresses.
    apiCalls.GET.mockImplementation(
      (_path: string, { params }: { params: { query: { search?: string } } }) => {
        const search = params.query.search?.toLowerCase() ?? '';
        const results = people.filter((person) =>
          `${person.first_name} ${person.last_name} ${person.email}`.toLowerCase().includes(search),
        );
        return Promise.resolve({
          data: { results, pagination: { page: 1, per: 20, total: results.length } },
          response: { ok: true, status: 200 },
        });
      },
    );
  });

  it('asks the API for the people matching what is typed, and keeps the chosen name', async () => {
    const onChange = vi.fn();
    render(
      <MantineProvider env="test">
        <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
          <Harness onChange={onChange} />
        </QueryClientProvider>
      </MantineProvider>,
    );
    const person = screen.getByRole('combobox', { name: 'Person' });
    await userEvent.click(person);
    await userEvent.type(person, 'edith@');
    await vi.waitFor(() =>
      expect(apiCalls.GET).toHaveBeenLastCalledWith('/api/v1/users', {
        params: { query: { page: 1, per: 20, search: 'edith@' } },
      }),
    );
    expect(await screen.findByRole('option', { name: 'Edith Editor' })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: 'Ada Admin' })).toBeNull();

    await userEvent.click(screen.getByRole('option', { name: 'Edith Editor' }));
    expect(onChange).toHaveBeenLastCalledWith('5');
    expect(person).toHaveValue('Edith Editor');
  });
});
