import { Alert, Button, Group, List, Loader, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useMe } from '../../app/session.ts';
import { ApiError, errorMessage } from '../../shared/api-error.ts';
import { AuthFrame } from '../sign-in/AuthFrame.tsx';
import { type AuthorizationRequest, answerConsent, mcpClientQuery } from './mcp-apps-api.ts';

/**
 * The consent screen of Letterset's MCP server: an assistant asks to work in Letterset as the
 * signed-in person. Allow gives it a one-time code through the browser; Deny tells it no.
 */
export function McpConsentPage({
  request,
  leaveTo = (url) => window.location.assign(url),
}: {
  request: AuthorizationRequest | null;
  /** Sends the browser back to the assistant (a full navigation: the redirect URI is not this app's). */
  leaveTo?: (url: string) => void;
}) {
  if (!request) {
    return (
      <AuthFrame title="Connect an assistant">
        <Alert color="red" role="alert">
          This link is incomplete. Start connecting again from the assistant.
        </Alert>
      </AuthFrame>
    );
  }
  return <Consent request={request} leaveTo={leaveTo} />;
}

function Consent({ request, leaveTo }: { request: AuthorizationRequest; leaveTo: (url: string) => void }) {
  const me = useMe();
  const client = useQuery(mcpClientQuery(request.client_id));
  const [answering, setAnswering] = useState<'allow' | 'deny' | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const answer = async (allow: boolean) => {
    setProblem(null);
    setAnswering(allow ? 'allow' : 'deny');
    try {
      // Back to the assistant, with a code or with access_denied.
      leaveTo(await answerConsent(request, allow));
    } catch (error) {
      setProblem(errorMessage(error));
      setAnswering(null);
    }
  };

  if (client.isPending) {
    return (
      <AuthFrame title="Connect an assistant">
        <Group justify="center">
          <Loader size="sm" aria-label="Loading" />
        </Group>
      </AuthFrame>
    );
  }
  if (client.isError) {
    const notHere = client.error instanceof ApiError && client.error.status === 404;
    return (
      <AuthFrame title="Connect an assistant">
        <Alert color="red" role="alert">
          {notHere
            ? `No app with this client id is registered in ${me.organization.name}. Ask an Admin to register it in Settings › MCP apps, or sign in with your account in the organization that registered it.`
            : errorMessage(client.error)}
        </Alert>
      </AuthFrame>
    );
  }

  const { name, organization_name: organizationName } = client.data;
  return (
    <AuthFrame title={`Allow ${name} to use Letterset?`} subtitle={`${organizationName}`}>
      <Stack gap="sm">
        <Text size="sm">
          <b>{name}</b> will work in Letterset as you, {me.user.first_name} {me.user.last_name} (
          {me.user.email}), with your role’s permissions. It will be able to:
        </Text>
        <List size="sm" spacing={4}>
          <List.Item>see the workspaces, projects, design systems and emails you can see;</List.Item>
          <List.Item>create emails and change their content, where your role allows it;</List.Item>
          <List.Item>render emails and start exports.</List.Item>
        </List>
        <Text size="sm" c="dimmed">
          What it does is recorded in the audit log under your name. An Admin can disconnect it at any time by
          deleting the app in Settings › MCP apps.
        </Text>
        {problem && (
          <Alert color="red" role="alert">
            {problem}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button
            variant="default"
            onClick={() => answer(false)}
            loading={answering === 'deny'}
            disabled={answering !== null}
          >
            Deny
          </Button>
          <Button onClick={() => answer(true)} loading={answering === 'allow'} disabled={answering !== null}>
            Allow
          </Button>
        </Group>
      </Stack>
    </AuthFrame>
  );
}
