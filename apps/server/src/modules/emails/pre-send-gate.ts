import type { PreSendCheckResult, PreSendProblem } from '@letterset/core';
import type { emails } from '../../db/schema.ts';
import { ConflictError, PreSendChecksFailedError } from '../../http/errors.ts';

/*
 * The pre-send checks as a gate of the workflow: submitting for approval, an approving decision
 * and publishing run the same checks as an export (every locale of the email, rendered as
 * exported without a dynamic content profile). Blocking problems refuse the step; warnings go
 * with it. The checks render the email, which needs the whole rendering setup: the services here
 * receive them as a function (`PreSendChecker`), built where the routes are composed.
 */

type EmailRow = typeof emails.$inferSelect;

/** The pre-send checks over every locale of an email, as its export would run them. */
export type PreSendChecker = (email: EmailRow) => Promise<PreSendCheckResult>;

/** The steps the checks gate, as their refusals name them. */
export type GatedStep = 'submit' | 'approve' | 'publish';

const refusals: Record<GatedStep, string> = {
  submit:
    'The email cannot be submitted for approval: fix the blocking problems of its pre-send checks first',
  approve:
    'The email cannot be approved: its pre-send checks find blocking problems; request changes instead',
  publish:
    'The email cannot be published: fix the blocking problems of its pre-send checks first (or, with the ' +
    'force_publish_emails permission, publish with force: true and acknowledged_problems)',
};

export function blockingProblemsOf(checks: PreSendCheckResult): PreSendProblem[] {
  return checks.problems.filter((problem) => problem.severity === 'blocking');
}

export function warningsOf(checks: PreSendCheckResult): PreSendProblem[] {
  return checks.problems.filter((problem) => problem.severity === 'warning');
}

/** The warnings of a step the checks let through; 422 (`pre_send_checks_failed`) listing the blocking problems otherwise. */
export function refuseBlockingProblems(checks: PreSendCheckResult, step: GatedStep): PreSendProblem[] {
  if (blockingProblemsOf(checks).length > 0)
    throw new PreSendChecksFailedError(checks.problems, refusals[step]);
  return warningsOf(checks);
}

/** Runs the checks on the email: its warnings, or the refusal of the step. */
export async function passPreSendChecks(
  check: PreSendChecker,
  email: EmailRow,
  step: GatedStep,
): Promise<PreSendProblem[]> {
  return refuseBlockingProblems(await check(email), step);
}

/** A problem's codes in a canonical order, to compare what a caller saw with what is found now. */
function sortedCodes(codes: readonly string[]): string[] {
  return [...codes].sort();
}

/**
 * What a force publish overrides: the blocking problems found now, which the caller must have
 * acknowledged (their codes, one per problem, in any order). Without an acknowledgement the
 * publish is refused like any other (422 listing them); an acknowledgement of other problems
 * than those found now (the email or its design system changed since the confirmation was shown)
 * is a 409 listing the current ones, so the caller confirms again what it really overrides.
 */
export function overriddenProblems(
  checks: PreSendCheckResult,
  acknowledgedCodes: readonly string[] | undefined,
): PreSendProblem[] {
  const blocking = blockingProblemsOf(checks);
  if (blocking.length === 0) return [];
  if (acknowledgedCodes === undefined) throw new PreSendChecksFailedError(checks.problems, refusals.publish);
  const found = sortedCodes(blocking.map((problem) => problem.code));
  const acknowledged = sortedCodes(acknowledgedCodes);
  if (found.length !== acknowledged.length || found.some((code, index) => code !== acknowledged[index])) {
    throw new ConflictError(
      'The blocking problems changed since you confirmed them: review the current ones and confirm again',
      { code: 'pre_send_checks_changed', problems: blocking },
    );
  }
  return blocking;
}
