import { Badge } from '@mantine/core';
import type { EmailStatus } from './emails-api.ts';

export const emailStatusLabels: Record<EmailStatus, string> = {
  draft: 'Draft',
  in_review: 'In review',
  changes_requested: 'Changes requested',
  approved: 'Approved',
  published: 'Published',
};

const statusColors: Record<EmailStatus, string> = {
  draft: 'gray',
  in_review: 'blue',
  changes_requested: 'orange',
  approved: 'green',
  published: 'violet',
};

export function EmailStatusBadge({ status }: { status: EmailStatus }) {
  return (
    <Badge color={statusColors[status]} variant="light">
      {emailStatusLabels[status]}
    </Badge>
  );
}
