import { Alert, Anchor, Loader, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useEffect } from 'react';
import { errorMessage } from '../../shared/api-error.ts';
import { PageHeader } from '../../shared/PageHeader.tsx';
import { oauthCallbackQuery, useRefreshConnectors } from './connectors-api.ts';

/**
 * The end of Marketing Cloud's sign-in: the code and state it sent back go to the API once (a code
 * works once), then the user returns to the connectors of the connector's workspace.
 */
export function OAuthCallbackPage() {
  const search = useSearch({ from: '/_app/connectors/oauth-callback' });
  const navigate = useNavigate();
  const refreshConnectors = useRefreshConnectors();
  const { code, state } = search;
  const exchange = useQuery({
    ...oauthCallbackQuery(code ?? '', state ?? ''),
    enabled: Boolean(code && state) && !search.error,
  });
  const connector = exchange.data;
  useEffect(() => {
    if (!connector) return;
    void refreshConnectors(connector.workspace_id);
    notifications.show({ color: 'teal', message: `${connector.name} is connected to Marketing Cloud` });
    void navigate({
      to: '/workspaces/$workspaceId/connectors',
      params: { workspaceId: String(connector.workspace_id) },
    });
  }, [connector, navigate, refreshConnectors]);

  const failure = search.error
    ? `Marketing Cloud did not connect: ${search.error_description ?? search.error}`
    : !code || !state
      ? 'This page expects the code and state Marketing Cloud sends back; start again with Connect on the connector.'
      : exchange.isError
        ? errorMessage(exchange.error)
        : null;
  return (
    <Stack maw={640}>
      <PageHeader title="Connecting to Marketing Cloud" />
      {failure ? (
        <Alert color="red" role="alert" title="Not connected">
          <Stack gap="xs">
            <Text size="sm">{failure}</Text>
            <Anchor component={Link} to="/settings" size="sm">
              Back to settings
            </Anchor>
          </Stack>
        </Alert>
      ) : (
        <Stack align="flex-start" gap="xs">
          <Loader size="sm" />
          <Text size="sm">Storing the sign-in…</Text>
        </Stack>
      )}
    </Stack>
  );
}
