import { Box, Button, Drawer, Group } from '@mantine/core';
import { type ReactNode, useState } from 'react';

export interface PhoneSheet {
  id: string;
  /** The button that opens the sheet, and the sheet's title. */
  label: string;
  content: ReactNode;
}

/**
 * The editor on a phone, where people mostly review: the preview fills the screen, and what
 * would sit in side panels opens in a sheet from the bottom, one at a time, over the preview.
 */
export function PhoneLayout({
  toolbar,
  preview,
  sheets,
  openSheet,
  onOpenSheet,
}: {
  toolbar: ReactNode;
  preview: ReactNode;
  sheets: PhoneSheet[];
  /** The sheet shown, when the caller decides (a pin tapped opens the comments). */
  openSheet?: string | null;
  onOpenSheet?: (id: string | null) => void;
}) {
  const [ownOpenSheet, setOwnOpenSheet] = useState<string | null>(null);
  const shown = openSheet !== undefined ? openSheet : ownOpenSheet;
  const show = (id: string | null) => {
    setOwnOpenSheet(id);
    onOpenSheet?.(id);
  };
  const sheet = sheets.find((candidate) => candidate.id === shown);
  return (
    <Box style={{ display: 'flex', flexDirection: 'column', flex: 1, minHeight: 0 }}>
      {toolbar}
      <Box style={{ flex: 1, minHeight: 0, display: 'flex', position: 'relative' }}>{preview}</Box>
      <Group grow gap="xs" pt="xs" role="toolbar" aria-label="Review on the phone">
        {sheets.map((candidate) => (
          <Button
            key={candidate.id}
            variant={candidate.id === shown ? 'filled' : 'default'}
            onClick={() => show(candidate.id)}
          >
            {candidate.label}
          </Button>
        ))}
      </Group>
      <Drawer
        opened={sheet !== undefined}
        onClose={() => show(null)}
        position="bottom"
        size="75%"
        title={sheet?.label}
        radius="md"
      >
        {sheet?.content}
      </Drawer>
    </Box>
  );
}
