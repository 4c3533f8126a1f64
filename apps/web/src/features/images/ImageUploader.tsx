import '@mantine/dropzone/styles.css';
import { CloseButton, Group, Progress, Stack, Text } from '@mantine/core';
import { Dropzone, type FileRejection } from '@mantine/dropzone';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  acceptedImageTypes,
  formatBytes,
  type Image,
  imagesKey,
  maxImageBytes,
  uploadFailure,
  uploadImage,
} from './images-api.ts';

/** One dropped file and how its upload went. */
interface UploadItem {
  key: string;
  fileName: string;
  state: 'uploading' | 'done' | 'failed';
  progress: number;
  message?: string;
}

let nextUploadKey = 0;

function rejectionMessage(rejection: FileRejection): string {
  const codes = rejection.errors.map((error) => error.code);
  if (codes.includes('file-too-large')) {
    return `Too large (${formatBytes(rejection.file.size)}): images can be up to ${formatBytes(maxImageBytes)}.`;
  }
  if (codes.includes('file-invalid-type')) return 'Not a JPEG, PNG, GIF or WebP image.';
  return rejection.errors.map((error) => error.message).join(' ');
}

/**
 * Drop zone for several images at once. Each file uploads on its own and keeps its line with its
 * progress, or the reason it was refused (by the browser's first check or by the server).
 */
export function ImageUploader({
  workspaceId,
  onUploaded,
  compact = false,
  multiple = true,
}: {
  workspaceId: number;
  onUploaded?: (image: Image) => void;
  compact?: boolean;
  /** False where one upload is the answer, as in the picker. */
  multiple?: boolean;
}) {
  const queryClient = useQueryClient();
  const [items, setItems] = useState<UploadItem[]>([]);

  const update = (key: string, change: Partial<UploadItem>) =>
    setItems((current) => current.map((item) => (item.key === key ? { ...item, ...change } : item)));

  const upload = (file: File) => {
    const key = `upload-${nextUploadKey++}`;
    setItems((current) => [{ key, fileName: file.name, state: 'uploading', progress: 0 }, ...current]);
    uploadImage(workspaceId, file, (progress) => update(key, { progress }))
      .then((image) => {
        update(key, { state: 'done', progress: 1 });
        queryClient.invalidateQueries({ queryKey: imagesKey(workspaceId) });
        onUploaded?.(image);
      })
      .catch((error: unknown) => update(key, { state: 'failed', message: uploadFailure(error) }));
  };

  const reject = (rejections: FileRejection[]) =>
    setItems((current) => [
      ...rejections.map((rejection) => ({
        key: `upload-${nextUploadKey++}`,
        fileName: rejection.file.name,
        state: 'failed' as const,
        progress: 0,
        message: rejectionMessage(rejection),
      })),
      ...current,
    ]);

  return (
    <Stack gap="xs">
      <Dropzone
        onDrop={(files: File[]) => files.forEach(upload)}
        onReject={reject}
        accept={acceptedImageTypes}
        maxSize={maxImageBytes}
        multiple={multiple}
        aria-label="Upload images"
      >
        <Stack align="center" gap={4} py={compact ? 'xs' : 'lg'} style={{ pointerEvents: 'none' }}>
          <Dropzone.Accept>
            <Text fw={500}>Drop to upload</Text>
          </Dropzone.Accept>
          <Dropzone.Reject>
            <Text fw={500} c="red">
              Only JPEG, PNG, GIF or WebP images up to {formatBytes(maxImageBytes)}
            </Text>
          </Dropzone.Reject>
          <Dropzone.Idle>
            <Text fw={500}>
              {multiple
                ? 'Drag images here or click to choose files'
                : 'Drag an image here or click to choose a file'}
            </Text>
          </Dropzone.Idle>
          <Text size="sm" c="dimmed">
            JPEG, PNG, GIF or WebP, up to {formatBytes(maxImageBytes)} each
          </Text>
        </Stack>
      </Dropzone>
      {items.length > 0 && (
        <Stack gap={6} component="ul" p={0} m={0} aria-label="Uploads" style={{ listStyle: 'none' }}>
          {items.map((item) => (
            <UploadLine
              key={item.key}
              item={item}
              onDismiss={() => setItems((current) => current.filter((other) => other.key !== item.key))}
            />
          ))}
        </Stack>
      )}
    </Stack>
  );
}

function UploadLine({ item, onDismiss }: { item: UploadItem; onDismiss: () => void }) {
  const status =
    item.state === 'uploading'
      ? `Uploading ${Math.round(item.progress * 100)}%`
      : item.state === 'done'
        ? 'Uploaded'
        : item.message;
  return (
    <li>
      <Group gap="xs" wrap="nowrap" justify="space-between">
        <Text size="sm" truncate="end" fw={500} maw="40%">
          {item.fileName}
        </Text>
        <Text
          size="sm"
          c={item.state === 'failed' ? 'red' : item.state === 'done' ? 'teal' : 'dimmed'}
          flex={1}
        >
          {status}
        </Text>
        {item.state !== 'uploading' && (
          <CloseButton size="sm" aria-label={`Dismiss ${item.fileName}`} onClick={onDismiss} />
        )}
      </Group>
      {item.state === 'uploading' && (
        <Progress value={item.progress * 100} size="sm" aria-label={`${item.fileName} upload progress`} />
      )}
    </li>
  );
}
