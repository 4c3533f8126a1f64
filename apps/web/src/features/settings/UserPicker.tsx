import { Button, Group, Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { fullName, usersQuery } from './settings-api.ts';

/**
 * The first people of the organization matching what is typed: the API searches names and email
 * addresses, since an organization may have more people than a page holds.
 */
export function usePeopleSearch() {
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search.trim(), 250);
  const users = useQuery(usersQuery({ page: 1, per: 20, search: debouncedSearch }));
  return { search, setSearch, people: users.data?.results ?? [], searching: users.isFetching };
}

/** Finds a person of the organization by name or email and hands their id to `onAdd`. */
export function UserPicker({
  label,
  excludeIds,
  adding,
  onAdd,
}: {
  label: string;
  excludeIds: ReadonlySet<number>;
  adding: boolean;
  onAdd: (userId: number) => void;
}) {
  const { search, setSearch, people, searching } = usePeopleSearch();
  const [chosen, setChosen] = useState<string | null>(null);
  const options = people
    .filter((user) => !excludeIds.has(user.id))
    .map((user) => ({ value: String(user.id), label: `${fullName(user)} (${user.email})` }));

  return (
    <Group align="flex-end" gap="xs" wrap="nowrap">
      <Select
        label={label}
        placeholder="Search by name or email"
        searchable
        clearable
        flex={1}
        data={options}
        value={chosen}
        onChange={setChosen}
        searchValue={search}
        onSearchChange={setSearch}
        filter={({ options: all }) => all}
        nothingFoundMessage={searching ? 'Searching…' : 'Nobody found'}
      />
      <Button
        disabled={!chosen}
        loading={adding}
        onClick={() => {
          if (!chosen) return;
          onAdd(Number(chosen));
          setChosen(null);
          setSearch('');
        }}
      >
        Add
      </Button>
    </Group>
  );
}
