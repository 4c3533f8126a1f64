import type { PermissionKey } from '@letterset/core';
import { type EmailStatus, emailStatuses } from '../../db/schema.ts';
import { requirePermission } from '../../http/access.ts';
import { ValidationError } from '../../http/errors.ts';
import type { Principal } from '../../http/principal.ts';

/**
 * The email status machine, in one place. Each move says where it may start, where it ends and
 * which permission key it needs; the routes only ever call `moveEmail`.
 *
 * The review moves: `submit_for_approval` starts a review (a new workflow at stage 1),
 * `resubmit` continues the workflow under way from the stage that asked for changes,
 * `request_changes` and `approve` are a reviewer's decisions. `approve` is the decision that
 * completes the last stage; an approval that leaves a stage waiting, or that completes an earlier
 * stage, keeps the email in review. Who may decide is the current stage's members: the key
 * (`email_commenting`, which every built-in role has) is the floor, not the rule.
 */
const moves = {
  submit_for_approval: {
    from: ['draft', 'changes_requested'],
    to: 'in_review',
    permission: 'submit_for_approval',
  },
  resubmit: { from: ['changes_requested'], to: 'in_review', permission: 'submit_for_approval' },
  request_changes: { from: ['in_review'], to: 'changes_requested', permission: 'email_commenting' },
  approve: { from: ['in_review'], to: 'approved', permission: 'email_commenting' },
  publish: { from: ['approved'], to: 'published', permission: 'publish_emails' },
  force_publish: {
    from: emailStatuses.filter((status) => status !== 'published'),
    to: 'published',
    permission: 'force_publish_emails',
  },
  convert_to_draft: {
    from: emailStatuses.filter((status) => status !== 'draft'),
    to: 'draft',
    permission: 'convert_emails_to_draft',
  },
} as const satisfies Record<
  string,
  { from: readonly EmailStatus[]; to: EmailStatus; permission: PermissionKey }
>;

export type EmailMove = keyof typeof moves;

/** Whether the move may start from this status (no permission check): for UIs and models. */
export function moveAllowedFrom(move: EmailMove, current: EmailStatus): boolean {
  return (moves[move].from as readonly EmailStatus[]).includes(current);
}

/** The status an email moves to; 403 without the move's key, 422 when its status does not allow it. */
export function moveEmail(principal: Principal, current: EmailStatus, move: EmailMove): EmailStatus {
  const rule = moves[move];
  requirePermission(principal, rule.permission);
  if (!moveAllowedFrom(move, current)) {
    throw ValidationError.field('status', refusal(move, current));
  }
  return rule.to;
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
    default:
      return `is already ${moves[move].to}`;
  }
}

/** Statuses whose content is frozen: published (as sent), in review and approved (what is approved is what ships). */
const frozenStatuses: readonly EmailStatus[] = ['in_review', 'approved', 'published'];

/** Whether the email's content (and what renders it: locales, profiles) may change in this status. */
export function contentEditable(status: EmailStatus): boolean {
  return !frozenStatuses.includes(status);
}

/**
 * Refuses a content change in a frozen status. Published emails stay as sent until converted to
 * draft; in review and approved, the content is what reviewers decide on and what will ship.
 */
export function assertEditable(status: EmailStatus): void {
  if (status === 'published') {
    throw ValidationError.field(
      'status',
      'is published: a published email is read-only; convert it to draft to change it',
    );
  }
  if (status === 'in_review' || status === 'approved') {
    throw ValidationError.field(
      'status',
      `is ${status}: what is approved is what ships, so its content cannot change now; ` +
        'convert it to draft (or have a reviewer request changes) to edit it',
    );
  }
}
