import type { components } from '@letterset/api-client';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../app/api.ts';
import { allResults } from '../../shared/all-results.ts';
import { unwrap } from '../../shared/api-error.ts';

export type EmailComment = components['schemas']['EmailComment'];
export type PinData = components['schemas']['CommentPinData'];
export type WorkspaceMember = components['schemas']['User'];
export type NewPin = {
  component_instance_id: string | null;
  branch_key: string | null;
  coordinates: PinData['coordinates'];
};

export const commentKeys = {
  ofEmail: (workspaceId: number, emailId: number) => [
    'workspaces',
    workspaceId,
    'emails',
    emailId,
    'comments',
  ],
  ofLocale: (workspaceId: number, emailId: number, locale: string) => [
    ...commentKeys.ofEmail(workspaceId, emailId),
    locale,
  ],
};

/** Every comment of one locale (resolved threads too: the panel filters them), 100 a page. */
export const commentsQuery = (workspaceId: number, emailId: number, locale: string) =>
  queryOptions({
    queryKey: commentKeys.ofLocale(workspaceId, emailId, locale),
    queryFn: () =>
      allResults((page) =>
        unwrap(
          api.GET('/api/v1/workspaces/{workspace_id}/emails/{email_id}/email_comments', {
            params: {
              path: { workspace_id: workspaceId, email_id: emailId },
              query: { locale: locale as EmailComment['locale'], ...page },
            },
          }),
        ),
      ),
  });

export interface CommentCalls {
  create(input: { body: string; parent_id?: number; pin_data?: NewPin | null }): Promise<EmailComment>;
  update(id: number, body: string): Promise<EmailComment>;
  remove(id: number): Promise<void>;
  toggleResolution(id: number): Promise<EmailComment>;
}

/** The writes of one email's comments in one locale. */
export function commentCalls(workspaceId: number, emailId: number, locale: string): CommentCalls {
  const path = { workspace_id: workspaceId, email_id: emailId };
  const collection = '/api/v1/workspaces/{workspace_id}/emails/{email_id}/email_comments';
  const item = `${collection}/{id}` as const;
  return {
    create: (input) =>
      unwrap(
        api.POST(collection, {
          params: { path },
          body: { locale: locale as EmailComment['locale'], ...input },
        }),
      ),
    update: (id, body) => unwrap(api.PATCH(item, { params: { path: { ...path, id } }, body: { body } })),
    remove: async (id) => {
      await unwrap(api.DELETE(item, { params: { path: { ...path, id } } }));
    },
    toggleResolution: (id) =>
      unwrap(api.POST(`${item}/toggle_resolution`, { params: { path: { ...path, id } } })),
  };
}

export function authorName(comment: EmailComment): string {
  const author = comment.author;
  if (!author) return 'Someone who left';
  return 'name' in author ? author.name : `${author.first_name} ${author.last_name}`.trim();
}

export function memberName(member: Pick<WorkspaceMember, 'first_name' | 'last_name'>): string {
  return `${member.first_name} ${member.last_name}`.trim();
}
