import { createFileRoute } from '@tanstack/react-router';
import { OAuthCallbackPage } from '../../../features/connectors/OAuthCallbackPage.tsx';

interface OAuthCallbackSearch {
  code?: string;
  state?: string;
  error?: string;
  error_description?: string;
}

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

/** Where Marketing Cloud sends the browser back after the user signs in (the registered redirect URI). */
export const Route = createFileRoute('/_app/connectors/oauth-callback')({
  validateSearch: (search: Record<string, unknown>): OAuthCallbackSearch => {
    const parsed: OAuthCallbackSearch = {};
    for (const key of ['code', 'state', 'error', 'error_description'] as const) {
      const value = text(search[key]);
      if (value !== undefined) parsed[key] = value;
    }
    return parsed;
  },
  component: OAuthCallbackPage,
});
