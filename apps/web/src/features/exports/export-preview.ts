import { audiencesOf, type ConditionalAudiences, type EmailContent } from '@letterset/core';
import { useQuery } from '@tanstack/react-query';
import { conditionalsQuery } from '../editor/editor-api.ts';
import { savedEmailQuery } from './exports-api.ts';

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
