import {
  Alert,
  Badge,
  Button,
  Code,
  Fieldset,
  Group,
  Modal,
  ScrollArea,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useCan } from '../../app/session.ts';
import { errorMessage } from '../../shared/api-error.ts';
import { CollectionPanel } from '../../shared/CollectionPanel.tsx';
import { monospaceInput } from '../../shared/monospace.ts';
import { showNestedApiErrors } from '../../shared/nested-form-errors.ts';
import { RowsEditor } from '../../shared/RowsEditor.tsx';
import { clearedMessage, movesOrigin, moveWarning } from '../../shared/secret-destination.ts';
import {
  deleteFeed,
  dynamicContentKeys,
  type Feed,
  type FeedRunResult,
  feedListQuery,
  runFeed,
  saveFeed,
} from './dynamic-content-api.ts';

/** Feeds: external JSON (products, events…) whose fields components can show. */
export function FeedsPanel({ workspaceId }: { workspaceId: number }) {
  const can = useCan();
  const [page, setPage] = useState(1);
  const query = useQuery(feedListQuery(workspaceId, page));
  const manage = can('manage_feeds');
  return (
    <CollectionPanel
      noun="feed"
      description="A feed fetches JSON from a URL (which can read parameters the editor user types) and extracts fields from it with JSON paths, e.g. a product's name and price. Header values, such as API keys, are stored and only shown masked."
      query={query}
      onPage={setPage}
      queryKey={dynamicContentKeys.kind(workspaceId, 'feeds')}
      headers={['Name', 'Request', 'Fields']}
      cells={(feed) => [
        <Text key="name" fw={500}>
          {feed.name}
        </Text>,
        <Text key="url" size="sm" ff="monospace" lineClamp={1}>
          {feed.request_method} {feed.url}
        </Text>,
        feed.fields.map((field) => field.key).join(', ') || '—',
      ]}
      nameOf={(feed) => feed.name}
      permissions={{ create: manage, update: manage, delete: manage }}
      renderForm={(feed, close) => (
        <FeedForm workspaceId={workspaceId} feed={feed} readOnly={!manage} onClose={close} />
      )}
      deleteItem={(feed) => deleteFeed(workspaceId, feed.id)}
      emptyHint="Create one to fill components from a product catalogue or any JSON API."
    />
  );
}

function FeedForm({
  workspaceId,
  feed,
  readOnly,
  onClose,
}: {
  workspaceId: number;
  feed: Feed | null;
  readOnly: boolean;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const [problems, setProblems] = useState<string[]>([]);
  // A new feed stays open after its first save so it can be tried at once.
  const [saved, setSaved] = useState<Feed | null>(feed);
  const form = useForm({
    initialValues: {
      name: feed?.name ?? '',
      url: feed?.url ?? '',
      request_method: feed?.request_method ?? 'GET',
      parameters: feed?.parameters ?? [],
      headers: feed?.headers ?? [],
      fields: feed?.fields ?? [],
    },
  });
  const [cleared, setCleared] = useState<string | null>(null);
  // Stored header values (still masked in the form) are dropped when the URL moves to another origin.
  const storedHeaders = (saved?.headers ?? []).filter((header) =>
    form.values.headers.some((shown) => shown.key === header.key && shown.value === header.value),
  );
  const warnsOfMove = saved !== null && storedHeaders.length > 0 && movesOrigin(saved.url, form.values.url);
  const save = form.onSubmit(async (values) => {
    setProblems([]);
    setCleared(null);
    const body = { ...values, name: values.name.trim(), url: values.url.trim() };
    try {
      const result = await saveFeed(workspaceId, saved, body);
      setSaved(result);
      setCleared(clearedMessage(result.secrets_cleared));
      form.setValues({ ...body, headers: result.headers });
      form.resetDirty({ ...body, headers: result.headers });
      await queryClient.invalidateQueries({ queryKey: dynamicContentKeys.kind(workspaceId, 'feeds') });
      notifications.show({ message: `${result.name} saved` });
    } catch (error) {
      setProblems(
        showNestedApiErrors(form, error, [
          'name',
          'url',
          'request_method',
          'parameters',
          'headers',
          'fields',
        ]),
      );
    }
  });
  return (
    <Modal opened onClose={onClose} title={saved ? saved.name : 'New feed'} size="xl">
      <Stack>
        <form onSubmit={save} noValidate>
          <Stack>
            {problems.length > 0 && (
              <Alert color="red" role="alert">
                {problems.join(' ')}
              </Alert>
            )}
            <TextInput
              label="Name"
              required
              readOnly={readOnly}
              data-autofocus
              {...form.getInputProps('name')}
            />
            <Group align="flex-start" wrap="nowrap">
              <Select
                label="Method"
                data={['GET', 'POST']}
                allowDeselect={false}
                readOnly={readOnly}
                w={110}
                {...form.getInputProps('request_method')}
              />
              <TextInput
                label="URL"
                description="Liquid over the parameters, e.g. https://shop.example.com/api/products/{{ parameters.product_id }}: each value is URL-encoded; the host is written as is"
                required
                styles={monospaceInput}
                readOnly={readOnly}
                style={{ flex: 1 }}
                {...form.getInputProps('url')}
              />
            </Group>
            {warnsOfMove && (
              <Alert color="yellow" title="Another address">
                {moveWarning(`header values (${storedHeaders.map((header) => header.key).join(', ')})`)}
              </Alert>
            )}
            {cleared && (
              <Alert color="yellow" role="status">
                {cleared}
              </Alert>
            )}
            <RowsEditor
              form={form}
              path="parameters"
              legend="Parameters (typed by the editor user)"
              columns={[
                { key: 'label', label: 'Label', placeholder: 'Product id' },
                { key: 'name', label: 'Name', placeholder: 'product_id', monospace: true },
              ]}
              newRow={() => ({ label: '', name: '' })}
              addLabel="Add parameter"
              readOnly={readOnly}
              emptyText="No parameters: the URL is the same for every use."
            />
            <RowsEditor
              form={form}
              path="headers"
              legend="Headers"
              columns={[
                { key: 'key', label: 'Header', placeholder: 'Authorization', monospace: true },
                { key: 'value', label: 'Value (shown masked once saved)', monospace: true },
              ]}
              newRow={() => ({ key: '', value: '' })}
              addLabel="Add header"
              readOnly={readOnly}
              emptyText="No headers."
            />
            <RowsEditor
              form={form}
              path="fields"
              legend="Fields"
              columns={[
                { key: 'key', label: 'Field', placeholder: 'product_name', monospace: true },
                { key: 'value', label: 'JSON path', placeholder: '$.product.name', monospace: true },
              ]}
              newRow={() => ({ key: '', value: '' })}
              addLabel="Add field"
              readOnly={readOnly}
              emptyText="No fields: add the values components should read from the answer."
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                Close
              </Button>
              {!readOnly && (
                <Button type="submit" loading={form.submitting}>
                  Save
                </Button>
              )}
            </Group>
          </Stack>
        </form>
        {saved ? (
          <FeedTestRun workspaceId={workspaceId} feed={saved} unsaved={form.isDirty()} />
        ) : (
          <Text size="sm" c="dimmed">
            Save the feed to try it.
          </Text>
        )}
      </Stack>
    </Modal>
  );
}

/** Runs the saved feed through the API with typed parameters and shows what came back. */
function FeedTestRun({ workspaceId, feed, unsaved }: { workspaceId: number; feed: Feed; unsaved: boolean }) {
  const [parameters, setParameters] = useState<Record<string, string>>({});
  const [result, setResult] = useState<FeedRunResult | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [running, setRunning] = useState(false);
  const run = async () => {
    setRunning(true);
    setFailure(null);
    try {
      setResult(await runFeed(workspaceId, feed.id, parameters));
    } catch (error) {
      setResult(null);
      setFailure(errorMessage(error));
    } finally {
      setRunning(false);
    }
  };
  return (
    <Fieldset legend="Test run">
      <Stack gap="sm">
        {unsaved && (
          <Text size="sm" c="orange">
            The test runs the saved feed; save your changes first to try them.
          </Text>
        )}
        {feed.parameters.map((parameter) => (
          <TextInput
            key={parameter.name}
            label={parameter.label}
            size="xs"
            value={parameters[parameter.name] ?? ''}
            onChange={(event) => {
              const value = event.currentTarget.value;
              setParameters((current) => ({ ...current, [parameter.name]: value }));
            }}
          />
        ))}
        <Button variant="light" onClick={run} loading={running} style={{ alignSelf: 'flex-start' }}>
          Test run
        </Button>
        {failure && (
          <Alert color="red" role="alert">
            {failure}
          </Alert>
        )}
        {result && <FeedRunOutput result={result} />}
      </Stack>
    </Fieldset>
  );
}

function FeedRunOutput({ result }: { result: FeedRunResult }) {
  const ok = result.status !== null && result.status >= 200 && result.status < 300 && !result.error;
  return (
    <Stack gap="xs" data-testid="feed-run-result">
      <Group gap="xs">
        <Badge color={ok ? 'green' : 'red'}>
          {result.status === null ? 'No answer' : `HTTP ${result.status}`}
        </Badge>
        {result.url && (
          <Text size="xs" ff="monospace" style={{ wordBreak: 'break-all' }}>
            {result.url}
          </Text>
        )}
      </Group>
      {result.error && (
        <Alert color="red" p="xs">
          {result.error}
        </Alert>
      )}
      <Text size="sm" fw={500}>
        Extracted data
      </Text>
      {Object.keys(result.extracted_data).length === 0 ? (
        <Text size="sm" c="dimmed">
          No fields to extract.
        </Text>
      ) : (
        <Table withTableBorder>
          <Table.Tbody>
            {Object.entries(result.extracted_data).map(([key, value]) => (
              <Table.Tr key={key}>
                <Table.Td ff="monospace">{key}</Table.Td>
                <Table.Td>
                  {value === null ? <Text c="dimmed">missing</Text> : <Code>{JSON.stringify(value)}</Code>}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {result.body !== null && (
        <>
          <Text size="sm" fw={500}>
            Body
          </Text>
          <ScrollArea.Autosize mah={240}>
            <Code block>{result.body}</Code>
          </ScrollArea.Autosize>
        </>
      )}
    </Stack>
  );
}
