import { addLocale, type EditorDocument, removeLocale, setDefaultLocale } from '@letterset/core';
import { locales as allLocales } from '@letterset/core/locales';
import { MultiSelect, Select, Stack, Title } from '@mantine/core';
import { useState } from 'react';
import { BranchedTextSetting } from './BranchedTextSetting.tsx';
import { dispatchCommand, useEditorSession } from './EditorContext.tsx';
import { GlobalLinkTrackingFields } from './fields/LinkTrackingFields.tsx';

const localeOptions = allLocales.map((locale) => ({
  value: locale.code,
  label: `${locale.name} (${locale.code})`,
}));

/**
 * Email-wide settings: subject and preheader in the current locale, locales, brand and link
 * tracking. A layout has its locales, brand, and the subject and preheader emails started from it
 * begin with: link tracking belongs to each email.
 */
export function SettingsPanel({
  kind,
  document,
  brandProfileId,
  brandProfiles,
  onBrandProfileChange,
  linkTrackingProfileId,
  linkTrackingProfiles,
  onLinkTrackingProfileChange,
}: {
  kind: 'email' | 'layout';
  document: EditorDocument;
  brandProfileId: number | null;
  brandProfiles: readonly { id: number; name: string }[];
  onBrandProfileChange: (id: number | null) => void;
  linkTrackingProfileId: number | null;
  linkTrackingProfiles: readonly { id: number; name: string }[];
  onLinkTrackingProfileChange: (id: number | null) => void;
}) {
  const { editor, readOnly } = useEditorSession();
  const { subject, preheader } = document.content;
  const canChangeLocales = !readOnly && editor.can('addLocale');
  // Where a locale added next copies its values from; the default locale until someone picks another.
  const [chosenSource, setChosenSource] = useState<string | null>(null);
  const copySource =
    chosenSource !== null && document.locales.includes(chosenSource) ? chosenSource : document.defaultLocale;
  return (
    <Stack gap="sm">
      <Title order={2} fz="md">
        {kind === 'email' ? 'Email settings' : 'Layout settings'}
      </Title>
      <BranchedTextSetting part="subject" text={subject} />
      <BranchedTextSetting part="preheader" text={preheader} />
      <MultiSelect
        label="Locales"
        searchable
        disabled={!canChangeLocales}
        description={
          !canChangeLocales
            ? undefined
            : kind === 'email'
              ? `A new locale starts as a copy of ${copySource}, to translate from there. Removing a locale drops its values; earlier versions keep them.`
              : 'Emails started from this layout begin with these locales and their values.'
        }
        data={localeOptions}
        value={document.locales}
        onChange={(next) => {
          for (const code of next.filter((code) => !document.locales.includes(code))) {
            dispatchCommand(editor, addLocale(code, copySource));
          }
          for (const code of document.locales.filter((code) => !next.includes(code))) {
            dispatchCommand(editor, removeLocale(code));
          }
        }}
      />
      {canChangeLocales && document.locales.length > 1 && (
        <Select
          label="New locales copy"
          description="The locale whose texts, images and links a locale you add starts from"
          allowDeselect={false}
          data={localeOptions.filter((option) => document.locales.includes(option.value))}
          value={copySource}
          onChange={(code) => code && setChosenSource(code)}
        />
      )}
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
      {kind === 'email' && (
        <>
          <Select
            label="Link tracking profile"
            disabled={readOnly}
            clearable
            placeholder="None"
            data={linkTrackingProfiles.map((profile) => ({ value: String(profile.id), label: profile.name }))}
            value={linkTrackingProfileId === null ? null : String(linkTrackingProfileId)}
            onChange={(value) => onLinkTrackingProfileChange(value ? Number(value) : null)}
          />
          <GlobalLinkTrackingFields values={document.content.global_link_tracking_parameters} />
        </>
      )}
    </Stack>
  );
}
