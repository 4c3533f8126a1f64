import { createFileRoute } from '@tanstack/react-router';
import { McpAppsPage } from '../../../features/mcp-apps/McpAppsPage.tsx';

export const Route = createFileRoute('/_app/settings/mcp-apps')({
  component: McpAppsPage,
});
