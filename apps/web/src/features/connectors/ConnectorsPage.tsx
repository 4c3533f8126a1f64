import {
  Alert,
  Badge,
  Button,
  Group,
  Modal,
  PasswordInput,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useCan } from '../../app/session.ts';
import { errorMessage } from '../../shared/api-error.ts';
import { CollectionPanel } from '../../shared/CollectionPanel.tsx';
import { FormActions, FormProblems } from '../../shared/FormParts.tsx';
import { showApiErrors } from '../../shared/form-errors.ts';
import { PageHeader } from '../../shared/PageHeader.tsx';
import { QueryState } from '../../shared/QueryState.tsx';
import { clearedMessage, moveWarning } from '../../shared/secret-destination.ts';
import { useWorkspaceId } from '../shell/workspace.ts';
import {
  type ConnectionTestResult,
  type Connector,
  type ConnectorIntegration,
  connectorKeys,
  connectorListQuery,
  deleteConnector,
  type IntegrationName,
  initialSettings,
  integrationsQuery,
  type SetupField,
  saveConnector,
  settingsToSend,
  testConnection,
  useRefreshConnectors,
} from './connectors-api.ts';

const perPage = 20;

/** The workspace's connectors to sending platforms: what exports deliver to. */
export function ConnectorsPage() {
  const workspaceId = useWorkspaceId();
  const can = useCan();
  const [page, setPage] = useState(1);
  const query = useQuery(connectorListQuery(workspaceId, page, perPage));
  const integrations = useQuery(integrationsQuery);
  const labelOf = (name: IntegrationName) =>
    integrations.data?.find((integration) => integration.integration_name === name)?.label ?? name;
  return (
    <Stack gap={0}>
      <PageHeader
        title="Connectors"
        breadcrumbs={[{ label: 'Settings', to: '/settings' }, { label: 'Connectors' }]}
      />
      <CollectionPanel
        noun="connector"
        description="A connector holds the credentials of an Iterable project or a Salesforce Marketing Cloud account. Exports use it to create or update an email template per locale there. Keys and secrets are stored encrypted and only ever shown masked."
        query={query}
        onPage={setPage}
        queryKey={connectorKeys.all(workspaceId)}
        headers={['Name', 'Platform', 'Account']}
        cells={(connector) => [
          <Text key="name" fw={500}>
            {connector.name}
          </Text>,
          labelOf(connector.integration_name),
          <Text key="account" size="sm" c="dimmed">
            {accountSummary(connector)}
          </Text>,
        ]}
        nameOf={(connector) => connector.name}
        permissions={{
          create: can('create_connectors'),
          update: can('update_connectors'),
          delete: can('delete_connectors'),
        }}
        renderForm={(connector, close) => (
          <ConnectorForm
            workspaceId={workspaceId}
            connector={connector}
            readOnly={connector ? !can('update_connectors') : false}
            onClose={close}
          />
        )}
        deleteItem={(connector) => deleteConnector(workspaceId, connector.id)}
        deleteMessage="Exports can no longer use it. What it already created on the platform stays there. This cannot be undone."
        emptyHint="Add one to export emails straight to Iterable or Salesforce Marketing Cloud."
      />
    </Stack>
  );
}

function accountSummary(connector: Connector): string {
  const settings = connector.settings;
  if (connector.integration_name === 'iterable')
    return settings.region === 'eu' ? 'EU data centre' : 'US data centre';
  const mid = settings.account_id ? ` · MID ${settings.account_id}` : '';
  const signIn =
    settings.auth_flow === 'authorization_code'
      ? connector.oauth_authorized_at
        ? ' · user signed in'
        : ' · not connected yet'
      : '';
  return `${settings.subdomain ?? ''}${mid}${signIn}`;
}

function ConnectorForm({
  workspaceId,
  connector,
  readOnly,
  onClose,
}: {
  workspaceId: number;
  connector: Connector | null;
  readOnly: boolean;
  onClose: () => void;
}) {
  const integrations = useQuery(integrationsQuery);
  // A new connector's dialog takes its name once saved: it stays open to be tested.
  const [title, setTitle] = useState(connector?.name ?? 'New connector');
  return (
    <Modal opened onClose={onClose} title={title} size="lg">
      <QueryState
        query={integrations}
        isEmpty={(data) => data.length === 0}
        empty={<Text>No platforms.</Text>}
      >
        {(data) => (
          <ConnectorFields
            workspaceId={workspaceId}
            connector={connector}
            integrations={data}
            readOnly={readOnly}
            onClose={onClose}
            onSaved={(result) => setTitle(result.name)}
          />
        )}
      </QueryState>
    </Modal>
  );
}

/** The form, built from the chosen platform's setup fields; a new connector stays open after saving. */
function ConnectorFields({
  workspaceId,
  connector,
  integrations,
  readOnly,
  onClose,
  onSaved,
}: {
  workspaceId: number;
  connector: Connector | null;
  integrations: ConnectorIntegration[];
  readOnly: boolean;
  onClose: () => void;
  onSaved: (connector: Connector) => void;
}) {
  const refreshConnectors = useRefreshConnectors();
  const [saved, setSaved] = useState<Connector | null>(connector);
  const [problems, setProblems] = useState<string[]>([]);
  const firstIntegration = integrations[0] as ConnectorIntegration;
  const fieldsOf = (name: string): SetupField[] =>
    integrations.find((integration) => integration.integration_name === name)?.setup_fields ?? [];
  const form = useForm({
    initialValues: {
      name: connector?.name ?? '',
      integration_name: connector?.integration_name ?? firstIntegration.integration_name,
      settings: initialSettings(
        connector?.setup_fields ?? firstIntegration.setup_fields,
        connector?.settings ?? {},
      ),
    },
  });
  const fields = saved?.setup_fields ?? fieldsOf(form.values.integration_name);
  const [cleared, setCleared] = useState<string | null>(null);
  // The setting that chooses where the credentials go; stored secrets do not follow it elsewhere.
  const addressField = saved?.integration_name === 'iterable' ? 'region' : 'subdomain';
  const storedSecrets = fields.filter(
    (field) =>
      field.secret &&
      saved?.settings[field.name] !== undefined &&
      form.values.settings[field.name] === saved.settings[field.name],
  );
  const warnsOfMove =
    saved !== null &&
    storedSecrets.length > 0 &&
    (form.values.settings[addressField] ?? '').trim() !== (saved.settings[addressField] ?? '');

  const save = form.onSubmit(async (values) => {
    setProblems([]);
    setCleared(null);
    const settings = settingsToSend(fields, values.settings, saved?.settings ?? null);
    try {
      const result = await saveConnector(workspaceId, saved, {
        name: values.name.trim(),
        integration_name: values.integration_name,
        settings,
      });
      setSaved(result);
      setCleared(clearedMessage(result.secrets_cleared));
      onSaved(result);
      const next = { ...values, settings: initialSettings(result.setup_fields, result.settings) };
      form.setValues(next);
      form.resetDirty(next);
      await refreshConnectors(workspaceId);
      notifications.show({ message: `${result.name} saved` });
    } catch (error) {
      setProblems(
        showApiErrors(form, error, [
          'name',
          'integration_name',
          ...fields.map((field) => `settings.${field.name}`),
        ]),
      );
    }
  });

  return (
    <Stack>
      <form onSubmit={save} noValidate>
        <Stack>
          <FormProblems problems={problems} />
          <TextInput
            label="Name"
            required
            readOnly={readOnly}
            data-autofocus
            {...form.getInputProps('name')}
          />
          <Select
            label="Platform"
            data={integrations.map((integration) => ({
              value: integration.integration_name,
              label: integration.label,
            }))}
            allowDeselect={false}
            disabled={saved !== null}
            description={
              saved ? 'A connector stays on its platform; make another for a different one.' : undefined
            }
            {...form.getInputProps('integration_name')}
            onChange={(value) => {
              if (!value) return;
              form.setFieldValue('integration_name', value as IntegrationName);
              form.setFieldValue('settings', initialSettings(fieldsOf(value)));
            }}
          />
          {fields.map((field) => (
            <SetupFieldInput
              key={`${form.values.integration_name}-${field.name}`}
              field={field}
              readOnly={readOnly}
              stored={saved !== null}
              inputProps={form.getInputProps(`settings.${field.name}`)}
            />
          ))}
          {warnsOfMove && (
            <Alert color="yellow" title="Another address">
              {moveWarning(storedSecrets.map((field) => field.label.toLowerCase()).join(' and '))}
            </Alert>
          )}
          {cleared && (
            <Alert color="yellow" role="status">
              {cleared}
            </Alert>
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
        <ConnectionChecks
          workspaceId={workspaceId}
          connector={saved}
          unsaved={form.isDirty()}
          readOnly={readOnly}
        />
      ) : (
        <Text size="sm" c="dimmed">
          Save the connector to test it.
        </Text>
      )}
    </Stack>
  );
}

function SetupFieldInput({
  field,
  readOnly,
  stored,
  inputProps,
}: {
  field: SetupField;
  readOnly: boolean;
  stored: boolean;
  inputProps: ReturnType<ReturnType<typeof useForm>['getInputProps']>;
}) {
  const common = {
    label: field.label,
    description: field.description,
    required: field.required,
    readOnly,
    ...inputProps,
  };
  if (field.type === 'select')
    return <Select {...common} data={field.options ?? []} allowDeselect={false} disabled={readOnly} />;
  if (field.type === 'password')
    return (
      <PasswordInput
        {...common}
        autoComplete="off"
        // A stored secret is never sent to the browser: the field shows its mask until replaced.
        description={
          stored
            ? `${field.description ? `${field.description} ` : ''}Stored encrypted; type a new value to replace it.`
            : field.description
        }
      />
    );
  return <TextInput {...common} />;
}

/** Test connection, and for Marketing Cloud's user sign-in, Connect. */
function ConnectionChecks({
  workspaceId,
  connector,
  unsaved,
  readOnly,
}: {
  workspaceId: number;
  connector: Connector;
  unsaved: boolean;
  readOnly: boolean;
}) {
  const [result, setResult] = useState<ConnectionTestResult | null>(null);
  const [testing, setTesting] = useState(false);
  if (readOnly) return null;
  const runTest = async () => {
    setTesting(true);
    try {
      setResult(await testConnection(workspaceId, connector.id));
    } catch (error) {
      setResult({ ok: false, message: errorMessage(error) });
    } finally {
      setTesting(false);
    }
  };
  const authorizationUrl = connector.oauth_authorization_url;
  return (
    <Stack gap="sm">
      {unsaved && (
        <Text size="sm" c="orange">
          The test uses the saved settings; save your changes first to try them.
        </Text>
      )}
      {authorizationUrl && (
        <Group gap="sm">
          <Button component="a" href={authorizationUrl} variant="light">
            {connector.oauth_authorized_at ? 'Connect again' : 'Connect'}
          </Button>
          <Badge color={connector.oauth_authorized_at ? 'green' : 'gray'} variant="light">
            {connector.oauth_authorized_at
              ? `Connected ${new Date(connector.oauth_authorized_at).toLocaleString()}`
              : 'Not connected yet'}
          </Badge>
        </Group>
      )}
      <Button variant="light" onClick={runTest} loading={testing} style={{ alignSelf: 'flex-start' }}>
        Test connection
      </Button>
      {result && (
        <Alert color={result.ok ? 'green' : 'red'} role="status" data-testid="connection-test-result">
          {result.message}
        </Alert>
      )}
    </Stack>
  );
}
