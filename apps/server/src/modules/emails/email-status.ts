import type { EmailMove, EmailStatus } from '@letterset/core';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { emails } from '../../db/schema.ts';
import { ConflictError, NotFoundError } from '../../http/errors.ts';
import type { Principal } from '../../http/principal.ts';
import type { Services } from '../../services.ts';
import { recordAuditEntry } from '../audit-logs/audit-logs.service.ts';
import { announceEmailEvent } from './email-events.ts';
import { assertApprovedContent, cancelWorkflowUnderWay } from './email-review-records.ts';
import { findVisibleEmail, getEmail } from './email-visibility.ts';
import { moveEmail } from './emails.lifecycle.ts';
import { overriddenProblems, type PreSendChecker, refuseBlockingProblems } from './pre-send-gate.ts';

export async function moveEmailStatus(
  services: Services,
  principal: Principal,
  workspaceId: number,
  id: number,
  move: EmailMove,
) {
  await findVisibleEmail(services, principal, workspaceId, id);
  await services.database.db.transaction(async (tx) => {
    // Locked so that a reviewer's decision and this move cannot interleave.
    const [email] = await tx.select().from(emails).where(eq(emails.id, id)).for('update');
    if (!email) throw new NotFoundError();
    const status: EmailStatus = moveEmail(principal, email.status, move);
    if (move === 'publish') await assertApprovedContent(tx, email);
    // Publishing by force or going back to draft ends the review under way: its decisions no longer apply.
    const cancelled =
      (move === 'force_publish' || move === 'convert_to_draft') && (await cancelWorkflowUnderWay(tx, id));
    await tx.update(emails).set({ status }).where(eq(emails.id, id));
    await announceEmailEvent(tx, { type: 'status_changed', email_id: id, status });
    if (cancelled) await announceEmailEvent(tx, { type: 'review_changed', email_id: id });
  });
  return getEmail(services, principal, workspaceId, id);
}

/** What a publish asks and where its trail goes. */
export interface PublishRequest {
  /** Publish from any status (needs force_publish_emails), overriding the acknowledged blocking problems. */
  force: boolean;
  /** The codes of the blocking problems the caller confirmed overriding (force only). */
  acknowledgedProblems: readonly string[] | undefined;
  preSendChecks: PreSendChecker;
  /** The request, for the audit entry of a force publish and the log line that lists what it overrode. */
  request: { path: string; id: string; log: FastifyBaseLogger };
}

/**
 * Publishes an email: from approved, the approved content, when the pre-send checks find no
 * blocking problem (422 listing them). A force publish (force_publish_emails) goes from any
 * status and may override blocking problems the caller acknowledged (409 when they changed since);
 * it ends the review under way and is recorded in the audit log as `emails.force_published`.
 */
export async function publishEmail(
  services: Services,
  principal: Principal,
  workspaceId: number,
  id: number,
  publish: PublishRequest,
) {
  const { email: checked } = await findVisibleEmail(services, principal, workspaceId, id);
  const move: EmailMove = publish.force ? 'force_publish' : 'publish';
  // The key and the status refuse before the checks run: they would refuse whatever the checks find.
  moveEmail(principal, checked.status, move);
  if (move === 'publish') await assertApprovedContent(services.database.db, checked);
  const checks = await publish.preSendChecks(checked);
  const overridden = publish.force ? overriddenProblems(checks, publish.acknowledgedProblems) : [];
  if (!publish.force) refuseBlockingProblems(checks, 'publish');

  await services.database.db.transaction(async (tx) => {
    // Locked so that a reviewer's decision and this move cannot interleave.
    const [email] = await tx.select().from(emails).where(eq(emails.id, id)).for('update');
    if (!email) throw new NotFoundError();
    const status: EmailStatus = moveEmail(principal, email.status, move);
    if (move === 'publish') await assertApprovedContent(tx, email);
    if (email.lockVersion !== checked.lockVersion) {
      throw new ConflictError('The email changed while its pre-send checks ran: try again', {
        lock_version: email.lockVersion,
      });
    }
    // Publishing by force ends the review under way: its decisions no longer apply.
    const cancelled = move === 'force_publish' && (await cancelWorkflowUnderWay(tx, id));
    await tx.update(emails).set({ status }).where(eq(emails.id, id));
    await announceEmailEvent(tx, { type: 'status_changed', email_id: id, status });
    if (cancelled) await announceEmailEvent(tx, { type: 'review_changed', email_id: id });
    if (move === 'force_publish') {
      await recordAuditEntry(tx, principal, {
        action: 'update',
        resourceType: 'emails.force_published',
        resourceId: String(id),
        method: 'POST',
        path: publish.request.path,
        requestId: publish.request.id,
        details: { overridden_problems: overridden },
      });
    }
  });
  if (move === 'force_publish') {
    // Operators watching the logs see an override as it happens; the audit entry keeps it.
    publish.request.log.warn(
      {
        email_id: id,
        overridden_problems: overridden,
      },
      overridden.length > 0
        ? `email force-published over ${overridden.length} blocking pre-send problem(s)`
        : 'email force-published',
    );
  }
  return {
    ...(await getEmail(services, principal, workspaceId, id)),
    pre_send_warnings: checks.problems.filter((problem) => problem.severity === 'warning'),
    overridden_problems: overridden,
  };
}
