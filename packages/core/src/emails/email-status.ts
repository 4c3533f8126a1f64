import type { PermissionKey } from '../permissions.ts';

export const emailStatuses = ['draft', 'in_review', 'changes_requested', 'approved', 'published'] as const;
export type EmailStatus = (typeof emailStatuses)[number];

/**
 * The email status machine, in one place. Each move says where it may start, where it ends and
 * which permission key it needs.
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

export const emailMoves = Object.keys(moves) as readonly EmailMove[];

/** The permission key a move needs, whatever the email's status. */
export function emailMovePermission(move: EmailMove): PermissionKey {
  return moves[move].permission;
}

/** Whether the move may start from this status (no permission check): for UIs and models. */
export function emailMoveAllowedFrom(move: EmailMove, current: EmailStatus): boolean {
  return (moves[move].from as readonly EmailStatus[]).includes(current);
}

/** The status the move ends in, or undefined when it may not start from `current` (no permission check). */
export function emailStatusAfter(current: EmailStatus, move: EmailMove): EmailStatus | undefined {
  return emailMoveAllowedFrom(move, current) ? moves[move].to : undefined;
}

/** Statuses whose content is frozen: published (as sent), in review and approved (what is approved is what ships). */
const frozenStatuses: readonly EmailStatus[] = ['in_review', 'approved', 'published'];

/** Whether the email's content (and what renders it: locales, profiles) may change in this status. */
export function emailContentEditable(status: EmailStatus): boolean {
  return !frozenStatuses.includes(status);
}
