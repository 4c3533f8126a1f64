import { randomUUID } from 'node:crypto';
import {
  type BranchedText,
  type ComponentInstance,
  type EmailContent,
  maxComponentInstances,
  nullBranch,
} from '@letterset/core';
import { instanceReferenceProblems } from '../email-content/email-content.service.ts';

type FieldErrors = Record<string, string[]>;

interface SystemComponent {
  id: number;
  name: string;
  container: boolean;
  deprecated: boolean;
  fieldDefinitions: { liquid_variable?: unknown }[];
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A new email's content: the container alone, its fields at their defaults, empty subject and preheader. */
export function initialContent(containerId: number, locales: readonly string[]): EmailContent {
  const emptyText = () => ({
    branch_content: { [nullBranch]: Object.fromEntries(locales.map((locale) => [locale, ''])) },
  });
  return {
    subject: emptyText(),
    preheader: emptyText(),
    container_component_instance: { id: randomUUID(), component_id: containerId, field_values: {} },
    component_instances: [],
  };
}

/**
 * A layout's body as the start of an email: fresh instance ids, so each email's are its own; the
 * layout's subject and preheader when it has them (locales it has no text for start blank).
 */
export function contentFromLayout(
  layout: Pick<EmailContent, 'container_component_instance' | 'component_instances'> &
    Partial<Pick<EmailContent, 'subject' | 'preheader'>>,
  locales: readonly string[],
): EmailContent {
  const copy = (instance: ComponentInstance): ComponentInstance => ({
    ...structuredClone(instance),
    id: randomUUID(),
  });
  const blank = Object.fromEntries(locales.map((locale) => [locale, '']));
  const startText = (fromLayout: BranchedText | undefined, empty: BranchedText): BranchedText =>
    fromLayout === undefined
      ? empty
      : {
          ...structuredClone(fromLayout),
          branch_content: Object.fromEntries(
            Object.entries({
              // Without a conditional the text is the null branch's, even when the layout wrote none.
              ...(fromLayout.conditional_id == null ? empty.branch_content : {}),
              ...fromLayout.branch_content,
            }).map(([branch, byLocale]) => [branch, { ...blank, ...byLocale }]),
          ),
        };
  const initial = initialContent(layout.container_component_instance.component_id, locales);
  return {
    ...initial,
    subject: startText(layout.subject, initial.subject),
    preheader: startText(layout.preheader, initial.preheader),
    container_component_instance: copy(layout.container_component_instance),
    component_instances: layout.component_instances.map(copy),
  };
}

/** Content without the values of locales the email no longer has (its versions keep them). */
export function withoutLocalesOutside(content: EmailContent, locales: readonly string[]): EmailContent {
  const keep = new Set(locales);
  const pruneLocales = <T>(byLocale: Record<string, T>) =>
    Object.fromEntries(Object.entries(byLocale).filter(([locale]) => keep.has(locale)));
  const pruneBranches = <T>(byBranch: Record<string, Record<string, T>>) =>
    Object.fromEntries(
      Object.entries(byBranch).map(([branch, byLocale]) => [branch, pruneLocales(byLocale)]),
    );
  const pruneInstance = (instance: ComponentInstance): ComponentInstance => ({
    ...instance,
    field_values: pruneBranches(instance.field_values),
    ...(instance.hidden_from_locales
      ? { hidden_from_locales: pruneLocales(instance.hidden_from_locales) }
      : {}),
  });
  return {
    ...content,
    subject: { ...content.subject, branch_content: pruneBranches(content.subject.branch_content) },
    preheader: { ...content.preheader, branch_content: pruneBranches(content.preheader.branch_content) },
    container_component_instance: pruneInstance(content.container_component_instance),
    component_instances: content.component_instances.map(pruneInstance),
  };
}

/**
 * What is wrong with content for an email, as field paths under `email_content`: instances name
 * components of the email's design system (deprecated ones only where they already were), ids are
 * unique UUIDs, values are keyed by the email's locales and by fields the component has, and content
 * without a conditional sits in `null_branch`.
 */
export function emailContentProblems(
  systemComponents: readonly SystemComponent[],
  content: EmailContent,
  locales: readonly string[],
  previous: EmailContent | null,
): FieldErrors {
  const root = 'email_content';
  const errors: FieldErrors = instanceReferenceProblems(systemComponents, content, root);
  const add = (path: string, message: string) => {
    errors[path] = [...(errors[path] ?? []), message];
  };
  // The schema caps what a request sends; this also holds for content built on the server (AI, chat).
  if (content.component_instances.length > maxComponentInstances)
    add(`${root}.component_instances`, `must have at most ${maxComponentInstances} instances`);
  const emailLocales = new Set(locales);
  const componentsById = new Map(systemComponents.map((component) => [component.id, component]));
  const previousIds = new Set(previous?.component_instances.map((instance) => instance.id) ?? []);
  const seenIds = new Set<string>();

  const checkBranches = (
    path: string,
    conditionalId: number | null | undefined,
    byBranch: Record<string, Record<string, unknown>>,
  ) => {
    for (const [branch, byLocale] of Object.entries(byBranch)) {
      if ((conditionalId === null || conditionalId === undefined) && branch !== nullBranch) {
        add(`${path}.${branch}`, `is a branch, but there is no conditional here: use ${nullBranch}`);
      }
      for (const locale of Object.keys(byLocale)) {
        if (!emailLocales.has(locale)) add(`${path}.${branch}.${locale}`, 'is not a locale of this email');
      }
    }
  };

  checkBranches(
    `${root}.subject.branch_content`,
    content.subject.conditional_id,
    content.subject.branch_content,
  );
  checkBranches(
    `${root}.preheader.branch_content`,
    content.preheader.conditional_id,
    content.preheader.branch_content,
  );

  const instances: [string, ComponentInstance][] = [
    [`${root}.container_component_instance`, content.container_component_instance],
    ...content.component_instances.map(
      (instance, index) => [`${root}.component_instances.${index}`, instance] as [string, ComponentInstance],
    ),
  ];
  for (const [path, instance] of instances) {
    if (!uuidPattern.test(instance.id)) add(`${path}.id`, 'must be a UUID');
    else if (seenIds.has(instance.id)) add(`${path}.id`, 'is used by another instance of this email');
    seenIds.add(instance.id);

    checkBranches(`${path}.field_values`, instance.conditional_id, instance.field_values);
    for (const locale of Object.keys(instance.hidden_from_locales ?? {})) {
      if (!emailLocales.has(locale))
        add(`${path}.hidden_from_locales.${locale}`, 'is not a locale of this email');
    }

    const component = componentsById.get(instance.component_id);
    if (!component) continue;
    if (component.deprecated && !component.container && !previousIds.has(instance.id)) {
      add(`${path}.component_id`, `is ${component.name}, which is deprecated and cannot be added to emails`);
    }
    const variables = new Set(component.fieldDefinitions.map((definition) => definition.liquid_variable));
    for (const [branch, byLocale] of Object.entries(instance.field_values)) {
      for (const [locale, values] of Object.entries(byLocale)) {
        for (const variable of Object.keys(values)) {
          if (!variables.has(variable)) {
            add(
              `${path}.field_values.${branch}.${locale}.${variable}`,
              `is not a field of ${component.name}`,
            );
          }
        }
      }
    }
  }
  return errors;
}
