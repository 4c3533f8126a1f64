import { Type } from 'typebox';
import { aiReviewStatuses, reviewAssigneeTypes } from '../../db/schema.ts';
import { Id, RequestBody, ref, Timestamp } from '../../http/schemas.ts';
import { UserReference } from '../users/users.schemas.ts';

const AssigneeType = Type.Enum([...reviewAssigneeTypes], {
  description:
    'A person (User), everyone holding a role (Role), or an AI reviewer of the workspace (AiReviewer)',
});

export const ReviewAssignee = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String({ description: 'The person’s full name, the role’s or the AI reviewer’s name' }),
    first_name: Type.Optional(Type.String({ description: 'User assignees only' })),
    last_name: Type.Optional(Type.String({ description: 'User assignees only' })),
    profile_image_url: Type.Optional(
      Type.Union([Type.String(), Type.Null()], { description: 'User assignees only' }),
    ),
  },
  {
    description:
      'Who is asked: a user reference with its name for a User, {id, name} for a Role or an AiReviewer',
  },
);

export const ReviewAssignment = Type.Object(
  {
    id: Type.Integer(),
    email_id: Type.Integer(),
    assignee_id: Type.Integer(),
    assignee_type: AssigneeType,
    assignee: ReviewAssignee,
    assigned_by_id: Type.Union([Type.Integer(), Type.Null()]),
    assigned_by: Type.Union([ref(UserReference), Type.Null()]),
    ai_review_status: Type.Union([Type.Enum([...aiReviewStatuses]), Type.Null()], {
      description:
        'For an AiReviewer: its review’s run: `running` (reading the email), `done` (its comments are posted), `failed` (see ai_review_error); null for people and roles',
    }),
    ai_review_error: Type.Union([Type.String(), Type.Null()], {
      description:
        'Why the AI review failed, in plain words (no AI provider set up, the provider refused the key, …); null otherwise',
    }),
    created_at: Timestamp,
  },
  { $id: 'ReviewAssignment' },
);

export const CreateReviewAssignmentBody = RequestBody({
  assignee_id: Id({ description: 'The id of the user, role or AI reviewer' }),
  assignee_type: AssigneeType,
});

export const EmailReviewAssignmentsParams = Type.Object({ workspace_id: Id(), email_id: Id() });
export const ReviewAssignmentParams = Type.Object({
  workspace_id: Id(),
  email_id: Id(),
  review_assignment_id: Id(),
});
