import { createFileRoute } from '@tanstack/react-router';
import { AiAgentsPage } from '../../../../features/ai-agents/AiAgentsPage.tsx';

export const Route = createFileRoute('/_app/workspaces/$workspaceId/ai-agents')({
  component: AiAgentsPage,
});
