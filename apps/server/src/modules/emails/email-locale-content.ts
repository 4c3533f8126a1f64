import {
  type BranchedText,
  copyIntoAddedLocales,
  type EmailContent,
  type FieldValue,
  valuesEqual,
} from '@letterset/core';
import { ValidationError } from '../../http/errors.ts';

/**
 * What an email's content becomes when its locales change: each locale added starts as a copy of a
 * source locale's values (the default locale unless `source_locale` names another), marked
 * `copied`, so a new locale shows the source's images, links and texts until translated, never the
 * components' defaults. Values the request already gives the new locale are kept.
 */
export function contentForLocales(
  content: EmailContent,
  options: {
    previousLocales: readonly string[];
    locales: readonly string[];
    defaultLocale: string;
    sourceLocale: string | undefined;
  },
): EmailContent {
  const added = options.locales.filter((locale) => !options.previousLocales.includes(locale));
  if (options.sourceLocale !== undefined) {
    if (added.length === 0)
      throw ValidationError.field(
        'source_locale',
        'is only for adding locales: send it with the new locales',
      );
    if (
      !options.previousLocales.includes(options.sourceLocale) ||
      !options.locales.includes(options.sourceLocale)
    )
      throw ValidationError.field('source_locale', 'must be a locale the email already has and keeps');
  }
  if (added.length === 0) return content;
  // A new default locale has nothing yet: the copy then comes from the one it replaces, if kept.
  const source =
    options.sourceLocale ??
    (options.previousLocales.includes(options.defaultLocale)
      ? options.defaultLocale
      : options.previousLocales.find((locale) => options.locales.includes(locale)));
  if (source === undefined) return content;
  return copyIntoAddedLocales(content, { ...options, source });
}

/** Statuses of subject and preheader texts in locales the email no longer has are dropped with the texts. */
export function withoutStatusesOutside(content: EmailContent, locales: readonly string[]): EmailContent {
  const keep = new Set(locales);
  const prune = (text: BranchedText): BranchedText => {
    if (text.translation_status === undefined) return text;
    const statuses = Object.fromEntries(
      Object.entries(text.translation_status)
        .map(([branch, byLocale]) => [
          branch,
          Object.fromEntries(Object.entries(byLocale).filter(([locale]) => keep.has(locale))),
        ])
        .filter(([, byLocale]) => Object.keys(byLocale as object).length > 0),
    );
    if (valuesEqual(statuses, text.translation_status)) return text;
    const { translation_status: _dropped, ...rest } = text;
    return Object.keys(statuses).length > 0 ? { ...rest, translation_status: statuses } : rest;
  };
  const subject = prune(content.subject);
  const preheader = prune(content.preheader);
  return subject === content.subject && preheader === content.preheader
    ? content
    : { ...content, subject, preheader };
}

/**
 * A status of a subject or preheader text belongs to a text: its branch and locale must hold one
 * (field values carry theirs inside the value, so the value's own checks cover them).
 */
export function translationStatusProblems(content: EmailContent): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const part of ['subject', 'preheader'] as const) {
    for (const [branch, byLocale] of Object.entries(content[part].translation_status ?? {})) {
      for (const locale of Object.keys(byLocale)) {
        if (content[part].branch_content[branch]?.[locale] === undefined) {
          errors[`email_content.${part}.translation_status.${branch}.${locale}`] = [
            `has no ${part} text in this branch and locale to describe`,
          ];
        }
      }
    }
  }
  return errors;
}

/**
 * A value someone changed through the API in a locale where it was `copied` becomes `edited`, as an
 * edit in the editor would mark it, unless the request sets a status of its own. Values without a
 * status keep none (they are judged by their text, as before statuses existed).
 */
export function markEditedCopies(previous: EmailContent, next: EmailContent): EmailContent {
  const previousValues = new Map<string, FieldValue>();
  for (const instance of [previous.container_component_instance, ...previous.component_instances]) {
    for (const [branch, byLocale] of Object.entries(instance.field_values ?? {}))
      for (const [locale, values] of Object.entries(byLocale))
        for (const [variable, value] of Object.entries(values))
          previousValues.set(JSON.stringify([instance.id, branch, locale, variable]), value);
  }
  let changed = false;
  const markInstance = <T extends EmailContent['container_component_instance']>(instance: T): T => {
    let fieldValues = instance.field_values;
    for (const [branch, byLocale] of Object.entries(instance.field_values ?? {}))
      for (const [locale, values] of Object.entries(byLocale))
        for (const [variable, value] of Object.entries(values)) {
          const before = previousValues.get(JSON.stringify([instance.id, branch, locale, variable]));
          if (
            before?.translation_status === 'copied' &&
            value.translation_status === 'copied' &&
            !valuesEqual(before.value, value.value)
          ) {
            fieldValues = {
              ...fieldValues,
              [branch]: {
                ...fieldValues[branch],
                [locale]: {
                  ...fieldValues[branch]?.[locale],
                  [variable]: { ...value, translation_status: 'edited' },
                },
              },
            };
          }
        }
    if (fieldValues === instance.field_values) return instance;
    changed = true;
    return { ...instance, field_values: fieldValues };
  };
  const markText = (before: BranchedText, after: BranchedText): BranchedText => {
    let result = after;
    for (const [branch, byLocale] of Object.entries(after.translation_status ?? {}))
      for (const [locale, status] of Object.entries(byLocale)) {
        if (
          status === 'copied' &&
          before.translation_status?.[branch]?.[locale] === 'copied' &&
          before.branch_content[branch]?.[locale] !== after.branch_content[branch]?.[locale]
        ) {
          result = {
            ...result,
            translation_status: {
              ...result.translation_status,
              [branch]: { ...result.translation_status?.[branch], [locale]: 'edited' },
            },
          };
        }
      }
    if (result !== after) changed = true;
    return result;
  };
  const marked: EmailContent = {
    ...next,
    subject: markText(previous.subject, next.subject),
    preheader: markText(previous.preheader, next.preheader),
    container_component_instance: markInstance(next.container_component_instance),
    component_instances: next.component_instances.map(markInstance),
  };
  return changed ? marked : next;
}
