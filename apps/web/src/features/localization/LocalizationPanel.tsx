import {
  collectTranslatableValues,
  copyLocaleValues,
  localeInfo,
  readableText,
  setTranslationStatus,
  type TranslatableValue,
  type TranslationStatusTarget,
  textDirectionOf,
  translationCompletion,
  translationGap,
  workOverwrittenByCopy,
} from '@letterset/core';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Divider,
  FileInput,
  Group,
  Progress,
  Select,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { type ReactNode, useMemo, useState } from 'react';
import { ApiError, errorMessage } from '../../shared/api-error.ts';
import { confirmDestructive } from '../../shared/confirm.tsx';
import {
  dispatchCommand,
  instanceLabel,
  useEditorSession,
  useEditorState,
} from '../editor/EditorContext.tsx';
import type { Email } from '../editor/editor-api.ts';
import {
  forgetImport,
  formatOfFile,
  importProblems,
  importTranslationFile,
  recentImport,
  reloadEmail,
  rememberImport,
  type TranslationImportResult,
  translationsDownloadHref,
} from './localization-api.ts';

/** A locale's code with its English name, as pickers show it. */
function localeLabel(code: string): string {
  const name = localeInfo(code)?.name;
  return name ? `${code} · ${name}` : code;
}

/**
 * The Localization panel of the email editor: how far each locale is translated, the CSV and
 * XLIFF round trip (download, then upload with a summary or the problems found), and the default
 * locale beside another one for the selected component.
 */
export function LocalizationPanel({
  email,
  canImport,
  importBlockedReason,
  onImported,
  translateWithAi,
}: {
  email: Pick<Email, 'id' | 'name'>;
  /** The role may change the email's content and its status allows it. */
  canImport: boolean;
  /** Why an import cannot start now (unsaved changes), or null. */
  importBlockedReason: string | null;
  /** The import changed the saved email: the editor reopens on it. */
  onImported: (email: Email) => void;
  /**
   * The place of the "Translate with AI" button, for when AI translation exists: it goes beside the
   * file round trip, and uses the same completion figures. Nothing is shown until then.
   */
  translateWithAi?: ReactNode;
}) {
  const session = useEditorSession();
  const { document } = useEditorState(session.editor);
  const { componentsById, conditionals, workspaceId, selectedId } = session;
  const defaultLocale = document.defaultLocale;
  const targets = document.locales.filter((locale) => locale !== defaultLocale);

  const values = useMemo(
    () =>
      collectTranslatableValues({
        content: document.content,
        components: [...componentsById.values()],
        branchKeysOf: (conditionalId) =>
          conditionals
            .find((conditional) => conditional.id === conditionalId)
            ?.branches.map((branch) => branch.key),
      }),
    [document.content, componentsById, conditionals],
  );
  const completion = useMemo(
    () => translationCompletion(values, { defaultLocale, locales: document.locales }),
    [values, defaultLocale, document.locales],
  );

  const [chosenTarget, setTarget] = useState<string | null>(null);
  const target = chosenTarget && targets.includes(chosenTarget) ? chosenTarget : (targets[0] ?? null);

  return (
    <Stack gap="md" aria-label="Localization">
      <Stack gap="xs">
        <Title order={5}>Locales</Title>
        <LocaleCompletion
          locales={document.locales}
          defaultLocale={defaultLocale}
          completion={completion}
          chosen={target}
          onChoose={setTarget}
        />
      </Stack>
      {targets.length === 0 ? (
        <Text size="sm" c="dimmed">
          This email has one locale. Add locales in the Email tab to translate it.
        </Text>
      ) : (
        <>
          <Divider />
          <TranslationFiles
            workspaceId={workspaceId}
            email={email}
            targets={targets}
            canImport={canImport}
            importBlockedReason={importBlockedReason}
            onImported={onImported}
          />
          {translateWithAi}
          <Divider />
          <CopyFromLocale locales={document.locales} defaultLocale={defaultLocale} target={target} />
          <Divider />
          <SideBySide
            values={values}
            defaultLocale={defaultLocale}
            targets={targets}
            target={target}
            onTargetChange={setTarget}
            selectedId={selectedId}
          />
        </>
      )}
    </Stack>
  );
}

function LocaleCompletion({
  locales,
  defaultLocale,
  completion,
  chosen,
  onChoose,
}: {
  locales: readonly string[];
  defaultLocale: string;
  completion: Record<string, { total: number; translated: number }>;
  chosen: string | null;
  onChoose: (locale: string) => void;
}) {
  return (
    <Table verticalSpacing={4} fz="sm" aria-label="Translation completion">
      <Table.Tbody>
        {locales.map((locale) => {
          const figures = completion[locale];
          const share = figures && figures.total > 0 ? figures.translated / figures.total : 1;
          return (
            <Table.Tr key={locale} bg={locale === chosen ? 'var(--mantine-color-blue-light)' : undefined}>
              <Table.Td>
                <Anchor
                  component="button"
                  type="button"
                  size="sm"
                  onClick={() => locale !== defaultLocale && onChoose(locale)}
                  title={localeInfo(locale)?.name}
                >
                  {locale}
                </Anchor>
                {textDirectionOf(locale) === 'rtl' && (
                  <Badge size="xs" variant="light" ml={4}>
                    RTL
                  </Badge>
                )}
              </Table.Td>
              <Table.Td w="55%">
                {locale === defaultLocale || !figures ? (
                  <Text size="xs" c="dimmed">
                    Default locale: the source
                  </Text>
                ) : (
                  <Stack gap={2}>
                    <Progress
                      value={share * 100}
                      color={share === 1 ? 'green' : 'blue'}
                      size="sm"
                      aria-label={`${locale} translated`}
                    />
                    <Text size="xs" c="dimmed">
                      {figures.translated} of {figures.total} translated
                    </Text>
                  </Stack>
                )}
              </Table.Td>
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </Table>
  );
}

function TranslationFiles({
  workspaceId,
  email,
  targets,
  canImport,
  importBlockedReason,
  onImported,
}: {
  workspaceId: number;
  email: Pick<Email, 'id' | 'name'>;
  targets: readonly string[];
  canImport: boolean;
  importBlockedReason: string | null;
  onImported: (email: Email) => void;
}) {
  const [xliffLocale, setXliffLocale] = useState<string | null>(null);
  const xliffTarget = xliffLocale && targets.includes(xliffLocale) ? xliffLocale : (targets[0] ?? '');
  const [file, setFile] = useState<File | null>(null);
  const [lastImport, setLastImport] = useState(() => recentImport(email.id));
  const format = file ? formatOfFile(file.name) : null;

  const upload = useMutation({
    mutationFn: async (chosen: File) => {
      const chosenFormat = formatOfFile(chosen.name);
      if (!chosenFormat) throw new Error('Choose a .csv, .xlf or .xliff file.');
      const result = await importTranslationFile(workspaceId, email.id, chosen, chosenFormat);
      return { result, fileName: chosen.name };
    },
    onMutate: () => {
      forgetImport(email.id);
      setLastImport(null);
    },
    onSuccess: async ({ result, fileName }) => {
      rememberImport(email.id, result, fileName);
      setLastImport(recentImport(email.id));
      setFile(null);
      const changed = Object.values(result.changed).some((count) => count > 0);
      // Anything written is a new version: the editor reopens on it, with the summary kept.
      if (changed) onImported(await reloadEmail(workspaceId, email.id));
    },
  });
  const problems = upload.error instanceof ApiError ? importProblems(upload.error.fieldErrors) : [];

  return (
    <Stack gap="xs">
      <Title order={5}>Translation files</Title>
      <Text size="sm" c="dimmed">
        Files hold the saved email. A spreadsheet (CSV) has a row per text and a column per locale; XLIFF 2.0
        is for translation tools, one file per locale. Empty cells leave a text as it is.
      </Text>
      <Group gap="xs">
        <Button
          component="a"
          size="xs"
          variant="default"
          href={translationsDownloadHref(workspaceId, email.id, 'csv')}
          download
        >
          Download CSV
        </Button>
      </Group>
      <Group gap="xs" align="end">
        <Select
          size="xs"
          w={150}
          label="XLIFF for"
          allowDeselect={false}
          data={targets.map((locale) => ({ value: locale, label: locale }))}
          value={xliffTarget}
          onChange={setXliffLocale}
        />
        <Button
          component="a"
          size="xs"
          variant="default"
          href={translationsDownloadHref(workspaceId, email.id, 'xliff', xliffTarget)}
          download
        >
          Download XLIFF
        </Button>
      </Group>
      {canImport && (
        <Stack gap="xs">
          <FileInput
            size="xs"
            label="Import translations"
            description="A CSV or XLIFF file downloaded here, with its translations filled in"
            placeholder="Choose a .csv or .xlf file"
            accept=".csv,.xlf,.xliff,.xml,text/csv,application/xliff+xml"
            clearable
            value={file}
            onChange={setFile}
            error={file && !format ? 'Choose a .csv, .xlf or .xliff file.' : undefined}
          />
          {importBlockedReason && (
            <Text size="xs" c="dimmed">
              {importBlockedReason}
            </Text>
          )}
          <Button
            size="xs"
            disabled={!file || !format || importBlockedReason !== null}
            loading={upload.isPending}
            onClick={() => file && upload.mutate(file)}
          >
            Import
          </Button>
        </Stack>
      )}
      {upload.isError && (
        <Alert color="red" role="alert" title={errorMessage(upload.error)}>
          {problems.length > 0 && (
            <Stack gap={2} aria-label="Import problems">
              {problems.map((problem) => (
                <Text key={problem.where} size="sm">
                  <b>{problem.where}</b>: {problem.messages.join('; ')}
                </Text>
              ))}
            </Stack>
          )}
        </Alert>
      )}
      {lastImport && (
        <ImportSummary
          fileName={lastImport.fileName}
          result={lastImport.result}
          onClose={() => {
            forgetImport(email.id);
            setLastImport(null);
          }}
        />
      )}
    </Stack>
  );
}

/** What an import did, per locale: changed, already so, and empty cells left as they were. */
export function ImportSummary({
  fileName,
  result,
  onClose,
}: {
  fileName: string;
  result: TranslationImportResult;
  onClose?: () => void;
}) {
  const locales = Object.keys({ ...result.changed, ...result.skipped });
  const total = Object.values(result.changed).reduce((sum, count) => sum + count, 0);
  return (
    <Alert
      color={total > 0 ? 'green' : 'gray'}
      role="status"
      title={`Imported ${fileName}`}
      withCloseButton={onClose !== undefined}
      closeButtonLabel="Dismiss"
      onClose={onClose}
    >
      <Stack gap={2}>
        <Text size="sm">
          {total === 0
            ? 'Nothing changed: every text in the file was already in the email.'
            : `${total} ${total === 1 ? 'text' : 'texts'} changed, saved as one new version.`}
        </Text>
        {locales.map((locale) => (
          <Text key={locale} size="sm">
            <b>{locale}</b>: {result.changed[locale] ?? 0} changed, {result.unchanged[locale] ?? 0} unchanged
            {(result.skipped[locale] ?? 0) > 0 ? `, ${result.skipped[locale]} empty left as they were` : ''}
          </Text>
        ))}
      </Stack>
    </Alert>
  );
}

const gapLabels = {
  missing: 'Not translated',
  copied: 'Copied, not translated',
  same_as_default: 'Same as default',
} as const;
const statusLabels = { translated: 'Translated', edited: 'Edited' } as const;

/**
 * "Copy from…" for the whole email: every value of one locale (texts, images, links, each branch,
 * the subject and the preheader) copied into another as the start of its translation, one undoable
 * step. Asks first when the copy would replace values someone translated or edited.
 */
function CopyFromLocale({
  locales,
  defaultLocale,
  target,
}: {
  locales: readonly string[];
  defaultLocale: string;
  target: string | null;
}) {
  const { editor, readOnly } = useEditorSession();
  const { document } = useEditorState(editor);
  const targets = locales.filter((locale) => locale !== defaultLocale);
  const [chosenInto, setInto] = useState<string | null>(null);
  const into = chosenInto && targets.includes(chosenInto) ? chosenInto : target;
  const sources = locales.filter((locale) => locale !== into);
  const [chosenFrom, setFrom] = useState<string | null>(null);
  const from = chosenFrom && sources.includes(chosenFrom) ? chosenFrom : (sources[0] ?? null);
  if (readOnly || !editor.can('copyLocaleValues') || !into || !from) return null;

  const copy = async () => {
    const overwritten = workOverwrittenByCopy(document.content, from, into);
    if (
      overwritten > 0 &&
      !(await confirmDestructive({
        title: `Copy ${from} into ${into}?`,
        message: `${overwritten} ${overwritten === 1 ? 'value' : 'values'} of ${into} were translated or edited; the copy replaces ${overwritten === 1 ? 'it' : 'them'} with ${from}’s. Undo brings ${overwritten === 1 ? 'it' : 'them'} back.`,
        confirmLabel: 'Copy and replace',
      }))
    )
      return;
    dispatchCommand(editor, copyLocaleValues(into, null, from));
  };

  return (
    <Stack gap="xs">
      <Title order={5}>Copy from…</Title>
      <Text size="sm" c="dimmed">
        Copies every value of one locale into another, every component and branch, the subject and the
        preheader, as the start of its translation. Copied texts count as not translated until edited or
        translated.
      </Text>
      <Group gap="xs" align="end">
        <Select
          size="xs"
          w={150}
          label="Copy from"
          allowDeselect={false}
          data={sources.map((locale) => ({ value: locale, label: locale }))}
          value={from}
          onChange={setFrom}
        />
        <Select
          size="xs"
          w={150}
          label="Into"
          allowDeselect={false}
          data={targets.map((locale) => ({ value: locale, label: locale }))}
          value={into}
          onChange={setInto}
        />
        <Button size="xs" variant="default" onClick={() => void copy()}>
          Copy {from} into {into}
        </Button>
      </Group>
    </Stack>
  );
}

/** Where a translatable value is, as the status command addresses it. */
function statusTarget(value: TranslatableValue, locale: string): TranslationStatusTarget {
  const { source } = value;
  return source.kind === 'field'
    ? {
        kind: 'field',
        instanceId: source.instanceId,
        branch: source.branch,
        locale,
        variable: source.liquidVariable,
      }
    : { kind: source.kind, branch: source.branch, locale };
}

/** The default locale and another one, text by text, for the selected component (else subject and preheader). */
function SideBySide({
  values,
  defaultLocale,
  targets,
  target,
  onTargetChange,
  selectedId,
}: {
  values: readonly TranslatableValue[];
  defaultLocale: string;
  targets: readonly string[];
  target: string | null;
  onTargetChange: (locale: string) => void;
  selectedId: string | null;
}) {
  const { componentsById, editor, readOnly, setLocale, focusField, setBranch } = useEditorSession();
  const { document } = useEditorState(editor);
  const instance = [
    document.content.container_component_instance,
    ...document.content.component_instances,
  ].find((candidate) => candidate.id === selectedId);
  const shown = values.filter((value) =>
    instance
      ? value.source.kind === 'field' && value.source.instanceId === instance.id
      : value.source.kind !== 'field',
  );
  const title = instance ? instanceLabel(instance, componentsById) : 'Subject and preheader';
  if (!target) return null;

  return (
    <Stack gap="xs">
      <Group justify="space-between" align="end">
        <Title order={5}>{title}</Title>
        <Select
          size="xs"
          w={150}
          aria-label="Compare with"
          allowDeselect={false}
          data={targets.map((locale) => ({ value: locale, label: localeLabel(locale) }))}
          value={target}
          onChange={(locale) => locale && onTargetChange(locale)}
        />
      </Group>
      {!instance && (
        <Text size="xs" c="dimmed">
          Select a component in the preview or the outline to compare its texts.
        </Text>
      )}
      {shown.length === 0 ? (
        <Text size="sm" c="dimmed">
          This component has no text to translate.
        </Text>
      ) : (
        shown.map((value) => {
          const gap = translationGap(value, target, defaultLocale);
          const status = value.statuses?.[target];
          const branch = value.source.branch;
          const source = value.texts[defaultLocale] ?? value.fallbackText;
          const translated = value.texts[target];
          return (
            <Stack
              key={value.key}
              gap={4}
              p="xs"
              style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 4 }}
            >
              <Group justify="space-between" gap="xs">
                <Text size="sm" fw={500}>
                  {value.fieldLabel}
                  {branch !== 'null_branch' ? ` · ${branch}` : ''}
                </Text>
                {gap && (
                  <Badge size="xs" color={gap === 'missing' ? 'orange' : 'yellow'} variant="light">
                    {gapLabels[gap]}
                  </Badge>
                )}
                {!gap && (status === 'translated' || status === 'edited') && (
                  <Badge size="xs" color="green" variant="light">
                    {statusLabels[status]}
                  </Badge>
                )}
              </Group>
              <Group grow align="start" gap="xs" wrap="nowrap">
                <Stack gap={0}>
                  <Text size="xs" c="dimmed">
                    {defaultLocale}
                  </Text>
                  <Text size="sm" dir={textDirectionOf(defaultLocale)} style={{ whiteSpace: 'pre-wrap' }}>
                    {readableText(value, source) || '—'}
                  </Text>
                </Stack>
                <Stack gap={0}>
                  <Text size="xs" c="dimmed">
                    {target}
                  </Text>
                  <Text size="sm" dir={textDirectionOf(target)} style={{ whiteSpace: 'pre-wrap' }}>
                    {translated === undefined ? '—' : readableText(value, translated) || '—'}
                  </Text>
                </Stack>
              </Group>
              {(gap === 'copied' || gap === 'same_as_default') && !readOnly && (
                <Anchor
                  component="button"
                  type="button"
                  size="xs"
                  title="The text stays the same in this locale (a brand or product name): stop reporting it as untranslated"
                  onClick={() =>
                    dispatchCommand(editor, setTranslationStatus(statusTarget(value, target), 'translated'))
                  }
                >
                  Keep as translated
                </Anchor>
              )}
              {value.source.kind === 'field' && (
                <Anchor
                  component="button"
                  type="button"
                  size="xs"
                  onClick={() => {
                    const field = value.source;
                    if (field.kind !== 'field') return;
                    setLocale(target);
                    if (instance?.conditional_id != null && field.branch !== 'null_branch') {
                      setBranch(instance.conditional_id, field.branch);
                    }
                    focusField(field.instanceId, field.liquidVariable);
                  }}
                >
                  Edit in {target}
                </Anchor>
              )}
            </Stack>
          );
        })
      )}
    </Stack>
  );
}
