import type { PermissionKey } from '@letterset/core';
import { type EmailStatus, emailStatuses } from '../../db/schema.ts';
import { type Principal, requirePermission } from '../../http/access.ts';
import { ValidationError } from '../../http/errors.ts';

/**
 * The email status machine, in one place. Each move says where it may start, where it ends and
 * which permission key it needs. Review moves (submit for approval, approve, request changes)
 * join this table with the collaboration work; the routes only ever call `moveEmail`.
 */
const moves = {
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

/** The status an email moves to; 403 without the move's key, 422 when its status does not allow it. */
export function moveEmail(principal: Principal, current: EmailStatus, move: EmailMove): EmailStatus {
  const rule = moves[move];
  requirePermission(principal, rule.permission);
  if (!(rule.from as readonly EmailStatus[]).includes(current)) {
    throw ValidationError.field('status', refusal(move, current));
  }
  return rule.to;
}

function refusal(move: EmailMove, current: EmailStatus): string {
  if (move === 'publish') {
    return `is ${current}: only an approved email can be published (or publish with force: true)`;
  }
  return `is already ${moves[move].to}`;
}

/** Published emails are final: their content stays as sent until someone converts them to draft. */
export function assertEditable(status: EmailStatus): void {
  if (status === 'published') {
    throw ValidationError.field(
      'status',
      'is published: a published email is read-only; convert it to draft to change it',
    );
  }
}
