import type { SubmitForApprovalBody } from './review-api.ts';

export interface DraftStage {
  key: string;
  approval_type: 'one_of' | 'all_of';
  user_ids: number[];
}

/** What the submit dialog holds: continue the review under way, a review group, or stages of this email's own. */
export type SubmitForm =
  | { mode: 'continue' }
  | { mode: 'group'; groupId: number | null }
  | { mode: 'stages'; stages: DraftStage[] };

/** The request body the dialog sends, or why it cannot be sent yet. */
export function submitPayload(form: SubmitForm): { body: SubmitForApprovalBody } | { error: string } {
  switch (form.mode) {
    case 'continue':
      return { body: { resubmission: true } };
    case 'group':
      return form.groupId === null
        ? { error: 'Choose a review group' }
        : { body: { review_group_id: form.groupId } };
    case 'stages': {
      if (form.stages.length === 0) return { error: 'Add a stage' };
      const empty = form.stages.findIndex((stage) => stage.user_ids.length === 0);
      if (empty !== -1) return { error: `Choose at least one reviewer for stage ${empty + 1}` };
      return {
        body: {
          stages: form.stages.map((stage) => ({
            approval_type: stage.approval_type,
            members: stage.user_ids.map((user_id) => ({ user_id })),
          })),
        },
      };
    }
  }
}
