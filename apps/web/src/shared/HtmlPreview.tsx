import { Alert, Box, Group, List, SegmentedControl, Stack, Text } from '@mantine/core';
import { useState } from 'react';

const widths = { desktop: 700, mobile: 375 } as const;
type PreviewWidth = keyof typeof widths;

/**
 * Rendered email HTML in a sandboxed frame (no script, no same-origin access), at desktop or
 * mobile width, with the render's problems listed above it.
 */
export function HtmlPreview({
  title,
  heading = 'Preview',
  html,
  problems,
  height = 420,
}: {
  /** The frame's accessible name. */
  title: string;
  heading?: string;
  html: string;
  problems: readonly { message: string }[];
  height?: number | string;
}) {
  const [width, setWidth] = useState<PreviewWidth>('desktop');
  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Text fw={500}>{heading}</Text>
        <SegmentedControl
          size="xs"
          aria-label="Preview width"
          value={width}
          onChange={(value) => setWidth(value as PreviewWidth)}
          data={[
            { value: 'desktop', label: 'Desktop' },
            { value: 'mobile', label: 'Mobile' },
          ]}
        />
      </Group>
      {problems.length > 0 && (
        <Alert color="yellow" title="The preview has problems" p="xs">
          <List size="sm">
            {problems.map((problem) => (
              <List.Item key={problem.message}>{problem.message}</List.Item>
            ))}
          </List>
        </Alert>
      )}
      <Box bg="gray.1" p="sm" style={{ borderRadius: 4, overflowX: 'auto' }}>
        <iframe
          title={title}
          sandbox=""
          srcDoc={html}
          style={{
            display: 'block',
            margin: '0 auto',
            width: widths[width],
            maxWidth: '100%',
            height,
            border: 0,
            background: 'white',
          }}
        />
      </Box>
    </Stack>
  );
}
