import { Button, Group, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { ListPagination } from '../../shared/ListPagination.tsx';
import { QueryState } from '../../shared/QueryState.tsx';
import { fullName } from './settings-api.ts';

export interface Member {
  id: number;
  first_name: string;
  last_name: string;
  email: string;
}

/** The members of a workspace or team, a page at a time, each removable when the role allows. */
export function MemberList({
  query,
  onPage,
  onRemove,
}: {
  query: UseQueryResult<{ results: Member[]; pagination: { page: number; per: number; total: number } }>;
  onPage: (page: number) => void;
  onRemove?: (member: Member) => void;
}) {
  return (
    <QueryState
      query={query}
      skeletonRows={3}
      isEmpty={(data) => data.results.length === 0}
      empty={<Text size="sm">No members yet.</Text>}
    >
      {(data) => (
        <Stack gap={0}>
          <Table verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Email</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.results.map((member) => (
                <Table.Tr key={member.id}>
                  <Table.Td>{fullName(member)}</Table.Td>
                  <Table.Td>{member.email}</Table.Td>
                  <Table.Td ta="right">
                    {onRemove && (
                      <Group justify="flex-end">
                        <Button
                          size="xs"
                          variant="subtle"
                          color="red"
                          aria-label={`Remove ${fullName(member)}`}
                          onClick={() => onRemove(member)}
                        >
                          Remove
                        </Button>
                      </Group>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <ListPagination pagination={data.pagination} onPage={onPage} />
        </Stack>
      )}
    </QueryState>
  );
}
