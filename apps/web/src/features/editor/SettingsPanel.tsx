import {
  addLocale,
  type BranchedText,
  type EditorDocument,
  nullBranch,
  removeLocale,
  setDefaultLocale,
  setPreheader,
  setSubject,
} from '@letterset/core';
import { locales as allLocales } from '@letterset/core/locales';
import { MultiSelect, Select, Stack, Title } from '@mantine/core';
import { dispatchCommand, useEditorSession } from './EditorContext.tsx';
import { TextWithTags } from './fields/TextWithTags.tsx';

const localeOptions = allLocales.map((locale) => ({
  value: locale.code,
  label: `${locale.name} (${locale.code})`,
}));

/** The branch of the subject or preheader being edited: null_branch, or the first branch when conditional. */
function textBranch(text: BranchedText): string {
  if (text.conditional_id == null) return nullBranch;
  return Object.keys(text.branch_content)[0] ?? nullBranch;
}

/** Email-wide settings: subject and preheader in the current locale, locales, brand and link tracking. */
export function SettingsPanel({
  document,
  brandProfileId,
  brandProfiles,
  onBrandProfileChange,
  linkTrackingProfileId,
  linkTrackingProfiles,
  onLinkTrackingProfileChange,
}: {
  document: EditorDocument;
  brandProfileId: number | null;
  brandProfiles: readonly { id: number; name: string }[];
  onBrandProfileChange: (id: number | null) => void;
  linkTrackingProfileId: number | null;
  linkTrackingProfiles: readonly { id: number; name: string }[];
  onLinkTrackingProfileChange: (id: number | null) => void;
}) {
  const { editor, readOnly, locale, personalizationTags } = useEditorSession();
  const { subject, preheader } = document.content;
  const subjectBranch = textBranch(subject);
  const preheaderBranch = textBranch(preheader);
  const canChangeLocales = !readOnly && editor.can('addLocale');
  return (
    <Stack gap="sm">
      <Title order={2} fz="md">
        Email settings
      </Title>
      <TextWithTags
        label={`Subject (${locale})`}
        disabled={readOnly}
        value={subject.branch_content[subjectBranch]?.[locale] ?? ''}
        onChange={(text) => dispatchCommand(editor, setSubject(subjectBranch, locale, text))}
        personalizationTags={personalizationTags}
      />
      <TextWithTags
        label={`Preheader (${locale})`}
        disabled={readOnly}
        value={preheader.branch_content[preheaderBranch]?.[locale] ?? ''}
        onChange={(text) => dispatchCommand(editor, setPreheader(preheaderBranch, locale, text))}
        personalizationTags={personalizationTags}
      />
      <MultiSelect
        label="Locales"
        searchable
        disabled={!canChangeLocales}
        description={
          canChangeLocales ? 'Removing a locale drops its values; earlier versions keep them.' : undefined
        }
        data={localeOptions}
        value={document.locales}
        onChange={(next) => {
          for (const code of next.filter((code) => !document.locales.includes(code))) {
            dispatchCommand(editor, addLocale(code));
          }
          for (const code of document.locales.filter((code) => !next.includes(code))) {
            dispatchCommand(editor, removeLocale(code));
          }
        }}
      />
      <Select
        label="Default locale"
        disabled={readOnly}
        allowDeselect={false}
        data={localeOptions.filter((option) => document.locales.includes(option.value))}
        value={document.defaultLocale}
        onChange={(code) => code && dispatchCommand(editor, setDefaultLocale(code))}
      />
      <Select
        label="Brand profile"
        disabled={readOnly}
        clearable
        placeholder="None"
        data={brandProfiles.map((profile) => ({ value: String(profile.id), label: profile.name }))}
        value={brandProfileId === null ? null : String(brandProfileId)}
        onChange={(value) => onBrandProfileChange(value ? Number(value) : null)}
      />
      <Select
        label="Link tracking profile"
        disabled={readOnly}
        clearable
        placeholder="None"
        data={linkTrackingProfiles.map((profile) => ({ value: String(profile.id), label: profile.name }))}
        value={linkTrackingProfileId === null ? null : String(linkTrackingProfileId)}
        onChange={(value) => onLinkTrackingProfileChange(value ? Number(value) : null)}
      />
    </Stack>
  );
}
