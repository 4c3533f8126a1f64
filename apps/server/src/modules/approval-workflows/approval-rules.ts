import type { ApprovalWorkflowStatus, ReviewDecision, StageSnapshot } from '../../db/schema.ts';

/** A decision as the rules need it. */
export interface DecisionRecord {
  userId: number | null;
  stagePosition: number;
  round: number;
  decision: ReviewDecision;
}

export interface WorkflowState {
  status: ApprovalWorkflowStatus;
  stages: readonly StageSnapshot[];
  currentStagePosition: number;
  round: number;
}

export interface StageProgress {
  position: number;
  approval_type: StageSnapshot['approval_type'];
  status: 'waiting' | 'in_progress' | 'completed';
  approved_by_user_ids: number[];
  waiting_on_user_ids: number[];
}

/**
 * Whose approvals count at a stage. The current stage counts only this round's: a resubmission
 * continues at the stage that asked for changes, and decisions made there (or later) before it
 * no longer apply. A stage already passed keeps the approvals of the round that completed it,
 * the latest round with decisions there (stages are only ever revisited after a reset).
 */
export function countedApprovers(
  workflow: WorkflowState,
  position: number,
  decisions: readonly DecisionRecord[],
): number[] {
  const atStage = decisions.filter((decision) => decision.stagePosition === position);
  const round =
    position === workflow.currentStagePosition
      ? workflow.round
      : Math.max(0, ...atStage.map((decision) => decision.round));
  const approvers = atStage
    .filter((decision) => decision.round === round && decision.decision === 'approved')
    .map((decision) => decision.userId)
    .filter((userId): userId is number => userId !== null);
  return [...new Set(approvers)];
}

/** one_of completes with one approval; all_of with every member's (of the snapshot). */
export function stageComplete(stage: StageSnapshot, approvers: readonly number[]): boolean {
  const approved = stage.user_ids.filter((userId) => approvers.includes(userId));
  return stage.approval_type === 'one_of' ? approved.length > 0 : approved.length === stage.user_ids.length;
}

/** Each stage's state, whose approvals count and whom it waits on. */
export function stagesProgress(
  workflow: WorkflowState,
  decisions: readonly DecisionRecord[],
): StageProgress[] {
  return workflow.stages.map((stage) => {
    const approvers = countedApprovers(workflow, stage.position, decisions);
    const completed =
      stage.position < workflow.currentStagePosition ||
      (stage.position === workflow.currentStagePosition && stageComplete(stage, approvers));
    const underWay = workflow.status === 'in_progress' && stage.position === workflow.currentStagePosition;
    return {
      position: stage.position,
      approval_type: stage.approval_type,
      status: completed ? 'completed' : underWay ? 'in_progress' : 'waiting',
      approved_by_user_ids: approvers.filter((userId) => stage.user_ids.includes(userId)),
      waiting_on_user_ids: completed ? [] : stage.user_ids.filter((userId) => !approvers.includes(userId)),
    };
  });
}

/** "Bea Reviewer", "Bea Reviewer and Carl Checker", "A, B and C". */
export function namesInWords(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? 'nobody';
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}
