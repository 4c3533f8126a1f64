import { Badge, Code, type ComboboxItem, Group, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ListPagination } from '../../shared/ListPagination.tsx';
import { PageHeader } from '../../shared/PageHeader.tsx';
import { QueryState } from '../../shared/QueryState.tsx';
import { type AuditLogEntry, auditLogsQuery, formatDateTime, fullName } from './settings-api.ts';
import { usePeopleSearch } from './UserPicker.tsx';

const perPage = 25;

const actionColors: Record<AuditLogEntry['action'], string> = {
  create: 'teal',
  update: 'blue',
  delete: 'red',
  read: 'gray',
};

/** A day picked in a date input (local time) as the instant it starts, for the API's from/to. */
function startOfDay(day: string, addDays = 0): string | null {
  if (!day) return null;
  const [year, month, date] = day.split('-').map(Number);
  if (!year || !month || !date) return null;
  return new Date(year, month - 1, date + addDays).toISOString();
}

/** Every write made through the API, newest first, filtered by person, kind of record and dates. */
export function AuditLogPage() {
  const [page, setPage] = useState(1);
  const [userId, setUserId] = useState<string | null>(null);
  const [resourceType, setResourceType] = useState('');
  const [fromDay, setFromDay] = useState('');
  const [toDay, setToDay] = useState('');
  const [debouncedType] = useDebouncedValue(resourceType.trim(), 300);
  const entries = useQuery(
    auditLogsQuery(
      {
        userId: userId ? Number(userId) : null,
        resourceType: debouncedType,
        from: startOfDay(fromDay),
        // The API's `to` is exclusive, so the chosen last day is included up to its end.
        to: startOfDay(toDay, 1),
      },
      { page, per: perPage },
    ),
  );
  const filtered = Boolean(userId || debouncedType || fromDay || toDay);
  const resetPage =
    <T,>(setter: (value: T) => void) =>
    (value: T) => {
      setter(value);
      setPage(1);
    };

  return (
    <Stack>
      <PageHeader
        title="Audit log"
        breadcrumbs={[{ label: 'Settings', to: '/settings' }, { label: 'Audit log' }]}
      />
      <Group align="flex-end" gap="sm" wrap="wrap">
        <PersonPicker value={userId} onChange={resetPage(setUserId)} />
        <TextInput
          label="Record type"
          placeholder="e.g. teams or api_keys"
          w={{ base: '100%', sm: 220 }}
          value={resourceType}
          onChange={(event) => resetPage(setResourceType)(event.currentTarget.value)}
        />
        <TextInput
          label="From"
          type="date"
          w={{ base: '100%', sm: 170 }}
          value={fromDay}
          onChange={(event) => resetPage(setFromDay)(event.currentTarget.value)}
        />
        <TextInput
          label="To"
          type="date"
          w={{ base: '100%', sm: 170 }}
          value={toDay}
          onChange={(event) => resetPage(setToDay)(event.currentTarget.value)}
        />
      </Group>
      <QueryState
        query={entries}
        skeletonRows={8}
        isEmpty={(data) => data.results.length === 0}
        empty={<Text>{filtered ? 'No entries match these filters.' : 'Nothing has been changed yet.'}</Text>}
      >
        {(data) => (
          <>
            <Table.ScrollContainer minWidth={820}>
              <Table verticalSpacing="xs" striped>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>When</Table.Th>
                    <Table.Th>Who</Table.Th>
                    <Table.Th>Action</Table.Th>
                    <Table.Th>Record</Table.Th>
                    <Table.Th>Request</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.results.map((entry) => (
                    <Table.Tr key={entry.id}>
                      <Table.Td>
                        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                          {formatDateTime(entry.created_at)}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                          {entry.user ? fullName(entry.user) : 'A removed user'}
                        </Text>
                        {(entry.auth_method === 'api_key' || entry.path === '/mcp') && (
                          <Text size="xs" c="dimmed">
                            {entry.path === '/mcp' ? 'via MCP' : ''}
                            {entry.path === '/mcp' && entry.auth_method === 'api_key' ? ', ' : ''}
                            {entry.auth_method === 'api_key' && `with API key #${entry.api_key_id}`}
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td miw={96}>
                        <Badge variant="light" color={actionColors[entry.action]}>
                          {entry.action}
                        </Badge>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">
                          {entry.resource_type}
                          {entry.resource_id && ` #${entry.resource_id}`}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Code>
                          {entry.method} {entry.path}
                        </Code>{' '}
                        <Text span size="xs" c="dimmed">
                          {entry.status_code}
                        </Text>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            <ListPagination pagination={data.pagination} onPage={setPage} />
          </>
        )}
      </QueryState>
    </Stack>
  );
}

/** The person filter: the organization's people, searched through the API as you type. */
export function PersonPicker({
  value,
  onChange,
}: {
  value: string | null;
  onChange: (userId: string | null) => void;
}) {
  const { search, setSearch, people, searching } = usePeopleSearch();
  const [chosen, setChosen] = useState<ComboboxItem | null>(null);
  const options = people.map((user) => ({
    value: String(user.id),
    label: fullName(user),
  }));
  // The chosen person stays an option while other searches run, so the field keeps its name.
  if (chosen && chosen.value === value && !options.some((option) => option.value === chosen.value)) {
    options.unshift(chosen);
  }
  return (
    <Select
      label="Person"
      placeholder="Anyone"
      clearable
      searchable
      w={{ base: '100%', sm: 220 }}
      searchValue={search}
      onSearchChange={setSearch}
      // The API has searched names and email addresses already: show what it found.
      filter={({ options: found }) => found}
      nothingFoundMessage={searching ? 'Searching…' : 'Nobody matches'}
      data={options}
      value={value}
      onChange={(userId, option) => {
        setChosen(userId ? option : null);
        onChange(userId);
      }}
    />
  );
}
