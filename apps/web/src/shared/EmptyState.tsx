import { Text } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * What an empty list says: what is missing, what to do next, and (when the person may) a button
 * that does it. Meant for the `empty` slot of `QueryState`, which centres it.
 */
export function EmptyState({
  title,
  hint,
  action,
}: {
  title: ReactNode;
  hint: ReactNode;
  action?: ReactNode;
}) {
  return (
    <>
      <Text fw={500}>{title}</Text>
      <Text size="sm" c="dimmed">
        {hint}
      </Text>
      {action}
    </>
  );
}
