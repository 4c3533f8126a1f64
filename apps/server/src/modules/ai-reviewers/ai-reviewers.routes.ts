import { workspaceCrudRoutes } from '../../http/workspace-crud-routes.ts';
import {
  AiReviewer,
  AiReviewerParams,
  CreateAiReviewerBody,
  UpdateAiReviewerBody,
} from './ai-reviewers.schemas.ts';
import {
  createAiReviewer,
  deleteAiReviewer,
  getAiReviewer,
  listAiReviewers,
  updateAiReviewer,
} from './ai-reviewers.service.ts';

export const aiReviewersRoutes = workspaceCrudRoutes<number>({
  path: 'ai_reviewers',
  tag: 'AI reviewers',
  name: { singular: 'AiReviewer', plural: 'AiReviewers', words: 'AI reviewer' },
  permissions: {
    create: 'create_ai_reviewers',
    update: 'update_ai_reviewers',
    delete: 'delete_ai_reviewers',
  },
  schemas: {
    item: AiReviewer,
    create: CreateAiReviewerBody,
    update: UpdateAiReviewerBody,
    itemParams: AiReviewerParams,
  },
  descriptions: {
    create:
      'Stored and assignable to emails (review assignments of type AiReviewer); running the review with an AI model is not available yet. The name must be unique in the workspace (422).',
    delete: 'Also withdraws the review assignments made of this reviewer.',
  },
  service: {
    list: listAiReviewers,
    create: createAiReviewer,
    get: getAiReviewer,
    update: updateAiReviewer,
    delete: deleteAiReviewer,
  },
});
