import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Loader,
  Modal,
  MultiSelect,
  Progress,
  SegmentedControl,
  Select,
  Stack,
  Text,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { ApiError, errorMessage } from '../../shared/api-error.ts';
import { allProfilesQuery } from '../dynamic-content/api.ts';
import {
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
}

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

/** Pre-send check findings: blocking ones first, in red, then warnings. */
export function ProblemList({ problems }: { problems: readonly PreSendProblem[] }) {
  const blocking = problems.filter((problem) => problem.severity === 'blocking');
  const warnings = problems.filter((problem) => problem.severity === 'warning');
  const line = (problem: PreSendProblem, index: number) => (
    <Text key={`${problem.code}-${problem.locale}-${index}`} size="sm">
      {problem.locale ? <b>{problem.locale}</b> : null}
      {problem.locale ? ' · ' : ''}
      {problem.branch && problem.branch !== 'null_branch' ? `${problem.branch} · ` : ''}
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
  const profiles = useQuery(allProfilesQuery(workspaceId));
  const checks = useQuery(checksQuery(workspaceId, email.id, profileId));
  const start = useMutation({
    mutationFn: () =>
      createExport(workspaceId, {
        emailId: email.id,
        exportType,
        locales,
        dynamicContentProfileId: profileId,
        imageMode: exportType === 'html' ? imageMode : 'use_cdn',
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
            ]}
          />
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
                Library images
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
            </Stack>
          )}
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
              <ProblemList problems={problems} />
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
                disabled={locales.length === 0 || blocked || checks.isPending}
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
