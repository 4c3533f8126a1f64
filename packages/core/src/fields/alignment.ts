import type { DefinitionCheckContext, FieldTypeSpec } from './field-type.ts';
import { messages } from './messages.ts';
import type { FieldDefinition, FieldType } from './types.ts';

export const horizontalAlignments = ['left', 'center', 'right'] as const;
export const verticalAlignments = ['top', 'middle', 'bottom'] as const;

function allAlignments(type: FieldType): readonly string[] {
  return type === 'vertical_align' ? verticalAlignments : horizontalAlignments;
}

/** Where an alignment field's choices are written: `options` (import format) or `alignments`. */
function choicesKey(definition: FieldDefinition): 'options' | 'alignments' | null {
  if (definition.options !== undefined && definition.options !== null) return 'options';
  if (definition.alignments !== undefined && definition.alignments !== null) return 'alignments';
  return null;
}

/** The alignments a field offers; all of its axis when it lists none. */
export function alignmentChoices(definition: FieldDefinition): string[] {
  const key = choicesKey(definition);
  const listed: unknown = key === null ? null : definition[key];
  if (!Array.isArray(listed)) return [...allAlignments(definition.type)];
  return listed.filter((choice): choice is string => typeof choice === 'string');
}

function checkAlignmentDefinition(definition: FieldDefinition, context: DefinitionCheckContext): void {
  const allowed = allAlignments(definition.type);
  const key = choicesKey(definition);
  if (key !== null) {
    const listed: unknown = definition[key];
    if (!Array.isArray(listed)) context.add(key, messages.mustBeArray);
    else {
      if (listed.length === 0) context.add(key, 'must have at least 1 option');
      const seen = new Set<unknown>();
      listed.forEach((choice: unknown, index) => {
        if (typeof choice !== 'string' || !allowed.includes(choice)) {
          context.add(`${key}.${index}`, messages.oneOf(allowed));
        } else if (seen.has(choice)) context.add(`${key}.${index}`, messages.taken);
        seen.add(choice);
      });
    }
  }
  const choices = alignmentChoices(definition);
  if (typeof definition.default_value !== 'string' || !choices.includes(definition.default_value)) {
    context.add('default_value', messages.oneOf(choices));
  }
}

function validateAlignment(definition: FieldDefinition, value: unknown): string[] {
  if (value === null || value === undefined) return [];
  const choices = alignmentChoices(definition);
  return typeof value === 'string' && choices.includes(value) ? [] : [messages.oneOf(choices)];
}

export const horizontalAlignField: FieldTypeSpec = {
  type: 'horizontal_align',
  label: 'Horizontal alignment',
  initialDefaultValue: 'left',
  editor: { control: 'alignment_buttons', insertsHtml: false },
  validations: {},
  extraKeys: ['options', 'alignments'],
  checkDefinition: checkAlignmentDefinition,
  validateValue: validateAlignment,
};

export const verticalAlignField: FieldTypeSpec = {
  type: 'vertical_align',
  label: 'Vertical alignment',
  initialDefaultValue: 'top',
  editor: { control: 'alignment_buttons', insertsHtml: false },
  validations: {},
  extraKeys: ['options', 'alignments'],
  checkDefinition: checkAlignmentDefinition,
  validateValue: validateAlignment,
};
