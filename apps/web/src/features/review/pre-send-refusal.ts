import type { ErrorCode } from '@letterset/api-client';
import { ApiError } from '../../shared/api-error.ts';
import type { PreSendProblem } from '../exports/exports-api.ts';

/** The workflow steps the pre-send checks gate, as the refusal dialog names them. */
export type GatedStep = 'submit' | 'approve' | 'publish' | 'force_publish';

/** A step the pre-send checks refused: the API's message and the blocking problems it listed. */
export interface ChecksRefusal {
  step: GatedStep;
  message: string;
  problems: PreSendProblem[];
}

const refusalCodes: ReadonlySet<ErrorCode | null> = new Set<ErrorCode>([
  'pre_send_checks_failed',
  'pre_send_checks_changed',
]);

/**
 * The blocking problems of a refusal by the pre-send checks (422 `pre_send_checks_failed`, or a
 * force publish's 409 `pre_send_checks_changed`), or null for any other failure.
 */
export function checksRefusalOf(error: unknown, step: GatedStep): ChecksRefusal | null {
  if (!(error instanceof ApiError) || !refusalCodes.has(error.code)) return null;
  const body = error.body as { problems?: unknown };
  const problems = Array.isArray(body.problems) ? (body.problems as PreSendProblem[]) : [];
  return { step, message: error.message, problems };
}

/** What a force publish acknowledges: the code of each blocking problem shown, one per problem. */
export function acknowledgedCodes(problems: readonly PreSendProblem[]): string[] {
  return problems.filter((problem) => problem.severity === 'blocking').map((problem) => problem.code);
}
