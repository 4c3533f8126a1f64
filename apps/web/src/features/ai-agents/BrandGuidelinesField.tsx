import '@mantine/dropzone/styles.css';
import { Alert, Anchor, Button, CloseButton, Group, Paper, Progress, Stack, Text } from '@mantine/core';
import { Dropzone, type FileRejection } from '@mantine/dropzone';
import {
  acceptedDocumentTypes,
  type BrandGuidelinesDocument,
  formatBytes,
  maxBrandGuidelinesBytes,
} from './ai-agents-api.ts';

/** Why the browser refused a file before sending it. */
export function rejectionMessage(rejection: FileRejection): string {
  const codes = rejection.errors.map((error) => error.code);
  if (codes.includes('file-too-large')) {
    return `${rejection.file.name} is too large (${formatBytes(rejection.file.size)}): documents can be up to ${formatBytes(maxBrandGuidelinesBytes)}.`;
  }
  if (codes.includes('file-invalid-type')) {
    return `${rejection.file.name} is not a PDF, Word (.docx), Markdown (.md) or text (.txt) file.`;
  }
  if (codes.includes('too-many-files')) return 'Choose one document.';
  return rejection.errors.map((error) => error.message).join(' ');
}

/**
 * The brand guidelines document of an agent: the one stored (with its download link), a file
 * chosen but not yet sent, the upload under way, the reason the last one was refused, and the
 * drop zone to choose another.
 */
export function BrandGuidelinesField({
  stored,
  downloadHref,
  pendingFile,
  uploadProgress,
  problem,
  readOnly,
  removing,
  onChoose,
  onRejected,
  onRemove,
  onDiscardPending,
}: {
  stored: BrandGuidelinesDocument | null;
  downloadHref: string | null;
  /** A file chosen for an agent not created yet: it is sent once the agent is. */
  pendingFile: File | null;
  /** 0 to 1 while a file uploads, null otherwise. */
  uploadProgress: number | null;
  problem: string | null;
  readOnly: boolean;
  removing: boolean;
  onChoose: (file: File) => void;
  onRejected: (message: string) => void;
  onRemove: () => void;
  onDiscardPending: () => void;
}) {
  const uploading = uploadProgress !== null;
  return (
    <Stack gap="xs" role="group" aria-label="Brand guidelines document">
      <div>
        <Text size="sm" fw={500}>
          Brand guidelines document
        </Text>
        <Text size="xs" c="dimmed">
          Letterset keeps the document’s text and gives it to AI features with the fields above.
        </Text>
      </div>
      {stored && (
        <Paper withBorder p="xs" radius="sm">
          <Group justify="space-between" wrap="nowrap" gap="xs">
            <Stack gap={0} miw={0}>
              {downloadHref ? (
                <Anchor href={downloadHref} size="sm" fw={500} truncate="end" download={stored.filename}>
                  {stored.filename}
                </Anchor>
              ) : (
                <Text size="sm" fw={500} truncate="end">
                  {stored.filename}
                </Text>
              )}
              <Text size="xs" c="dimmed">
                {formatBytes(stored.size)} · {stored.characters.toLocaleString('en-US')} characters of text
              </Text>
            </Stack>
            {!readOnly && (
              <Button
                variant="subtle"
                color="red"
                size="compact-sm"
                onClick={onRemove}
                loading={removing}
                disabled={uploading}
              >
                Remove
              </Button>
            )}
          </Group>
        </Paper>
      )}
      {!stored && readOnly && (
        <Text size="sm" c="dimmed">
          No document uploaded.
        </Text>
      )}
      {pendingFile && (
        <Group gap="xs" wrap="nowrap" justify="space-between">
          <Text size="sm" truncate="end">
            {pendingFile.name} ({formatBytes(pendingFile.size)}) is sent when the agent is created.
          </Text>
          {!uploading && (
            <CloseButton size="sm" aria-label={`Remove ${pendingFile.name}`} onClick={onDiscardPending} />
          )}
        </Group>
      )}
      {!readOnly && (
        <Dropzone
          onDrop={(files: File[]) => {
            const [file] = files;
            if (file) onChoose(file);
          }}
          onReject={(rejections: FileRejection[]) => {
            const [rejection] = rejections;
            if (rejection) onRejected(rejectionMessage(rejection));
          }}
          accept={acceptedDocumentTypes}
          maxSize={maxBrandGuidelinesBytes}
          multiple={false}
          disabled={uploading}
          aria-label="Upload a brand guidelines document"
        >
          <Stack align="center" gap={4} py="sm" style={{ pointerEvents: 'none' }}>
            <Dropzone.Accept>
              <Text fw={500}>Drop to upload</Text>
            </Dropzone.Accept>
            <Dropzone.Reject>
              <Text fw={500} c="red">
                Only PDF, Word (.docx), Markdown or text files up to {formatBytes(maxBrandGuidelinesBytes)}
              </Text>
            </Dropzone.Reject>
            <Dropzone.Idle>
              <Text fw={500}>
                {stored || pendingFile
                  ? 'Drag another document here to replace it, or click to choose one'
                  : 'Drag a document here or click to choose one'}
              </Text>
            </Dropzone.Idle>
            <Text size="sm" c="dimmed">
              PDF, Word (.docx), Markdown (.md) or text (.txt), up to {formatBytes(maxBrandGuidelinesBytes)}
            </Text>
          </Stack>
        </Dropzone>
      )}
      {uploading && (
        <Stack gap={4}>
          <Text size="sm" c="dimmed">
            {uploadProgress < 1
              ? `Uploading ${Math.round(uploadProgress * 100)}%`
              : 'Reading the document’s text…'}
          </Text>
          <Progress
            value={uploadProgress * 100}
            size="sm"
            animated={uploadProgress >= 1}
            aria-label="Document upload progress"
          />
        </Stack>
      )}
      {problem && (
        <Alert color="red" role="alert" p="xs">
          {problem}
        </Alert>
      )}
    </Stack>
  );
}
