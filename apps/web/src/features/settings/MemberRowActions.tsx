import { Button, Group } from '@mantine/core';

/**
 * The buttons of a workspace's or a team's row: Members always, Edit and Delete only when given
 * (the page passes them when the role may use them).
 */
export function MemberRowActions({
  name,
  onMembers,
  onEdit,
  onDelete,
}: {
  name: string;
  onMembers: () => void;
  onEdit?: () => void;
  onDelete?: () => void;
}) {
  return (
    <Group justify="flex-end" gap="xs" wrap="nowrap">
      <Button size="xs" variant="light" onClick={onMembers}>
        Members
      </Button>
      {onEdit && (
        <Button size="xs" variant="subtle" onClick={onEdit}>
          Edit
        </Button>
      )}
      {onDelete && (
        <Button size="xs" variant="subtle" color="red" aria-label={`Delete ${name}`} onClick={onDelete}>
          Delete
        </Button>
      )}
    </Group>
  );
}
