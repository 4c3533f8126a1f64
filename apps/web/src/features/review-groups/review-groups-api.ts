import type { components } from '@letterset/api-client';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../app/api.ts';
import { unwrap } from '../../shared/api-error.ts';

export type ReviewGroup = components['schemas']['ReviewGroup'];
export type ReviewStage = ReviewGroup['stages'][number];
export type ApprovalType = ReviewStage['approval_type'];
type UserReference = components['schemas']['UserReference'];

export const reviewGroupKeys = { all: ['review_groups'] as const };

/** The reusable groups: those offered when an email is submitted for approval. */
export const reviewGroupListQuery = (page: number, per: number) =>
  queryOptions({
    queryKey: [...reviewGroupKeys.all, 'list', { page, per }],
    queryFn: () => unwrap(api.GET('/api/v1/review_groups', { params: { query: { page, per } } })),
    placeholderData: keepPreviousData,
  });

/** A member as the editor holds it: `id` when it is an existing member, kept by the save. */
export interface DraftMember {
  id?: number;
  user_id: number;
}

/** A stage as the editor holds it; `key` identifies it while dragging, `id` when it exists. */
export interface DraftStage {
  key: string;
  id?: number;
  approval_type: ApprovalType;
  members: DraftMember[];
}

export interface ReviewGroupDraft {
  name: string;
  stages: DraftStage[];
}

let nextKey = 0;
export const newStageKey = () => `stage-${++nextKey}`;

export function newStage(): DraftStage {
  return { key: newStageKey(), approval_type: 'one_of', members: [] };
}

export function draftOf(group: ReviewGroup | null): ReviewGroupDraft {
  if (!group) return { name: '', stages: [newStage()] };
  return {
    name: group.name,
    stages: group.stages.map((stage) => ({
      key: newStageKey(),
      id: stage.id,
      approval_type: stage.approval_type,
      members: stage.members.map((member) => ({ id: member.id, user_id: member.user_id })),
    })),
  };
}

/** The people a group names, for labels in the member pickers before anyone searches. */
export function peopleOf(group: ReviewGroup | null): Map<number, UserReference> {
  return new Map(
    (group?.stages ?? []).flatMap((stage) => stage.members.map((member) => [member.user_id, member.user])),
  );
}

/**
 * What POST and PATCH take: stages in the order shown (positions 1, 2, 3…), with the ids of
 * existing stages and members so the API keeps them; what was taken out is left out, so removed.
 */
export function reviewGroupBody(draft: ReviewGroupDraft) {
  return {
    name: draft.name.trim(),
    stages: draft.stages.map((stage, index) => ({
      ...(stage.id === undefined ? {} : { id: stage.id }),
      position: index + 1,
      approval_type: stage.approval_type,
      members: stage.members.map((member) => ({
        ...(member.id === undefined ? {} : { id: member.id }),
        user_id: member.user_id,
      })),
    })),
  };
}

/** Creates the group (no `group`) or saves its new name and stages. */
export function saveReviewGroup(group: ReviewGroup | null, draft: ReviewGroupDraft) {
  return unwrap(
    group
      ? api.PATCH('/api/v1/review_groups/{id}', {
          params: { path: { id: group.id } },
          body: reviewGroupBody(draft),
        })
      : api.POST('/api/v1/review_groups', { body: reviewGroupBody(draft) }),
  );
}

export function deleteReviewGroup(id: number) {
  return unwrap(api.DELETE('/api/v1/review_groups/{id}', { params: { path: { id } } }));
}

export const approvalTypeLabels: Record<ApprovalType, string> = {
  one_of: 'Any member approves',
  all_of: 'Every member approves',
};

/** "Any of 2, then every one of 1": a group's stages in a line. */
export function stagesSummary(group: ReviewGroup): string {
  return group.stages
    .map((stage) =>
      stage.approval_type === 'one_of'
        ? `any of ${stage.members.length}`
        : `every one of ${stage.members.length}`,
    )
    .join(', then ')
    .replace(/^./, (first) => first.toUpperCase());
}
