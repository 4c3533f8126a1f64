import type { components } from '@letterset/api-client';
import {
  audiencesOf,
  type BranchSelection,
  type ConditionalAudiences,
  type EmailContent,
} from '@letterset/core';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../app/api.ts';
import { unwrap } from '../../shared/api-error.ts';
import { conditionalsQuery } from '../editor/editor-api.ts';

type Locale = components['schemas']['Locale'];

/** The saved email's content: what an export exports, so what the Export dialog previews. */
export function savedEmailQuery(workspaceId: number, emailId: number) {
  return {
    queryKey: ['workspaces', workspaceId, 'emails', emailId, 'saved-for-export'] as const,
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/workspaces/{workspace_id}/emails/{id}', {
          params: { path: { workspace_id: workspaceId, id: emailId } },
        }),
      ),
    // The email may have been saved a moment ago in the editor: read it each time the dialog opens.
    staleTime: 0,
    gcTime: 0,
  };
}

/** The saved email rendered in one locale for one audience, by the server, as an export renders it. */
export function renderedEmailQuery(
  workspaceId: number,
  emailId: number,
  locale: string,
  branchSelection: BranchSelection,
) {
  return {
    queryKey: ['workspaces', workspaceId, 'emails', emailId, 'rendered', locale, branchSelection] as const,
    queryFn: () =>
      unwrap(
        api.POST('/api/v1/workspaces/{workspace_id}/emails/{id}/locales/{locale}/render', {
          params: { path: { workspace_id: workspaceId, id: emailId, locale: locale as Locale } },
          body: { branch_selection: branchSelection },
        }),
      ),
    staleTime: 0,
    gcTime: 30_000,
  };
}

export interface EmailAudiences {
  isPending: boolean;
  error: Error | null;
  content: Partial<EmailContent> | null;
  /** The conditionals the saved email uses, each with its branches and default branch. */
  audiences: ConditionalAudiences[];
}

/** Which audiences the saved email has, from its content and the workspace's conditionals. */
export function useEmailAudiences(workspaceId: number, emailId: number): EmailAudiences {
  const email = useQuery(savedEmailQuery(workspaceId, emailId));
  const conditionals = useQuery(conditionalsQuery(workspaceId));
  const content = (email.data?.email_content ?? null) as Partial<EmailContent> | null;
  return {
    isPending: email.isPending || conditionals.isPending,
    error: email.error ?? conditionals.error ?? null,
    content,
    audiences:
      content && conditionals.data
        ? audiencesOf(content, conditionals.data.results)
        : ([] as ConditionalAudiences[]),
  };
}

/** "Membership: Everyone else; Region: Europe": the branch each conditional gives a reader without a profile. */
export function defaultBranchesSentence(audiences: readonly ConditionalAudiences[]): string {
  return audiences
    .map((audience) => {
      const branch = audience.branches.find((candidate) => candidate.key === audience.defaultBranchKey);
      return `${audience.conditionalLabel}: ${branch?.label ?? audience.defaultBranchKey}`;
    })
    .join('; ');
}
