import { Type } from 'typebox';
import { approvalTypes } from '../../db/schema.ts';
import { PaginationQuery } from '../../http/pagination.ts';
import { Id, IdParams, Name, RequestBody, ref, Timestamp } from '../../http/schemas.ts';
import { UserReference } from '../users/users.schemas.ts';

/** A group has at most this many stages, a stage this many members: well beyond any real review. */
export const reviewGroupLimits = { stages: 20, membersPerStage: 50, position: 1_000 } as const;

export const ApprovalTypeSchema = Type.Enum([...approvalTypes], {
  description: '`one_of`: any member’s approval completes the stage; `all_of`: every member’s does',
});

export const ReviewGroupMember = Type.Object({
  id: Type.Integer(),
  user_id: Type.Integer(),
  user: ref(UserReference),
});

export const ReviewGroupStage = Type.Object({
  id: Type.Integer(),
  position: Type.Integer({ description: 'From 1, in the order stages are reviewed' }),
  approval_type: ApprovalTypeSchema,
  members: Type.Array(ReviewGroupMember),
});

export const ReviewGroup = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    reusable: Type.Boolean({
      description: 'False for a group made for one email’s submission alone: it is not offered for others',
    }),
    stages: Type.Array(ReviewGroupStage),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'ReviewGroup' },
);

const MemberInput = Type.Object(
  {
    id: Type.Optional(Id({ description: 'On update: an existing member of this stage, to keep it' })),
    user_id: Id({ description: 'A user of the organization (not removed)' }),
  },
  { additionalProperties: false },
);

const StageInput = Type.Object(
  {
    id: Type.Optional(Id({ description: 'On update: an existing stage of this group, to keep it' })),
    position: Type.Integer({
      minimum: 1,
      maximum: reviewGroupLimits.position,
      description: 'Orders the stages; they are stored renumbered 1, 2, 3… in this order',
    }),
    approval_type: ApprovalTypeSchema,
    members: Type.Array(MemberInput, { minItems: 1, maxItems: reviewGroupLimits.membersPerStage }),
  },
  { additionalProperties: false },
);

const Stages = Type.Array(StageInput, { minItems: 1, maxItems: reviewGroupLimits.stages });

export const CreateReviewGroupBody = RequestBody({
  name: Name(),
  reusable: Type.Optional(Type.Boolean({ default: true, description: 'Offered for every email (default)' })),
  stages: Stages,
});

export const UpdateReviewGroupBody = RequestBody(
  {
    name: Type.Optional(Name()),
    reusable: Type.Optional(Type.Boolean()),
    stages: Type.Optional(Stages),
  },
  'Stages, when given, replace the group’s: stages and members carrying the id of an existing one are kept, those left out are removed. Workflows under way keep the stages they were submitted with.',
);

export const ListReviewGroupsQuery = Type.Object({
  ...PaginationQuery.properties,
  reusable: Type.Optional(
    Type.Enum(['true', 'false', 'all'], {
      default: 'true',
      description: 'Reusable groups (default), the groups made for one email alone (false), or both (all)',
    }),
  ),
});

export const ReviewGroupParams = IdParams;
