import { audienceLabelOf } from '@letterset/core';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Checkbox,
  Group,
  Loader,
  Modal,
  MultiSelect,
  Progress,
  SegmentedControl,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { ApiError, errorMessage } from '../../shared/api-error.ts';
import { type Connector, connectorListQuery } from '../connectors/connectors-api.ts';
import { allProfilesQuery } from '../dynamic-content/dynamic-content-api.ts';
import { ExportPreview } from './ExportPreview.tsx';
import { useEmailAudiences } from './export-preview.ts';
import {
  type ConnectorChoice,
  checksQuery,
  createExport,
  downloadOf,
  type Export,
  type ExportRequest,
  exportKeys,
  exportQuery,
  exportTypeLabels,
  type ImageMode,
  type PreSendProblem,
} from './exports-api.ts';

export interface ExportableEmail {
  id: number;
  name: string;
  locales: string[];
  status: string;
}

const platformNames: Record<Connector['integration_name'], string> = {
  iterable: 'Iterable',
  salesforce_marketing_cloud: 'Marketing Cloud',
};

const statusColors: Record<Export['status'], string> = {
  in_progress: 'blue',
  completed: 'green',
  failed: 'red',
};

export function ExportStatusBadge({ status }: { status: Export['status'] }) {
  return (
    <Badge color={statusColors[status]} variant="light">
      {status === 'in_progress' ? 'In progress' : status === 'completed' ? 'Completed' : 'Failed'}
    </Badge>
  );
}

/**
 * Pre-send check findings: blocking ones first, in red, then warnings, each with its locale and,
 * under a conditional, its audience (the branch's name when `audienceOf` knows it, else its key).
 */
export function ProblemList({
  problems,
  audienceOf,
}: {
  problems: readonly PreSendProblem[];
  audienceOf?: (problem: PreSendProblem) => string | null;
}) {
  const blocking = problems.filter((problem) => problem.severity === 'blocking');
  const warnings = problems.filter((problem) => problem.severity === 'warning');
  const audience = (problem: PreSendProblem) =>
    problem.branch && problem.branch !== 'null_branch' ? (audienceOf?.(problem) ?? problem.branch) : null;
  const line = (problem: PreSendProblem, index: number) => (
    <Text key={`${problem.code}-${problem.locale}-${index}`} size="sm">
      {problem.locale ? <b>{problem.locale}</b> : null}
      {problem.locale ? ' · ' : ''}
      {audience(problem) ? `${audience(problem)} · ` : ''}
      {problem.message}
    </Text>
  );
  return (
    <Stack gap="xs">
      {blocking.length > 0 && (
        <Alert
          color="red"
          title={`${blocking.length} blocking ${blocking.length === 1 ? 'problem' : 'problems'}`}
          role="alert"
        >
          <Stack gap={2}>{blocking.map(line)}</Stack>
        </Alert>
      )}
      {warnings.length > 0 && (
        <Alert color="yellow" title={`${warnings.length} ${warnings.length === 1 ? 'warning' : 'warnings'}`}>
          <Stack gap={2}>{warnings.map(line)}</Stack>
        </Alert>
      )}
    </Stack>
  );
}

/** An export's live state: progress by locale while it runs, then its download or its errors. */
export function ExportProgress({ workspaceId, exportId }: { workspaceId: number; exportId: number }) {
  const query = useQuery(exportQuery(workspaceId, exportId));
  if (query.isPending) return <Loader size="sm" aria-label="Loading the export" />;
  if (query.isError)
    return (
      <Alert color="red" role="alert">
        {errorMessage(query.error)}
      </Alert>
    );
  const entry = query.data;
  const { locales_done: done, locales_total: total } = entry.progress;
  const download = downloadOf(entry);
  const errors = Object.entries(entry.export_errors);
  return (
    <Stack gap="xs" aria-label="Export progress">
      <Group justify="space-between">
        <Text size="sm">
          {exportTypeLabels[entry.export_type]} of {entry.email.name}
        </Text>
        <ExportStatusBadge status={entry.status} />
      </Group>
      <Progress
        value={total === 0 ? 0 : (done / total) * 100}
        animated={entry.status === 'in_progress'}
        color={entry.status === 'failed' ? 'red' : undefined}
        aria-label="Locales exported"
      />
      <Text size="sm" c="dimmed" role="status">
        {done} of {total} {total === 1 ? 'locale' : 'locales'} done
      </Text>
      {errors.length > 0 && (
        <Alert color="red" title="The export failed" role="alert">
          <Stack gap={2}>
            {errors.map(([where, messages]) => (
              <Text key={where} size="sm">
                {where === 'base' ? '' : <b>{where}: </b>}
                {messages.join('; ')}
              </Text>
            ))}
          </Stack>
        </Alert>
      )}
      {download && (
        <Button component="a" href={download.href} download>
          {download.label}
        </Button>
      )}
      {entry.open_in_integration_url && entry.integration_name && (
        <Button component="a" href={entry.open_in_integration_url} target="_blank" rel="noreferrer">
          Open in {platformNames[entry.integration_name as Connector['integration_name']] ?? 'the platform'}
        </Button>
      )}
      {entry.warnings.length > 0 && <ProblemList problems={entry.warnings} />}
    </Stack>
  );
}

/**
 * Exports an email: type, locales, dynamic content profile and image mode, with the pre-send
 * checks of the saved email shown before anything starts, then the export's live progress and
 * its download.
 */
export function ExportDialog({
  workspaceId,
  email,
  onClose,
}: {
  workspaceId: number;
  email: ExportableEmail;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const [exportType, setExportType] = useState<ExportRequest['exportType']>('html');
  const [locales, setLocales] = useState<string[]>(email.locales);
  const [profileId, setProfileId] = useState<string | null>(null);
  const [imageMode, setImageMode] = useState<ImageMode>('include_in_zip');
  const [exportId, setExportId] = useState<number | null>(null);
  const [connectorChoice, setConnectorChoice] = useState<Omit<ConnectorChoice, 'connectorId'>>({
    campaignId: '',
    folderId: '',
    resourceNames: {},
    updatePreviousExport: true,
  });
  const [connectorId, setConnectorId] = useState<number | null>(null);
  const profiles = useQuery(allProfilesQuery(workspaceId));
  const connectors = useQuery({
    ...connectorListQuery(workspaceId, 1, 100),
    enabled: exportType === 'connector',
  });
  const connector = connectors.data?.results.find((candidate) => candidate.id === connectorId) ?? null;
  // What goes to a sending platform goes to recipients: only a published email may.
  const unpublished = exportType === 'connector' && email.status !== 'published';
  const checks = useQuery(checksQuery(workspaceId, email.id, profileId));
  const emailAudiences = useEmailAudiences(workspaceId, email.id);
  const start = useMutation({
    mutationFn: () =>
      createExport(workspaceId, {
        emailId: email.id,
        exportType,
        locales,
        dynamicContentProfileId: profileId,
        imageMode: exportType === 'html' ? imageMode : 'use_cdn',
        ...(exportType === 'connector' && connectorId !== null
          ? { connector: { ...connectorChoice, connectorId } }
          : {}),
      }),
    onSuccess: (created) => {
      setExportId(created.id);
      queryClient.setQueryData(exportQuery(workspaceId, created.id).queryKey, created);
      void queryClient.invalidateQueries({ queryKey: exportKeys.all(workspaceId) });
    },
  });

  const chosen = new Set(locales);
  const problems = (checks.data?.problems ?? []).filter(
    (problem) => problem.locale === null || chosen.has(problem.locale),
  );
  const blocked = problems.some((problem) => problem.severity === 'blocking');
  const refusal = start.error instanceof ApiError ? start.error : null;

  return (
    <Modal opened onClose={onClose} title={`Export ${email.name}`} size="lg">
      {exportId !== null ? (
        <Stack>
          <ExportProgress workspaceId={workspaceId} exportId={exportId} />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setExportId(null)}>
              Export again
            </Button>
            <Button onClick={onClose}>Close</Button>
          </Group>
        </Stack>
      ) : (
        <Stack>
          <SegmentedControl
            aria-label="Export type"
            value={exportType}
            onChange={(value) => setExportType(value as ExportRequest['exportType'])}
            data={[
              { value: 'html', label: exportTypeLabels.html },
              { value: 'json', label: exportTypeLabels.json },
              { value: 'pdf', label: exportTypeLabels.pdf },
              { value: 'connector', label: 'Sending platform' },
            ]}
          />
          {exportType === 'connector' && (
            <ConnectorFields
              workspaceId={workspaceId}
              email={email}
              locales={locales}
              connectors={connectors.data?.results ?? []}
              loading={connectors.isPending}
              connector={connector}
              onConnectorChange={setConnectorId}
              choice={connectorChoice}
              onChoiceChange={setConnectorChoice}
            />
          )}
          {unpublished && (
            <Alert color="yellow" role="alert">
              Only a published email goes to a sending platform. Publish it first; files (HTML, JSON, PDF) can
              be exported at any status.
            </Alert>
          )}
          <MultiSelect
            label="Locales"
            data={email.locales}
            value={locales}
            onChange={setLocales}
            error={locales.length === 0 ? 'Choose at least one locale' : undefined}
            searchable
          />
          <Select
            label="Dynamic content profile"
            description="Conditionals, personalization tags and links in a sending platform’s syntax"
            data={[
              { value: '', label: 'None: resolve to default values' },
              ...(profiles.data?.results ?? []).map((profile) => ({
                value: profile.id,
                label: profile.name,
              })),
            ]}
            value={profileId ?? ''}
            onChange={(value) => setProfileId(value ? value : null)}
            allowDeselect={false}
          />
          {exportType === 'html' && (
            <Stack gap={4}>
              <Text size="sm" fw={500}>
                Images
              </Text>
              <SegmentedControl
                aria-label="Image mode"
                value={imageMode}
                onChange={(value) => setImageMode(value as ImageMode)}
                data={[
                  { value: 'include_in_zip', label: 'In the zip' },
                  { value: 'use_cdn', label: 'By public URL' },
                ]}
              />
              <Text size="xs" c="dimmed">
                {imageMode === 'include_in_zip'
                  ? 'Every image Letterset stores (library and starter images) goes in the zip, and the HTML points at it there. Images from other addresses stay where they are.'
                  : 'The HTML loads every image Letterset stores from its public address.'}
              </Text>
            </Stack>
          )}
          <ExportPreview
            workspaceId={workspaceId}
            emailId={email.id}
            locales={locales}
            profileChosen={profileId !== null}
            emailAudiences={emailAudiences}
          />
          <Stack gap="xs" aria-label="Pre-send checks">
            <Text size="sm" fw={500}>
              Pre-send checks
            </Text>
            {checks.isPending ? (
              <Group gap="xs">
                <Loader size="xs" />
                <Text size="sm" c="dimmed">
                  Checking every chosen locale…
                </Text>
              </Group>
            ) : checks.isError ? (
              <Alert color="red" role="alert">
                {errorMessage(checks.error)}
              </Alert>
            ) : problems.length === 0 ? (
              <Alert color="green" role="status">
                No problems found.
              </Alert>
            ) : (
              <ProblemList
                problems={problems}
                audienceOf={(problem) =>
                  audienceLabelOf(emailAudiences.content, emailAudiences.audiences, problem)
                }
              />
            )}
          </Stack>
          {refusal && (
            <Alert color="red" title={refusal.message} role="alert">
              {Object.entries(refusal.fieldErrors).map(([field, messages]) => (
                <Text key={field} size="sm">
                  <b>{field.replace(/^checks\.?/, '') || 'email'}:</b> {messages.join('; ')}
                </Text>
              ))}
            </Alert>
          )}
          {start.isError && !refusal && (
            <Alert color="red" role="alert">
              {errorMessage(start.error)}
            </Alert>
          )}
          <Group justify="space-between">
            <Anchor size="sm" component={Link} to={`/workspaces/${workspaceId}/exports`}>
              Export history
            </Anchor>
            <Group>
              <Button variant="default" onClick={onClose}>
                Cancel
              </Button>
              <Button
                onClick={() => start.mutate()}
                loading={start.isPending}
                disabled={
                  locales.length === 0 ||
                  blocked ||
                  checks.isPending ||
                  unpublished ||
                  (exportType === 'connector' && connector === null)
                }
              >
                Export
              </Button>
            </Group>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

/** The connector to export to, and what it makes there: a campaign or folder, names, update or new. */
function ConnectorFields({
  workspaceId,
  email,
  locales,
  connectors,
  loading,
  connector,
  onConnectorChange,
  choice,
  onChoiceChange,
}: {
  workspaceId: number;
  email: ExportableEmail;
  locales: readonly string[];
  connectors: readonly Connector[];
  loading: boolean;
  connector: Connector | null;
  onConnectorChange: (id: number | null) => void;
  choice: Omit<ConnectorChoice, 'connectorId'>;
  onChoiceChange: (choice: Omit<ConnectorChoice, 'connectorId'>) => void;
}) {
  if (!loading && connectors.length === 0) {
    return (
      <Alert color="blue">
        No connector in this workspace yet.{' '}
        <Anchor component={Link} to={`/workspaces/${workspaceId}/connectors`}>
          Set one up in Connectors
        </Anchor>
        .
      </Alert>
    );
  }
  const change = (patch: Partial<Omit<ConnectorChoice, 'connectorId'>>) =>
    onChoiceChange({ ...choice, ...patch });
  return (
    <Stack gap="xs">
      <Select
        label="Connector"
        placeholder={loading ? 'Loading…' : 'Choose a connector'}
        data={connectors.map((candidate) => ({
          value: String(candidate.id),
          label: `${candidate.name} (${platformNames[candidate.integration_name]})`,
        }))}
        value={connector ? String(connector.id) : null}
        onChange={(value) => onConnectorChange(value ? Number(value) : null)}
      />
      {connector?.integration_name === 'iterable' && (
        <TextInput
          label="Campaign id"
          description="Optional: the content goes into this campaign’s template instead of new base templates"
          value={choice.campaignId}
          onChange={(event) => change({ campaignId: event.currentTarget.value })}
        />
      )}
      {connector?.integration_name === 'salesforce_marketing_cloud' && (
        <TextInput
          label="Folder id"
          description="Optional: the Content Builder folder for the assets; without one, the top folder"
          value={choice.folderId}
          onChange={(event) => change({ folderId: event.currentTarget.value })}
        />
      )}
      {connector &&
        locales.map((locale) => (
          <TextInput
            key={locale}
            label={`Name in ${platformNames[connector.integration_name]} (${locale})`}
            placeholder={`${email.name} (${locale})`}
            value={choice.resourceNames[locale] ?? ''}
            onChange={(event) =>
              change({ resourceNames: { ...choice.resourceNames, [locale]: event.currentTarget.value } })
            }
          />
        ))}
      {connector && (
        <Checkbox
          label="Update what the last export of this email made, instead of making new ones"
          checked={choice.updatePreviousExport}
          onChange={(event) => change({ updatePreviousExport: event.currentTarget.checked })}
        />
      )}
    </Stack>
  );
}
