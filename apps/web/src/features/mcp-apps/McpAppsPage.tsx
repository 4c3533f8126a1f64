import {
  Alert,
  Button,
  Code,
  CopyButton,
  Group,
  Modal,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError } from '../../shared/api-error.ts';
import { CollectionPanel } from '../../shared/CollectionPanel.tsx';
import { FormActions, FormProblems } from '../../shared/FormParts.tsx';
import { showApiErrors } from '../../shared/form-errors.ts';
import { PageHeader } from '../../shared/PageHeader.tsx';
import { formatDateTime, fullName } from '../settings/settings-api.ts';
import {
  type CreatedMcpApp,
  deleteMcpApp,
  type McpApp,
  type McpAppInput,
  mcpAppKeys,
  mcpAppsQuery,
  useRegisterMcpApp,
  useUpdateMcpApp,
} from './mcp-apps-api.ts';

const perPage = 20;

/** Where assistants reach Letterset's MCP server: this server's own origin. */
export function mcpServerUrl(): string {
  return `${window.location.origin}/mcp`;
}

/** The assistants an Admin lets use Letterset's MCP server; each person still consents for themselves. */
export function McpAppsPage() {
  const [page, setPage] = useState(1);
  const query = useQuery(mcpAppsQuery(page, perPage));
  return (
    <Stack gap={0}>
      <PageHeader
        title="MCP apps"
        breadcrumbs={[{ label: 'Settings', to: '/settings' }, { label: 'MCP apps' }]}
      />
      <CollectionPanel
        noun="MCP app"
        description={
          <>
            Register an assistant such as Claude, ChatGPT or Cursor to let the people of your organization use
            Letterset from it, through the MCP server at <Code>{mcpServerUrl()}</Code>. Each person signs in
            and allows the app for themselves; it then acts as them, with their role.
          </>
        }
        query={query}
        onPage={setPage}
        queryKey={mcpAppKeys.all}
        headers={['Name', 'Client id', 'Redirect URIs', 'Registered']}
        cells={(mcpApp) => [
          <Text key="name" fw={500}>
            {mcpApp.name}
          </Text>,
          <Code key="client">{mcpApp.client_id}</Code>,
          <Text key="uris" size="sm" c="dimmed" lineClamp={2}>
            {mcpApp.redirect_uris.join(', ')}
          </Text>,
          <Text key="registered" size="sm">
            {formatDateTime(mcpApp.created_at)}
            {mcpApp.created_by && ` by ${fullName(mcpApp.created_by)}`}
          </Text>,
        ]}
        nameOf={(mcpApp) => mcpApp.name}
        permissions={{ create: true, update: true, delete: true }}
        renderForm={(mcpApp, close) =>
          mcpApp ? <EditMcpApp mcpApp={mcpApp} onClose={close} /> : <RegisterMcpApp onClose={close} />
        }
        deleteItem={(mcpApp) => deleteMcpApp(mcpApp.id)}
        deleteMessage="Everyone connected through it is disconnected at once. This cannot be undone."
        emptyHint="Register the assistant your organization uses, with the redirect URI its settings show."
      />
    </Stack>
  );
}

function CopyValue({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500}>
        {label}
      </Text>
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <Code block aria-label={label} style={{ wordBreak: 'break-all', flex: 1 }}>
          {value}
        </Code>
        <CopyButton value={value}>
          {({ copied, copy }) => (
            <Button size="xs" variant="light" color={copied ? 'teal' : undefined} onClick={copy}>
              {copied ? 'Copied' : 'Copy'}
            </Button>
          )}
        </CopyButton>
      </Group>
    </Stack>
  );
}

interface McpAppValues {
  name: string;
  /** The redirect URIs, one per line. */
  redirect_uris: string;
}

function useMcpAppForm(initialValues: McpAppValues) {
  return useForm<McpAppValues>({
    initialValues,
    validate: {
      name: (value) => (value.trim() ? null : 'Name the app after the assistant, e.g. “Claude”'),
      redirect_uris: (value) => (uriLines(value).length > 0 ? null : 'Give at least one redirect URI'),
    },
  });
}

/** The API's refusal on the form; a problem with one URI (redirect_uris.2) is said next to that URI. */
function showMcpAppErrors(form: ReturnType<typeof useMcpAppForm>, error: unknown, values: McpAppValues) {
  const problems = showApiErrors(form, error, ['name', 'redirect_uris']);
  if (error instanceof ApiError) {
    const uris = uriLines(values.redirect_uris);
    const perUri = Object.entries(error.fieldErrors).flatMap(([path, messages]) => {
      const index = /^redirect_uris\.(\d+)$/.exec(path)?.[1];
      return index === undefined ? [] : [`${uris[Number(index)] ?? path} ${messages.join('; ')}`];
    });
    if (perUri.length > 0) form.setFieldError('redirect_uris', perUri.join('. '));
  }
  return problems;
}

function McpAppFields({ form }: { form: ReturnType<typeof useMcpAppForm> }) {
  return (
    <>
      <TextInput label="Name" required data-autofocus maxLength={200} {...form.getInputProps('name')} />
      <Textarea
        label="Redirect URIs"
        description="One per line, as the assistant’s settings show it: https://…, http://localhost or http://127.0.0.1 (any port) for desktop apps, or the app’s own scheme such as cursor://…"
        required
        autosize
        minRows={2}
        maxRows={8}
        placeholder="https://claude.ai/api/mcp/auth_callback"
        {...form.getInputProps('redirect_uris')}
      />
    </>
  );
}

/**
 * What an assistant is configured with (the server URL and the client id; the secret is not
 * kept), and its name and redirect URIs to change: the id, the secret and connections stay.
 */
function EditMcpApp({ mcpApp, onClose }: { mcpApp: McpApp; onClose: () => void }) {
  const [problems, setProblems] = useState<string[]>([]);
  const form = useMcpAppForm({ name: mcpApp.name, redirect_uris: mcpApp.redirect_uris.join('\n') });
  const save = useUpdateMcpApp(mcpApp.id);
  const submit = (values: McpAppValues) =>
    save.mutate(inputOf(values), {
      onSuccess: (saved) => {
        notifications.show({ message: `${saved.name} saved` });
        onClose();
      },
      onError: (error) => setProblems(showMcpAppErrors(form, error, values)),
    });
  return (
    <Modal opened onClose={onClose} title={mcpApp.name} size="lg">
      <form onSubmit={form.onSubmit(submit)} noValidate>
        <Stack>
          <CopyValue label="MCP server URL" value={mcpServerUrl()} />
          <CopyValue label="Client id" value={mcpApp.client_id} />
          <Text size="sm" c="dimmed">
            The client secret was shown once, when the app was registered. If it is lost, register the app
            again and delete this one.
          </Text>
          <FormProblems problems={problems} />
          <McpAppFields form={form} />
          <FormActions readOnly={false} onCancel={onClose} submitLabel="Save" submitting={save.isPending} />
        </Stack>
      </form>
    </Modal>
  );
}

/** Names the app and its redirect URIs, then shows the client id and secret: the secret this once. */
function RegisterMcpApp({ onClose }: { onClose: () => void }) {
  const [registered, setRegistered] = useState<CreatedMcpApp | null>(null);
  const [problems, setProblems] = useState<string[]>([]);
  const form = useMcpAppForm({ name: '', redirect_uris: '' });
  const register = useRegisterMcpApp();
  const submit = (values: McpAppValues) =>
    register.mutate(inputOf(values), {
      onSuccess: setRegistered,
      onError: (error) => setProblems(showMcpAppErrors(form, error, values)),
    });

  return (
    <Modal
      opened
      onClose={onClose}
      title={registered ? `${registered.name} is registered` : 'Register an MCP app'}
      size="lg"
      closeOnClickOutside={false}
    >
      {registered ? (
        <Stack>
          <Alert color="yellow" title="Copy the client secret now">
            Enter these in the assistant’s connector settings. This is the only time the secret is shown; if
            it is lost, register the app again and delete this one.
          </Alert>
          <CopyValue label="MCP server URL" value={mcpServerUrl()} />
          <CopyValue label="Client id" value={registered.client_id} />
          <CopyValue label="Client secret" value={registered.client_secret} />
          <Group justify="flex-end">
            <Button onClick={onClose}>Done</Button>
          </Group>
        </Stack>
      ) : (
        <form onSubmit={form.onSubmit(submit)} noValidate>
          <Stack>
            <FormProblems problems={problems} />
            <McpAppFields form={form} />
            <FormActions
              readOnly={false}
              onCancel={onClose}
              submitLabel="Register app"
              submitting={register.isPending}
            />
          </Stack>
        </form>
      )}
    </Modal>
  );
}

function inputOf(values: McpAppValues): McpAppInput {
  return { name: values.name.trim(), redirect_uris: uriLines(values.redirect_uris) };
}

function uriLines(text: string): string[] {
  return [
    ...new Set(
      text
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean),
    ),
  ];
}
