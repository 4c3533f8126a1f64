import { Anchor, Stack, Text } from '@mantine/core';
import type { Export } from './exports-api.ts';

/**
 * Where a connector export went: per locale, the template or asset it created or updated on the
 * sending platform (its name and id there), with a link that opens it.
 */
export function DeliveredResources({ entry }: { entry: Export }) {
  const platform = entry.platform ?? 'the sending platform';
  const delivered = entry.options.locales.flatMap((locale) => {
    const resource = entry.delivered_resources[locale];
    return resource ? [{ locale, ...resource }] : [];
  });
  if (delivered.length === 0) {
    const open = entry.open_in_integration_url;
    if (entry.status === 'in_progress') return <Text size="sm">Sending to {platform}…</Text>;
    if (open)
      return (
        <Anchor href={open} target="_blank" rel="noreferrer" size="sm">
          Open in {platform}
        </Anchor>
      );
    return (
      <Text size="sm" c="dimmed">
        Nothing was made in {platform}
      </Text>
    );
  }
  const what = entry.integration_name === 'iterable' ? 'template' : 'email';
  return (
    <Stack gap={2} aria-label={`What the export made in ${platform}`}>
      {delivered.map((resource) => (
        <Text key={resource.locale} size="sm">
          <b>{resource.locale}</b>: {resource.updated ? 'updated' : 'created'} {what}{' '}
          {resource.open_url ? (
            <Anchor href={resource.open_url} target="_blank" rel="noreferrer" size="sm">
              {resource.resource_name}
            </Anchor>
          ) : (
            resource.resource_name
          )}{' '}
          <Text span size="xs" c="dimmed">
            (id {resource.external_id})
          </Text>
        </Text>
      ))}
    </Stack>
  );
}
