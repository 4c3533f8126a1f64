import { createFileRoute } from '@tanstack/react-router';
import { AiSettingsPage } from '../../../features/ai-settings/AiSettingsPage.tsx';

export const Route = createFileRoute('/_app/settings/ai')({
  component: AiSettingsPage,
});
