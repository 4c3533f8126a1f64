import type { FieldDefinition } from '@letterset/core';

/** How a field is edited in the preview: as plain text (text fields, button labels) or as rich text. */
export type InPlaceKind = 'plain_text' | 'rich_text';

/** Which of an instance's field elements in the preview: the field, and its place among the instance's elements marking it. */
export interface FieldElementAddress {
  instanceId: string;
  variable: string;
  index: number;
}

const fieldAttribute = 'data-es-field-focus';
const instanceAttribute = 'data-es-instance';

/** The editor a field type gets in the preview, or null for the types edited only in the side panel. */
export function inPlaceKindOf(definition: FieldDefinition): InPlaceKind | null {
  if (definition.type === 'text') return 'plain_text';
  if (definition.type === 'rich_text') return 'rich_text';
  return null;
}

/** The instance an element of the preview belongs to: the nearest tagged instance, else the container. */
export function instanceOfElement(element: Element, containerId: string): string {
  return element.closest(`[${instanceAttribute}]`)?.getAttribute(instanceAttribute) ?? containerId;
}

/** Every element of the preview that marks the field of that instance, in document order. */
export function fieldElements(
  document: Document,
  instanceId: string,
  variable: string,
  containerId: string,
): HTMLElement[] {
  return [...document.querySelectorAll<HTMLElement>(`[${fieldAttribute}="${CSS.escape(variable)}"]`)].filter(
    (element) => instanceOfElement(element, containerId) === instanceId,
  );
}

/** The element an address points at in the preview as it is now (the preview re-renders every change). */
export function findFieldElement(
  document: Document,
  address: FieldElementAddress,
  containerId: string,
): HTMLElement | null {
  return fieldElements(document, address.instanceId, address.variable, containerId)[address.index] ?? null;
}

/** Where a field element sits: the address that finds it again after the next render. */
export function addressOf(element: HTMLElement, containerId: string): FieldElementAddress | null {
  const variable = element.getAttribute(fieldAttribute);
  if (!variable) return null;
  const instanceId = instanceOfElement(element, containerId);
  const index = fieldElements(element.ownerDocument, instanceId, variable, containerId).indexOf(element);
  return index < 0 ? null : { instanceId, variable, index };
}

function visibleText(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * Whether the element shows the field's value and nothing else, so that editing the element is
 * editing the value: its text is the value's text (a template that adds words around the value,
 * a personalization tag shown as its example, a filter that changes the case: no).
 */
export function showsExactly(element: Element, kind: InPlaceKind, value: string): boolean {
  const valueText =
    kind === 'plain_text'
      ? value
      : (new DOMParser().parseFromString(value, 'text/html').body.textContent ?? '');
  return visibleText(element.textContent ?? '') === visibleText(valueText);
}

/** The value a field shows: the stored one, else its default, as the side panel shows it. */
export function shownValue(definition: FieldDefinition, stored: unknown): string {
  const value = stored === undefined || stored === null ? definition.default_value : stored;
  return value === undefined || value === null ? '' : String(value);
}

/**
 * How the element can be edited in place, or null when it cannot: the field must be a text or
 * rich-text field, shown in the editor, and the element must show exactly its value.
 */
export function inPlaceEditing(
  element: Element,
  definition: FieldDefinition | undefined,
  stored: unknown,
): InPlaceKind | null {
  if (!definition || definition.hidden_in_editor) return null;
  const kind = inPlaceKindOf(definition);
  if (!kind) return null;
  return showsExactly(element, kind, shownValue(definition, stored)) ? kind : null;
}
