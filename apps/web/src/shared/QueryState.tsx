import { Alert, Button, Center, Skeleton, Stack, Text } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { errorMessage } from './api-error.ts';

// Skeleton rows are identical placeholders; stable keys keep React from warning.
const skeletonKeys = Array.from({ length: 20 }, (_, row) => `skeleton-${row}`);

/**
 * The states every data-backed view has: skeleton rows while loading, the error with a retry,
 * the empty state, then the content.
 */
export function QueryState<T>({
  query,
  isEmpty = () => false,
  empty,
  skeletonRows = 5,
  children,
}: {
  query: UseQueryResult<T>;
  isEmpty?: (data: T) => boolean;
  empty?: ReactNode;
  skeletonRows?: number;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) {
    return (
      <Stack gap="xs" aria-busy="true" aria-label="Loading">
        {skeletonKeys.slice(0, skeletonRows).map((key) => (
          <Skeleton key={key} height={36} />
        ))}
      </Stack>
    );
  }
  if (query.isError) {
    return (
      <Alert color="red" title="Could not load this" role="alert">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{errorMessage(query.error)}</Text>
          <Button size="xs" variant="light" color="red" onClick={() => query.refetch()}>
            Retry
          </Button>
        </Stack>
      </Alert>
    );
  }
  if (isEmpty(query.data)) {
    return (
      <Center py="xl">
        <Stack align="center" gap="xs" maw={420} ta="center">
          {empty}
        </Stack>
      </Center>
    );
  }
  return <>{children(query.data)}</>;
}
