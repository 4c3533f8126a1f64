import { createFileRoute } from '@tanstack/react-router';
import { ApiKeysPage } from '../../../features/settings/ApiKeysPage.tsx';

export const Route = createFileRoute('/_app/settings/api-keys')({
  component: ApiKeysPage,
});
