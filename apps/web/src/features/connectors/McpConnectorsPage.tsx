import {
  Alert,
  Avatar,
  Badge,
  Button,
  Group,
  Modal,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useCan } from '../../app/session.ts';
import { errorMessage } from '../../shared/api-error.ts';
import { CollectionPanel } from '../../shared/CollectionPanel.tsx';
import { FormActions, FormProblems } from '../../shared/FormParts.tsx';
import { showApiErrors } from '../../shared/form-errors.ts';
import { PageHeader } from '../../shared/PageHeader.tsx';
import { RowsEditor } from '../../shared/RowsEditor.tsx';
import { clearedMessage, movesOrigin, moveWarning } from '../../shared/secret-destination.ts';
import { useWorkspaceId } from '../shell/workspace.ts';
import {
  checkMcpServerHealth,
  connectMcpServer,
  deleteMcpServer,
  disconnectMcpServer,
  type EnabledMcpServer,
  enabledMcpServersQuery,
  goToSignIn,
  type HeaderRow,
  headerRows,
  headersToSend,
  type McpServer,
  mcpServerKeys,
  mcpServerListQuery,
  type OAuthReturn,
  saveMcpServer,
  setMcpServerToolEnabled,
  useRefreshMcpServers,
} from './mcp-connectors-api.ts';

const perPage = 20;

export const trustWarning =
  'An MCP server can read the data it is sent, make network requests and take actions on your behalf. Add only servers you trust.';

/**
 * Connectors › MCP connectors: outside MCP servers whose tools the AI chat may use. Managers add
 * them, check them and enable tools; every member connects (or disconnects) their own account.
 */
export function McpConnectorsPage({
  oauthReturn = null,
  onOAuthReturnSeen,
}: {
  /** What the OAuth callback said when it sent the browser back here. */
  oauthReturn?: OAuthReturn | null;
  onOAuthReturnSeen?: () => void;
}) {
  const workspaceId = useWorkspaceId();
  const can = useCan();
  const canManage = can('manage_mcp_servers');
  const [page, setPage] = useState(1);
  const query = useQuery(mcpServerListQuery(workspaceId, page, perPage));
  const enabled = useQuery(enabledMcpServersQuery(workspaceId));
  const mine = new Map((enabled.data?.results ?? []).map((row) => [row.mcp_server_id, row]));
  return (
    <Stack gap={0}>
      <PageHeader
        title="MCP connectors"
        breadcrumbs={[
          { label: 'Settings', to: '/settings' },
          { label: 'Connectors', to: `/workspaces/${workspaceId}/connectors` },
          { label: 'MCP connectors' },
        ]}
      />
      <Stack gap="md">
        {oauthReturn && (
          <Alert
            color={oauthReturn.error ? 'red' : 'green'}
            role="status"
            withCloseButton={Boolean(onOAuthReturnSeen)}
            onClose={onOAuthReturnSeen}
            title={oauthReturn.error ? 'Your account was not connected' : 'Your account is connected'}
          >
            {oauthReturn.error ?? 'The AI chat can now use the enabled tools of this server for you.'}
          </Alert>
        )}
        <Alert color="yellow" icon={<IconAlertTriangle size={18} />} title="Only trusted servers">
          {trustWarning}
        </Alert>
        <CollectionPanel
          noun="MCP connector"
          description="MCP connectors give the AI chat tools from other services (briefs in Notion or Asana, product data, assets) through the Model Context Protocol. Only the tools enabled here are offered, and each person connects their own account."
          query={query}
          onPage={setPage}
          queryKey={mcpServerKeys.all(workspaceId)}
          headers={['Name', 'Health', 'Tools', 'Your connection']}
          cells={(server) => [
            <Group key="name" gap="sm" wrap="nowrap">
              {server.logo_url && <Avatar src={server.logo_url} size="sm" radius="sm" alt="" />}
              <Stack gap={0}>
                <Text fw={500}>{server.name}</Text>
                <Text size="xs" c="dimmed">
                  {server.url}
                </Text>
              </Stack>
            </Group>,
            <HealthSummary key="health" server={server} />,
            <Text key="tools" size="sm">
              {toolsSummary(server)}
            </Text>,
            <ConnectionControl
              key="connection"
              workspaceId={workspaceId}
              server={server}
              connection={mine.get(server.id)}
            />,
          ]}
          nameOf={(server) => server.name}
          permissions={{ create: canManage, update: canManage, delete: canManage }}
          renderForm={(server, close) => (
            <McpServerForm workspaceId={workspaceId} server={server} readOnly={!canManage} onClose={close} />
          )}
          deleteItem={(server) => deleteMcpServer(workspaceId, server.id)}
          deleteMessage="The AI chat loses its tools, and everyone's connection to it is forgotten. This cannot be undone."
          emptyHint={
            canManage
              ? 'Add one with its URL to let the AI chat use its tools.'
              : 'People who manage MCP servers can add one.'
          }
        />
      </Stack>
    </Stack>
  );
}

function toolsSummary(server: McpServer): string {
  if (server.tools.length === 0)
    return server.healthcheck_status === 'pending' ? 'Not checked yet' : 'None listed';
  const on = server.tools.filter((tool) => tool.enabled).length;
  return `${on} of ${server.tools.length} enabled`;
}

const statusColors = { healthy: 'green', unhealthy: 'red', pending: 'gray' } as const;
const statusLabels = { healthy: 'Healthy', unhealthy: 'Unhealthy', pending: 'Not checked' } as const;

function HealthSummary({ server }: { server: McpServer }) {
  return (
    <Stack gap={2} maw={320}>
      <Group gap={6}>
        <Badge color={statusColors[server.healthcheck_status]} variant="light">
          {statusLabels[server.healthcheck_status]}
        </Badge>
        {server.oauth && (
          <Badge color="blue" variant="outline">
            OAuth
          </Badge>
        )}
      </Group>
      {server.healthcheck_error && (
        <Text size="xs" c={server.healthcheck_status === 'unhealthy' ? 'red' : 'dimmed'}>
          {server.healthcheck_error}
        </Text>
      )}
    </Stack>
  );
}

/** Connect (enable; for OAuth, off to the sign-in and back) or Disconnect, for the person looking. */
function ConnectionControl({
  workspaceId,
  server,
  connection,
}: {
  workspaceId: number;
  server: McpServer;
  connection: EnabledMcpServer | undefined;
}) {
  const refresh = useRefreshMcpServers(workspaceId);
  const [busy, setBusy] = useState(false);

  const connect = async () => {
    setBusy(true);
    try {
      // Back to this page after signing in.
      const result = await connectMcpServer(
        workspaceId,
        server.id,
        `${window.location.origin}${window.location.pathname}`,
      );
      if (result.start_oauth_flow_url) {
        goToSignIn(result.start_oauth_flow_url);
        return;
      }
      await refresh.connections();
      notifications.show({ message: `${server.name} connected` });
    } catch (error) {
      notifications.show({
        color: 'red',
        title: `${server.name} was not connected`,
        message: errorMessage(error),
      });
    } finally {
      setBusy(false);
    }
  };

  const disconnect = async () => {
    if (!connection) return;
    setBusy(true);
    try {
      await disconnectMcpServer(workspaceId, connection.id);
      await refresh.connections();
      notifications.show({ message: `${server.name} disconnected` });
    } catch (error) {
      notifications.show({
        color: 'red',
        title: `${server.name} was not disconnected`,
        message: errorMessage(error),
      });
    } finally {
      setBusy(false);
    }
  };

  if (connection?.enabled)
    return (
      <Group gap="xs" wrap="nowrap">
        <Badge color="green" variant="light">
          Connected
        </Badge>
        <Button
          size="xs"
          variant="subtle"
          color="red"
          loading={busy}
          onClick={disconnect}
          aria-label={`Disconnect ${server.name}`}
        >
          Disconnect
        </Button>
      </Group>
    );
  return (
    <Button size="xs" variant="light" loading={busy} onClick={connect} aria-label={`Connect ${server.name}`}>
      {server.oauth ? 'Connect account' : 'Connect'}
    </Button>
  );
}

interface McpServerValues extends Record<string, unknown> {
  name: string;
  url: string;
  headers: HeaderRow[];
}

/** Name, URL and headers; once saved, the health check and the tools with their switches. */
function McpServerForm({
  workspaceId,
  server,
  readOnly,
  onClose,
}: {
  workspaceId: number;
  server: McpServer | null;
  readOnly: boolean;
  onClose: () => void;
}) {
  const refresh = useRefreshMcpServers(workspaceId);
  const [saved, setSaved] = useState<McpServer | null>(server);
  const [problems, setProblems] = useState<string[]>([]);
  const form = useForm<McpServerValues>({
    initialValues: { name: server?.name ?? '', url: server?.url ?? '', headers: headerRows(server?.headers) },
  });
  const [cleared, setCleared] = useState<string | null>(null);
  const afterChange = async (result: McpServer) => {
    setSaved(result);
    await refresh.servers();
  };
  // Stored header values (still masked in the form) are dropped when the URL moves to another origin.
  const storedHeaders = Object.entries(saved?.headers ?? {})
    .filter(([name, value]) => form.values.headers.some((row) => row.name === name && row.value === value))
    .map(([name]) => name);
  const warnsOfMove = saved !== null && storedHeaders.length > 0 && movesOrigin(saved.url, form.values.url);

  const save = form.onSubmit(async (values) => {
    setProblems([]);
    setCleared(null);
    const body = { name: values.name.trim(), url: values.url.trim(), headers: headersToSend(values.headers) };
    try {
      const result = await saveMcpServer(workspaceId, saved, body);
      const next = { name: result.name, url: result.url, headers: headerRows(result.headers) };
      form.setValues(next);
      form.resetDirty(next);
      await afterChange(result);
      setCleared(clearedMessage(result.secrets_cleared));
      notifications.show({ message: `${result.name} saved` });
    } catch (error) {
      setProblems(showApiErrors(form, error, ['name', 'url', 'headers']));
    }
  });

  return (
    <Modal opened onClose={onClose} title={saved?.name ?? 'New MCP connector'} size="lg">
      <Stack>
        <form onSubmit={save} noValidate>
          <Stack>
            <FormProblems problems={problems} />
            {!saved && (
              <Alert color="yellow" icon={<IconAlertTriangle size={18} />}>
                {trustWarning}
              </Alert>
            )}
            <TextInput
              label="Name"
              required
              readOnly={readOnly}
              data-autofocus
              {...form.getInputProps('name')}
            />
            <TextInput
              label="URL"
              description="The server's Streamable HTTP endpoint, often ending in /mcp"
              placeholder="https://mcp.example.com/mcp"
              required
              readOnly={readOnly}
              {...form.getInputProps('url')}
            />
            {warnsOfMove && (
              <Alert color="yellow" title="Another address">
                {moveWarning(`header values (${storedHeaders.join(', ')})`)} Everyone who connected an account
                connects again.
              </Alert>
            )}
            {cleared && (
              <Alert color="yellow" role="status">
                {cleared}
              </Alert>
            )}
            <RowsEditor
              form={form}
              path="headers"
              legend="Headers"
              columns={[
                { key: 'name', label: 'Header', placeholder: 'Authorization', monospace: true },
                { key: 'value', label: 'Value', placeholder: 'Bearer …', monospace: true },
              ]}
              newRow={() => ({ name: '', value: '' })}
              addLabel="Add header"
              readOnly={readOnly}
              emptyText="None. Servers that use OAuth need none: each person connects their own account."
            />
            {saved && Object.keys(saved.headers).length > 0 && (
              <Text size="xs" c="dimmed">
                Header values are stored encrypted and shown masked; leave a masked value as it is to keep it.
              </Text>
            )}
            <FormActions
              readOnly={readOnly}
              onCancel={onClose}
              cancelLabel="Close"
              submitLabel="Save"
              submitting={form.submitting}
            />
          </Stack>
        </form>
        {saved ? (
          <HealthAndTools
            workspaceId={workspaceId}
            server={saved}
            readOnly={readOnly}
            unsaved={form.isDirty()}
            onChange={afterChange}
          />
        ) : (
          <Text size="sm" c="dimmed">
            Save the connector, then run its health check to list its tools.
          </Text>
        )}
      </Stack>
    </Modal>
  );
}

function HealthAndTools({
  workspaceId,
  server,
  readOnly,
  unsaved,
  onChange,
}: {
  workspaceId: number;
  server: McpServer;
  readOnly: boolean;
  unsaved: boolean;
  onChange: (server: McpServer) => Promise<void>;
}) {
  const [checking, setChecking] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const runCheck = async () => {
    setChecking(true);
    setProblem(null);
    try {
      await onChange(await checkMcpServerHealth(workspaceId, server.id));
    } catch (error) {
      setProblem(errorMessage(error));
    } finally {
      setChecking(false);
    }
  };
  const setEnabled = async (toolId: number, enabled: boolean) => {
    setProblem(null);
    try {
      await onChange(await setMcpServerToolEnabled(workspaceId, server.id, toolId, enabled));
    } catch (error) {
      setProblem(errorMessage(error));
    }
  };
  return (
    <Stack gap="sm">
      <Title order={3} fz="h5">
        Health and tools
      </Title>
      <Group gap="sm">
        <HealthSummary server={server} />
        {!readOnly && (
          <Button variant="light" size="xs" onClick={runCheck} loading={checking}>
            Run health check
          </Button>
        )}
      </Group>
      {unsaved && !readOnly && (
        <Text size="sm" c="orange">
          The health check uses the saved settings; save your changes first to try them.
        </Text>
      )}
      {problem && (
        <Alert color="red" role="alert">
          {problem}
        </Alert>
      )}
      {server.tools.length === 0 ? (
        <Text size="sm" c="dimmed">
          {server.healthcheck_status === 'pending'
            ? 'No tools yet: the health check lists them.'
            : 'The last health check listed no tools.'}
        </Text>
      ) : (
        <Stack gap="xs" aria-label="Tools">
          <Text size="sm" c="dimmed">
            New tools start disabled. The AI chat offers only the enabled ones.
          </Text>
          {server.tools.map((tool) => (
            <Switch
              key={tool.id}
              checked={tool.enabled}
              disabled={readOnly}
              onChange={(event) => setEnabled(tool.id, event.currentTarget.checked)}
              label={
                <Text ff="monospace" size="sm">
                  {tool.name}
                </Text>
              }
              description={tool.description ?? undefined}
            />
          ))}
        </Stack>
      )}
    </Stack>
  );
}
