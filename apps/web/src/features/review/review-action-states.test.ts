import { describe, expect, it } from 'vitest';
import { frozenReason, reviewActionStates } from './review-action-states.ts';
import type { ApprovalWorkflow } from './review-api.ts';

const person = (id: number, first: string, last: string) => ({
  user_id: id,
  user: { id, first_name: first, last_name: last, profile_image_url: null },
});

const editorKeys = ['submit_for_approval', 'publish_emails', 'convert_emails_to_draft', 'send_test_emails'];
const sam = { id: 1, permissions: editorKeys };
const bea = { id: 2, permissions: ['email_commenting'] };
const carl = { id: 3, permissions: ['email_commenting'] };
const dora = { id: 4, permissions: ['email_commenting'] };

/** A two-stage review: Bea alone at stage 1 (one_of), Carl and Dora at stage 2 (all_of). */
function workflow(overrides: Partial<ApprovalWorkflow> = {}): ApprovalWorkflow {
  return {
    id: 9,
    email_id: 5,
    status: 'in_progress',
    review_group_id: 7,
    review_group: {
      id: 7,
      name: 'Review of “Spring”',
      reusable: false,
      stages: [
        { position: 1, approval_type: 'one_of', members: [person(2, 'Bea', 'Reviewer')] },
        {
          position: 2,
          approval_type: 'all_of',
          members: [person(3, 'Carl', 'Checker'), person(4, 'Dora', 'Decider')],
        },
      ],
    },
    creator_id: 1,
    creator: null,
    current_stage_position: 1,
    round: 1,
    review_approvals: [],
    stages_progress: [
      {
        position: 1,
        approval_type: 'one_of',
        status: 'in_progress',
        approved_by_user_ids: [],
        waiting_on_user_ids: [2],
      },
      {
        position: 2,
        approval_type: 'all_of',
        status: 'waiting',
        approved_by_user_ids: [],
        waiting_on_user_ids: [3, 4],
      },
    ],
    approved_lock_version: null,
    created_at: '2026-01-01T00:00:00Z',
    completed_at: null,
    ...overrides,
  };
}

const atStage2 = (approvedBy: number[]) =>
  workflow({
    current_stage_position: 2,
    stages_progress: [
      {
        position: 1,
        approval_type: 'one_of',
        status: 'completed',
        approved_by_user_ids: [2],
        waiting_on_user_ids: [],
      },
      {
        position: 2,
        approval_type: 'all_of',
        status: 'in_progress',
        approved_by_user_ids: approvedBy,
        waiting_on_user_ids: [3, 4].filter((id) => !approvedBy.includes(id)),
      },
    ],
  });

describe('reviewActionStates', () => {
  it('lets a submitter submit a saved draft, and says why not otherwise', () => {
    expect(reviewActionStates({ status: 'draft', lock_version: 1 }, null, sam).submit).toEqual({
      enabled: true,
      reason: null,
    });
    expect(
      reviewActionStates({ status: 'draft', lock_version: 1 }, null, sam, { saved: false }).submit,
    ).toEqual({
      enabled: false,
      reason: 'Wait until your changes are saved',
    });
    expect(reviewActionStates({ status: 'draft', lock_version: 1 }, null, bea).submit.reason).toBe(
      'Your role cannot submit emails for approval',
    );
    expect(
      reviewActionStates({ status: 'in_review', lock_version: 1 }, workflow(), sam).submit.reason,
    ).toContain('It is in review');
  });

  it('lets only members of the current stage decide, naming whom the stage waits on', () => {
    const inReview = { status: 'in_review' as const, lock_version: 1 };
    expect(reviewActionStates(inReview, workflow(), bea).approve.enabled).toBe(true);
    expect(reviewActionStates(inReview, workflow(), carl).approve).toEqual({
      enabled: false,
      reason: 'Stage 1 is waiting on Bea Reviewer',
    });
    expect(reviewActionStates(inReview, atStage2([]), bea).request_changes.reason).toBe(
      'Stage 2 is waiting on Carl Checker and Dora Decider',
    );
    expect(reviewActionStates(inReview, atStage2([3]), carl).approve.reason).toBe(
      'You approved stage 2; it is waiting on Dora Decider',
    );
    expect(reviewActionStates(inReview, atStage2([3]), dora).approve.enabled).toBe(true);
    expect(reviewActionStates({ status: 'draft', lock_version: 1 }, null, bea).approve.reason).toContain(
      'decisions are made while it is in review',
    );
  });

  it('offers resubmission only after changes were requested on a review under way', () => {
    const asked = { status: 'changes_requested' as const, lock_version: 2 };
    expect(reviewActionStates(asked, workflow(), sam).resubmit.enabled).toBe(true);
    expect(reviewActionStates(asked, workflow({ status: 'cancelled' }), sam).resubmit.reason).toBe(
      'The review was cancelled: submit it again',
    );
    expect(reviewActionStates({ status: 'draft', lock_version: 1 }, null, sam).resubmit.enabled).toBe(false);
  });

  it('publishes only the approved content; force publish and convert need their keys', () => {
    const approved = workflow({ status: 'completed', approved_lock_version: 3 });
    expect(reviewActionStates({ status: 'approved', lock_version: 3 }, approved, sam).publish.enabled).toBe(
      true,
    );
    expect(reviewActionStates({ status: 'approved', lock_version: 4 }, approved, sam).publish.reason).toBe(
      'The content changed since it was approved: submit it again',
    );
    expect(
      reviewActionStates({ status: 'in_review', lock_version: 1 }, workflow(), sam).publish.reason,
    ).toContain('only an approved email can be published');
    expect(reviewActionStates({ status: 'approved', lock_version: 3 }, approved, bea).publish.reason).toBe(
      'Your role cannot publish emails',
    );
    expect(reviewActionStates({ status: 'draft', lock_version: 1 }, null, sam).force_publish.reason).toBe(
      'Your role cannot publish without approval',
    );
    const admin = { id: 8, permissions: [...editorKeys, 'force_publish_emails'] };
    expect(reviewActionStates({ status: 'draft', lock_version: 1 }, null, admin).force_publish.enabled).toBe(
      true,
    );
    expect(reviewActionStates({ status: 'draft', lock_version: 1 }, null, sam).convert_to_draft.reason).toBe(
      'It is already a draft',
    );
    expect(reviewActionStates({ status: 'draft', lock_version: 1 }, null, bea).send_test.reason).toBe(
      'Your role cannot send test emails',
    );
  });

  it('freezes the editor in review, approved and published only', () => {
    expect(frozenReason('draft')).toBeNull();
    expect(frozenReason('changes_requested')).toBeNull();
    expect(frozenReason('in_review')).toContain('what is approved is what ships');
    expect(frozenReason('approved')).toContain('approved');
    expect(frozenReason('published')).toContain('published');
  });
});
