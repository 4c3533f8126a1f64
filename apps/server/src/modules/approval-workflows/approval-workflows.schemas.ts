import { Type } from 'typebox';
import { approvalTypes, approvalWorkflowStatuses, reviewDecisions } from '../../db/schema.ts';
import { Id, RequestBody, ref, Text, Timestamp, WorkspaceIdParams } from '../../http/schemas.ts';
import { PreSendProblem } from '../emails/emails.schemas.ts';
import { UserReference } from '../users/users.schemas.ts';

export const EmailReviewParams = Type.Object({ ...WorkspaceIdParams.properties, email_id: Id() });

const ApprovalType = Type.Enum([...approvalTypes], {
  description: 'one_of: any member’s approval completes the stage; all_of: every member’s does',
});

const StageInput = Type.Object(
  {
    approval_type: ApprovalType,
    members: Type.Array(Type.Object({ user_id: Id() }, { additionalProperties: false }), {
      minItems: 1,
      maxItems: 50,
    }),
  },
  { additionalProperties: false },
);

export const SubmitForApprovalBody = RequestBody(
  {
    review_group_id: Type.Optional(Id({ description: 'A reusable review group of the organization' })),
    stages: Type.Optional(
      Type.Array(StageInput, {
        minItems: 1,
        maxItems: 20,
        description:
          'Stages chosen for this email alone, in order (instead of review_group_id): stored as a review ' +
          'group with reusable: false. Ours: the spec names review_group_id only.',
      }),
    ),
    resubmission: Type.Optional(
      Type.Boolean({
        default: false,
        description:
          'After changes were requested: continue the same workflow from the stage that asked for them, ' +
          'keeping the approvals of the stages before it. Without it the review starts again at stage 1.',
      }),
    ),
  },
  'Either review_group_id or stages; with resubmission: true neither is needed (the workflow keeps its stages).',
);

export const ReviewApprovalBody = RequestBody({
  decision: Type.Enum([...reviewDecisions]),
  review_comment: Type.Optional(Type.Union([Text(), Type.Null()])),
});

export const ReviewApproval = Type.Object(
  {
    id: Type.Integer(),
    approval_workflow_id: Type.Integer(),
    decision: Type.Enum([...reviewDecisions]),
    review_comment: Type.Union([Type.String(), Type.Null()]),
    user_id: Type.Union([Type.Integer(), Type.Null()]),
    user: Type.Union([ref(UserReference), Type.Null()]),
    stage_position: Type.Integer({ description: 'Ours: the stage the decision was made at' }),
    round: Type.Integer({ description: 'Ours: the submission round (1, then +1 per resubmission)' }),
    email_lock_version: Type.Integer({
      description: 'Ours: the email’s lock_version the decision was made on',
    }),
    pre_send_warnings: Type.Array(ref(PreSendProblem), {
      description:
        'Ours: the warnings of the pre-send checks when the reviewer approved (blocking problems refuse an ' +
        'approval); empty for a request for changes, which runs no checks',
    }),
    created_at: Timestamp,
  },
  { $id: 'ReviewApproval', description: 'A reviewer’s decision at one stage of a workflow' },
);

const StageMember = Type.Object({
  user_id: Type.Integer(),
  user: Type.Union([ref(UserReference), Type.Null()]),
});

const WorkflowStage = Type.Object({
  position: Type.Integer(),
  approval_type: ApprovalType,
  members: Type.Array(StageMember),
});

const StageProgress = Type.Object({
  position: Type.Integer(),
  approval_type: ApprovalType,
  status: Type.Enum(['waiting', 'in_progress', 'completed']),
  approved_by_user_ids: Type.Array(Type.Integer(), {
    description: 'Whose approvals count for this stage now',
  }),
  waiting_on_user_ids: Type.Array(Type.Integer(), {
    description: 'Members whose decision the stage still awaits (empty once completed)',
  }),
});

export const ApprovalWorkflow = Type.Object(
  {
    id: Type.Integer(),
    email_id: Type.Integer(),
    status: Type.Enum([...approvalWorkflowStatuses], {
      description:
        'in_progress, completed; cancelled (ours) when the email went back to draft or was force-published',
    }),
    review_group_id: Type.Union([Type.Integer(), Type.Null()]),
    review_group: Type.Object(
      {
        id: Type.Union([Type.Integer(), Type.Null()]),
        name: Type.String(),
        reusable: Type.Boolean(),
        stages: Type.Array(WorkflowStage),
      },
      {
        description:
          'The group’s stages as they were when the email was submitted: later edits of the group do not move a review under way',
      },
    ),
    creator_id: Type.Union([Type.Integer(), Type.Null()]),
    creator: Type.Union([ref(UserReference), Type.Null()]),
    current_stage_position: Type.Integer({ description: 'Ours: the stage waiting for decisions' }),
    round: Type.Integer({ description: 'Ours: 1, then +1 per resubmission' }),
    review_approvals: Type.Array(ref(ReviewApproval), { description: 'Every decision, oldest first' }),
    stages_progress: Type.Array(StageProgress, {
      description: 'Ours: each stage’s state, whose approvals count and whom it waits on',
    }),
    approved_lock_version: Type.Union([Type.Integer(), Type.Null()], {
      description: 'Ours: the email’s lock_version when the last stage approved; only it may be published',
    }),
    created_at: Timestamp,
    completed_at: Type.Union([Timestamp, Type.Null()]),
    pre_send_warnings: Type.Optional(
      Type.Array(ref(PreSendProblem), {
        description:
          'Ours, only in the answer to a submission: the warnings of the pre-send checks it ran (blocking ' +
          'problems refuse it)',
      }),
    ),
  },
  {
    $id: 'ApprovalWorkflow',
    description: 'An email’s review: its stages, the stage under way, the decisions',
  },
);
