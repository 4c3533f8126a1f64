import { Alert, Button, Group } from '@mantine/core';

/** What the server refused that no field of the form shows (see `showApiErrors`), above the fields. */
export function FormProblems({ problems }: { problems: readonly string[] }) {
  if (problems.length === 0) return null;
  return (
    <Alert color="red" role="alert">
      {problems.join(' ')}
    </Alert>
  );
}

/**
 * A modal form's buttons: one that leaves ("Cancel", or "Close" when there is nothing to save)
 * and the submit button, which a read-only form does not show.
 */
export function FormActions({
  readOnly,
  onCancel,
  submitLabel,
  submitting,
  cancelLabel = readOnly ? 'Close' : 'Cancel',
}: {
  readOnly: boolean;
  onCancel: () => void;
  submitLabel: string;
  submitting: boolean;
  cancelLabel?: string;
}) {
  return (
    <Group justify="flex-end">
      <Button variant="default" onClick={onCancel}>
        {cancelLabel}
      </Button>
      {!readOnly && (
        <Button type="submit" loading={submitting}>
          {submitLabel}
        </Button>
      )}
    </Group>
  );
}
