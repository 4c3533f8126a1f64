import { Group, Select, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { QueryState } from '../../shared/QueryState.tsx';
import { type AiUsageRow, aiUsageQuery, featureLabels } from './ai-settings-api.ts';

const periods = [
  { value: '7', label: 'Last 7 days' },
  { value: '30', label: 'Last 30 days' },
  { value: '90', label: 'Last 90 days' },
];

const count = (value: number) => value.toLocaleString();

/** Calls and tokens of the organization's AI features per feature and person, with totals. */
export function AiUsageTable() {
  const [days, setDays] = useState(30);
  const usage = useQuery(aiUsageQuery(days));
  return (
    <Stack gap="sm">
      <Group justify="space-between" align="flex-end">
        <Text size="sm" c="dimmed" maw={560}>
          Every call Letterset makes to the model, counted per feature and per person it worked for. Tokens
          are what the provider reported; providers bill by them.
        </Text>
        <Select
          label="Period"
          data={periods}
          value={String(days)}
          onChange={(value) => value && setDays(Number(value))}
          allowDeselect={false}
          w={180}
        />
      </Group>
      <QueryState
        query={usage}
        isEmpty={(data) => data.results.length === 0}
        empty={
          <>
            <Text fw={500}>No AI calls in the last {days} days</Text>
            <Text size="sm" c="dimmed">
              Generating emails, images, reviews and translations, and testing the connection, show here.
            </Text>
          </>
        }
      >
        {(data) => (
          <Table.ScrollContainer minWidth={640}>
            <Table verticalSpacing="sm" aria-label={`AI usage, last ${days} days`}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Feature</Table.Th>
                  <Table.Th>Person</Table.Th>
                  <Table.Th ta="right">Calls</Table.Th>
                  <Table.Th ta="right">Input tokens</Table.Th>
                  <Table.Th ta="right">Output tokens</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.results.map((row) => (
                  <Table.Tr key={`${row.feature}-${row.user?.id ?? 'none'}`}>
                    <Table.Td>{featureLabels[row.feature] ?? row.feature}</Table.Td>
                    <Table.Td>
                      <PersonCell user={row.user} />
                    </Table.Td>
                    <Table.Td ta="right">{count(row.calls)}</Table.Td>
                    <Table.Td ta="right">{count(row.input_tokens)}</Table.Td>
                    <Table.Td ta="right">{count(row.output_tokens)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
              <Table.Tfoot>
                <Table.Tr fw={600}>
                  <Table.Td colSpan={2}>Total</Table.Td>
                  <Table.Td ta="right">{count(data.totals.calls)}</Table.Td>
                  <Table.Td ta="right">{count(data.totals.input_tokens)}</Table.Td>
                  <Table.Td ta="right">{count(data.totals.output_tokens)}</Table.Td>
                </Table.Tr>
              </Table.Tfoot>
            </Table>
          </Table.ScrollContainer>
        )}
      </QueryState>
    </Stack>
  );
}

function PersonCell({ user }: { user: AiUsageRow['user'] }) {
  if (!user)
    return (
      <Text size="sm" c="dimmed">
        No one (background work or a removed user)
      </Text>
    );
  return (
    <Text size="sm">
      {user.first_name} {user.last_name}
    </Text>
  );
}
