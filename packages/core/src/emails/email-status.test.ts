import { describe, expect, it } from 'vitest';
import type { PermissionKey } from '../permissions.ts';
import {
  type EmailMove,
  type EmailStatus,
  emailContentEditable,
  emailMoveAllowedFrom,
  emailMovePermission,
  emailMoves,
  emailStatusAfter,
  emailStatuses,
} from './email-status.ts';

/** The machine written out as a table: every move allowed from each status and where it ends. */
const expectedMoves: Record<EmailStatus, Partial<Record<EmailMove, EmailStatus>>> = {
  draft: { submit_for_approval: 'in_review', force_publish: 'published' },
  in_review: {
    request_changes: 'changes_requested',
    approve: 'approved',
    force_publish: 'published',
    convert_to_draft: 'draft',
  },
  changes_requested: {
    submit_for_approval: 'in_review',
    resubmit: 'in_review',
    force_publish: 'published',
    convert_to_draft: 'draft',
  },
  approved: { publish: 'published', force_publish: 'published', convert_to_draft: 'draft' },
  published: { convert_to_draft: 'draft' },
};

const expectedPermissions: Record<EmailMove, PermissionKey> = {
  submit_for_approval: 'submit_for_approval',
  resubmit: 'submit_for_approval',
  request_changes: 'email_commenting',
  approve: 'email_commenting',
  publish: 'publish_emails',
  force_publish: 'force_publish_emails',
  convert_to_draft: 'convert_emails_to_draft',
};

describe('the email status machine', () => {
  it('has the seven moves', () => {
    expect([...emailMoves].sort()).toEqual(Object.keys(expectedPermissions).sort());
  });

  it.each(emailStatuses.flatMap((status) => emailMoves.map((move) => [status, move] as const)))(
    'from %s, %s ends where the table says, or is refused',
    (status, move) => {
      const expected = expectedMoves[status][move];
      expect(emailStatusAfter(status, move)).toBe(expected);
      expect(emailMoveAllowedFrom(move, status)).toBe(expected !== undefined);
    },
  );

  it.each(emailMoves)('%s needs its one permission key', (move) => {
    expect(emailMovePermission(move)).toBe(expectedPermissions[move]);
  });

  it('lets content change only in draft and changes requested', () => {
    expect(emailStatuses.filter(emailContentEditable)).toEqual(['draft', 'changes_requested']);
  });
});
