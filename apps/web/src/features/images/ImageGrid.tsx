import { AspectRatio, Card, Image as MantineImage, SimpleGrid, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { formatBytes, type Image } from './images-api.ts';

/** Thumbnails with name and size; `actions` adds each card's buttons or menu. */
export function ImageGrid({
  images,
  actions,
  onSelect,
}: {
  images: readonly Image[];
  actions?: (image: Image) => ReactNode;
  /** When given, the whole card is a button that chooses the image. */
  onSelect?: (image: Image) => void;
}) {
  return (
    <SimpleGrid
      cols={{ base: 2, sm: 3, md: 4, lg: 5 }}
      spacing="md"
      component="ul"
      p={0}
      m={0}
      style={{ listStyle: 'none' }}
    >
      {images.map((image) => (
        <li key={image.id}>
          <Card
            withBorder
            padding="xs"
            radius="md"
            h="100%"
            {...(onSelect
              ? {
                  component: 'button' as const,
                  type: 'button' as const,
                  onClick: () => onSelect(image),
                  'aria-label': `Choose ${image.name}`,
                  style: { cursor: 'pointer', textAlign: 'left' as const, width: '100%' },
                }
              : {})}
          >
            <Card.Section>
              <AspectRatio ratio={4 / 3} bg="gray.1">
                <MantineImage src={image.thumbnail_url} alt={image.name} fit="contain" loading="lazy" />
              </AspectRatio>
            </Card.Section>
            <Stack gap={2} mt="xs">
              <Text size="sm" fw={500} truncate="end" title={image.name}>
                {image.name}
              </Text>
              <Text size="xs" c="dimmed">
                {image.width} × {image.height} · {formatBytes(image.file_size)} ·{' '}
                {image.extension.toUpperCase()}
              </Text>
              {actions?.(image)}
            </Stack>
          </Card>
        </li>
      ))}
    </SimpleGrid>
  );
}
