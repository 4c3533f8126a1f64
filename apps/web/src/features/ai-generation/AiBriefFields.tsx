import { Loader, Select, Stack, Textarea } from '@mantine/core';
import type { useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { allAiAgentsQuery } from '../ai-agents/ai-agents-api.ts';
import { AiNotConfiguredNotice } from '../ai-settings/AiNotConfiguredNotice.tsx';
import { useAiSettings } from '../ai-settings/ai-settings-api.ts';

type InputProps = ReturnType<ReturnType<typeof useForm>['getInputProps']>;

/**
 * The brief and the AI agent of an AI generation (a new email, a clone), or, when the
 * organization has no AI provider, the notice that says so instead of fields that would fail.
 */
export function AiBriefFields({
  workspaceId,
  briefLabel,
  briefPlaceholder,
  prompt,
  agent,
}: {
  workspaceId: number;
  briefLabel: string;
  briefPlaceholder: string;
  prompt: InputProps;
  agent: InputProps & { onChange(value: string | null): void };
}) {
  const settings = useAiSettings();
  if (settings.isPending) return <Loader size="sm" aria-label="Loading AI settings" />;
  if (!settings.data?.configured) return <AiNotConfiguredNotice />;
  return (
    <Stack gap="sm">
      <Textarea
        label={briefLabel}
        withAsterisk
        autosize
        minRows={3}
        maxRows={10}
        placeholder={briefPlaceholder}
        {...prompt}
      />
      <AiAgentSelect workspaceId={workspaceId} {...agent} />
    </Stack>
  );
}

/** The AI agent to write with: the workspace's agents, or none for a neutral voice. */
export function AiAgentSelect({
  workspaceId,
  ...input
}: InputProps & { workspaceId: number; onChange(value: string | null): void }) {
  const agents = useQuery(allAiAgentsQuery(workspaceId));
  return (
    <Select
      label="AI agent"
      description="The company voice, tone and guidelines to write with"
      clearable
      placeholder={agents.isPending ? 'Loading agents…' : 'No agent: a neutral voice'}
      data={(agents.data ?? []).map((candidate) => ({
        value: String(candidate.id),
        label: candidate.name ?? `Agent ${candidate.id}`,
      }))}
      {...input}
    />
  );
}

/** Whether the organization can generate with AI; undefined while unknown. */
export function useAiAvailable(): boolean | undefined {
  return useAiSettings().data?.configured;
}
