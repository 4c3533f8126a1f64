import { Anchor, Breadcrumbs, Group, Stack, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';

export interface Crumb {
  label: string;
  /** An already-filled path; the last crumb is the current page and has none. */
  to?: string;
}

/** Every page's top: where the user is (breadcrumbs), what the page is, and its main actions. */
export function PageHeader({
  title,
  breadcrumbs = [],
  actions,
}: {
  title: ReactNode;
  breadcrumbs?: readonly Crumb[];
  actions?: ReactNode;
}) {
  return (
    <Stack gap={4} mb="md">
      {breadcrumbs.length > 0 && (
        <Breadcrumbs aria-label="Breadcrumbs" fz="sm">
          {breadcrumbs.map((crumb) =>
            crumb.to ? (
              <Anchor key={crumb.label} component={Link} to={crumb.to}>
                {crumb.label}
              </Anchor>
            ) : (
              <span key={crumb.label}>{crumb.label}</span>
            ),
          )}
        </Breadcrumbs>
      )}
      <Group justify="space-between" align="center" wrap="wrap">
        <Title order={1} fz="h2">
          {title}
        </Title>
        {actions && <Group gap="sm">{actions}</Group>}
      </Group>
    </Stack>
  );
}
