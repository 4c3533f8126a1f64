import { Group, Pagination, Text } from '@mantine/core';

/** The API's list envelope `pagination`, shown under a list. Hidden when one page holds all. */
export function ListPagination({
  pagination,
  onPage,
}: {
  pagination: { page: number; per: number; total: number };
  onPage: (page: number) => void;
}) {
  const pages = Math.max(1, Math.ceil(pagination.total / pagination.per));
  if (pages <= 1) return null;
  const first = (pagination.page - 1) * pagination.per + 1;
  const last = Math.min(pagination.total, pagination.page * pagination.per);
  return (
    <Group justify="space-between" mt="md">
      <Text size="sm" c="dimmed">
        {first}–{last} of {pagination.total}
      </Text>
      <Pagination total={pages} value={pagination.page} onChange={onPage} size="sm" />
    </Group>
  );
}
