import type { components } from '@letterset/api-client';
import {
  type ComponentDefinition,
  type ContentValidationResult,
  type EditorDocument,
  type EmailContent,
  validateEmailContent,
} from '@letterset/core';

export type Layout = components['schemas']['Layout'];

/**
 * What a layout keeps of an email: its container and components, and optionally the subject and
 * preheader emails started from it begin with (the Letterset Starter's layouts have them).
 */
export interface LayoutContent {
  subject?: EditorDocument['content']['subject'];
  preheader?: EditorDocument['content']['preheader'];
  container_component_instance: EditorDocument['content']['container_component_instance'];
  component_instances: EditorDocument['content']['component_instances'];
}

/**
 * An email's body as a layout: the same components in the same order, with their values, or with
 * every field back at its default (`keepValues: false`) so the layout holds only the arrangement.
 * The email's subject and preheader stay with the email.
 */
export function layoutContentFrom(
  document: EditorDocument,
  { keepValues }: { keepValues: boolean },
): LayoutContent {
  const { container_component_instance, component_instances } = document.content;
  if (keepValues) return { container_component_instance, component_instances };
  const withDefaults = <Instance extends { field_values: unknown }>(instance: Instance): Instance => ({
    ...instance,
    field_values: {},
  });
  return {
    container_component_instance: withDefaults(container_component_instance),
    component_instances: component_instances.map(withDefaults),
  };
}

/** A layout's content as an email (blank subject and preheader when it has none), for rendering and editing. */
export function layoutAsEmailContent(layout: Pick<Layout, 'content'>): EmailContent {
  const { subject, preheader, ...body } = layout.content as LayoutContent;
  return {
    subject: subject ?? { branch_content: {} },
    preheader: preheader ?? { branch_content: {} },
    ...body,
  };
}

/** A layout made before it had locales is edited in en-US, the locale new emails start in. */
const fallbackLocales = ['en-US'];

/**
 * A layout as the editor edits it. Layouts have no default locale of their own: the first of their
 * locales is it, and saving keeps the default first (see `layoutChanges`).
 */
export function layoutDocument(layout: Pick<Layout, 'content' | 'locales'>): EditorDocument {
  const locales = layout.locales.length > 0 ? layout.locales : fallbackLocales;
  return { content: layoutAsEmailContent(layout), locales, defaultLocale: locales[0] ?? 'en-US' };
}

/** The layout fields a document's edit changes, as the PATCH takes them. */
export function layoutChanges(document: EditorDocument): { content: LayoutContent; locales: string[] } {
  const { subject, preheader } = document.content;
  // A layout that never had a subject or preheader is saved without one, as it was.
  const written = (text: EditorDocument['content']['subject']) =>
    Object.keys(text.branch_content).length > 0 || text.conditional_id != null;
  return {
    content: {
      ...(written(subject) ? { subject } : {}),
      ...(written(preheader) ? { preheader } : {}),
      ...layoutContentFrom(document, { keepValues: true }),
    },
    locales: [document.defaultLocale, ...document.locales.filter((code) => code !== document.defaultLocale)],
  };
}

/**
 * A layout checked as an email started from it would be, in this browser: every branch, in every
 * locale. A layout's subject and preheader are only a starting point (each email writes its own),
 * so their "is blank" is not its problem.
 */
export function validateLayoutDocument(
  document: EditorDocument,
  components: readonly ComponentDefinition[],
  conditionals: readonly { id: number; branches: readonly { key: string }[] }[],
): ContentValidationResult {
  const branchKeys = new Map(
    conditionals.map((conditional) => [conditional.id, conditional.branches.map((branch) => branch.key)]),
  );
  const { validation_errors } = validateEmailContent({
    content: document.content,
    components,
    locales: document.locales,
    branchKeysOf: (conditionalId) => branchKeys.get(conditionalId),
  });
  const { subject: _subject, preheader: _preheader, ...layoutErrors } = validation_errors;
  return { valid: Object.keys(layoutErrors).length === 0, validation_errors: layoutErrors };
}
