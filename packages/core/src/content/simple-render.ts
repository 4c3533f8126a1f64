import type { ComponentInstance, EmailContent, FieldValues } from './types.ts';
import { nullBranch } from './types.ts';

/** The render API's simple request: component ids and flat field values. */
export interface SimpleRenderContent {
  subject?: string;
  preheader?: string;
  container_component_instance: { component_id: number; field_values?: Record<string, unknown> };
  component_instances: { component_id: number; field_values?: Record<string, unknown> }[];
}

type SimpleValue = string | number | boolean | null;

function toFieldValues(flat: Record<string, unknown> | undefined, locale: string): FieldValues {
  const values: Record<string, { value: SimpleValue }> = {};
  for (const [variable, value] of Object.entries(flat ?? {})) {
    // Omitted values fall back to field defaults at render time, so only scalars are kept.
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) {
      values[variable] = { value: value as SimpleValue };
    }
  }
  return { [nullBranch]: { [locale]: values } };
}

/**
 * Instance ids are derived from positions (`simple-container`, `simple-0`, …) rather than random,
 * so the same request renders the same HTML.
 */
export function contentFromSimpleRender(simple: SimpleRenderContent, locale: string): EmailContent {
  const instance = (
    id: string,
    source: SimpleRenderContent['component_instances'][number],
  ): ComponentInstance => ({
    id,
    component_id: source.component_id,
    conditional_id: null,
    field_values: toFieldValues(source.field_values, locale),
  });
  return {
    subject: { conditional_id: null, branch_content: { [nullBranch]: { [locale]: simple.subject ?? '' } } },
    preheader: {
      conditional_id: null,
      branch_content: { [nullBranch]: { [locale]: simple.preheader ?? '' } },
    },
    container_component_instance: instance('simple-container', simple.container_component_instance),
    component_instances: simple.component_instances.map((source, index) =>
      instance(`simple-${index}`, source),
    ),
  };
}
