import { isFieldVisible, validateFieldValue } from '../fields/index.ts';
import type { ComponentDefinition } from '../render/design-system.ts';
import { type BranchedText, type ComponentInstance, type EmailContent, nullBranch } from './types.ts';

/** Instance id (or `subject` / `preheader`) → `branch.locale.liquid_variable` (or `branch.locale`) → messages. */
export type ContentValidationErrors = Record<string, Record<string, string[]>>;

export interface ContentValidationResult {
  valid: boolean;
  validation_errors: ContentValidationErrors;
}

export interface ContentValidationInput {
  content: EmailContent;
  /** The design system's components, with the email's brand-profile overrides applied. */
  components: readonly ComponentDefinition[];
  locales: readonly string[];
  /** The branch keys of a conditional, when known; otherwise the branches present in the content. */
  branchKeysOf?: (conditionalId: number) => readonly string[] | undefined;
}

/**
 * Whether an email is ready to send, against its components' field validations: every branch the
 * reader may see, in every locale the instance is shown in. A value never entered is checked as its
 * default (so `must_not_be_default` flags fields nobody filled in); fields hidden by `visible_if` are
 * skipped. A blank subject is reported too: it is the first thing a reader sees.
 */
export function validateEmailContent(input: ContentValidationInput): ContentValidationResult {
  const errors: ContentValidationErrors = {};
  const report = (owner: string, key: string, messages: string[]) => {
    if (messages.length === 0) return;
    const ownerErrors = errors[owner] ?? {};
    ownerErrors[key] = [...(ownerErrors[key] ?? []), ...messages];
    errors[owner] = ownerErrors;
  };
  const componentsById = new Map(input.components.map((component) => [component.id, component]));
  const branchesOf = (conditionalId: number | null | undefined, present: Record<string, unknown>) => {
    if (conditionalId === null || conditionalId === undefined) return [nullBranch];
    return input.branchKeysOf?.(conditionalId) ?? Object.keys(present);
  };

  const subjectBranches = branchesOf(
    input.content.subject.conditional_id,
    input.content.subject.branch_content,
  );
  for (const branch of subjectBranches) {
    for (const locale of input.locales) {
      if (!subjectText(input.content.subject, branch, locale).trim())
        report('subject', `${branch}.${locale}`, ['is blank']);
    }
  }

  const instances = [input.content.container_component_instance, ...input.content.component_instances];
  for (const instance of instances) {
    const component = componentsById.get(instance.component_id);
    if (!component) {
      report(instance.id, 'component_id', ['is not a component of the email’s design system']);
      continue;
    }
    for (const branch of branchesOf(instance.conditional_id, instance.field_values)) {
      for (const locale of input.locales) {
        if (instance.hidden_from_locales?.[locale]) continue;
        for (const [variable, messages] of fieldProblems(component, instance, branch, locale)) {
          report(instance.id, `${branch}.${locale}.${variable}`, messages);
        }
      }
    }
  }
  return { valid: Object.keys(errors).length === 0, validation_errors: errors };
}

function subjectText(text: BranchedText, branch: string, locale: string): string {
  return text.branch_content[branch]?.[locale] ?? '';
}

function* fieldProblems(
  component: ComponentDefinition,
  instance: ComponentInstance,
  branch: string,
  locale: string,
): Generator<[string, string[]]> {
  const stored = instance.field_values[branch]?.[locale] ?? {};
  const effective: Record<string, unknown> = {};
  for (const definition of component.field_definitions) {
    const value = stored[definition.liquid_variable]?.value;
    effective[definition.liquid_variable] =
      value === undefined || value === null ? definition.default_value : value;
  }
  for (const definition of component.field_definitions) {
    if (!isFieldVisible(definition, effective)) continue;
    const messages = validateFieldValue(definition, effective[definition.liquid_variable]);
    if (messages.length > 0) yield [definition.liquid_variable, messages];
  }
}
