import { Type } from 'typebox';
import { Id, IdParams, Name, Prompt, RequestBody, Timestamp } from '../../http/schemas.ts';

export const AiReviewer = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    review_instructions: Type.String({
      description: 'What the reviewer looks for, in words an AI model follows',
    }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'AiReviewer' },
);

const ReviewerName = Name({ description: 'Unique in the workspace (case aside)' });
const ReviewInstructions = Prompt({
  minLength: 1,
  examples: ['Check that every claim about prices names its conditions, and that the tone stays friendly.'],
});

export const CreateAiReviewerBody = RequestBody({
  name: ReviewerName,
  review_instructions: ReviewInstructions,
});
export const UpdateAiReviewerBody = RequestBody({
  name: Type.Optional(ReviewerName),
  review_instructions: Type.Optional(ReviewInstructions),
});
export const AiReviewerParams = Type.Object({ workspace_id: Id(), ...IdParams.properties });
