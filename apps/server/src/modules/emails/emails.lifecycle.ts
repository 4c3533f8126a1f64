import {
  type EmailMove,
  type EmailStatus,
  emailContentEditable,
  emailMovePermission,
  emailStatusAfter,
} from '@letterset/core';
import { requirePermission } from '../../http/access.ts';
import { ValidationError } from '../../http/errors.ts';
import type { Principal } from '../../http/principal.ts';

/**
 * The status machine of `@letterset/core` with the server's errors; the routes and services only
 * ever move an email through `moveEmail`.
 */

/** The status an email moves to; 403 without the move's key, 422 when its status does not allow it. */
export function moveEmail(principal: Principal, current: EmailStatus, move: EmailMove): EmailStatus {
  requirePermission(principal, emailMovePermission(move));
  const next = emailStatusAfter(current, move);
  if (next === undefined) throw ValidationError.field('status', refusal(move, current));
  return next;
}

function refusal(move: EmailMove, current: EmailStatus): string {
  switch (move) {
    case 'publish':
      return `is ${current}: only an approved email can be published (or publish with force: true)`;
    case 'submit_for_approval':
      return `is ${current}: only a draft, or an email whose reviewers requested changes, can be submitted for approval`;
    case 'resubmit':
      return `is ${current}: only an email whose reviewers requested changes can be resubmitted`;
    case 'approve':
    case 'request_changes':
      return `is ${current}: decisions are made while the email is in review`;
    case 'force_publish':
      return 'is already published';
    case 'convert_to_draft':
      return 'is already draft';
  }
}

/**
 * Refuses a content change in a frozen status. Published emails stay as sent until converted to
 * draft; in review and approved, the content is what reviewers decide on and what will ship.
 */
export function assertEditable(status: EmailStatus): void {
  if (emailContentEditable(status)) return;
  if (status === 'published') {
    throw ValidationError.field(
      'status',
      'is published: a published email is read-only; convert it to draft to change it',
    );
  }
  throw ValidationError.field(
    'status',
    `is ${status}: what is approved is what ships, so its content cannot change now; ` +
      'convert it to draft (or have a reviewer request changes) to edit it',
  );
}
