import type { CustomStyle, FieldDefinition } from '@letterset/core';
import type { FieldElementAddress, InPlaceKind } from './in-place-fields.ts';

/** The attribute on the preview element being edited: the preview's style hides it under its editor. */
export const editingAttribute = 'data-es-editing';

/** Why editing ended: a key (Escape, Enter: focus goes back to the element) or focus moving elsewhere. */
export type EndOfEditing = 'keyboard' | 'elsewhere';

export interface InPlaceEditorProps {
  frame: HTMLIFrameElement;
  address: FieldElementAddress;
  containerId: string;
  kind: InPlaceKind;
  definition: FieldDefinition;
  customStyles: readonly CustomStyle[];
  value: string;
  /** Where the click that opened the editor was, in the frame's viewport: the caret goes there. */
  caretPoint: { x: number; y: number } | null;
  onChange: (value: string) => void;
  onEnd: (why: EndOfEditing) => void;
}

/** What every in-place editor's surface starts from: no chrome of its own but a focus outline, filling the box over the element. */
export const surfaceReset = {
  boxSizing: 'border-box',
  margin: 0,
  border: 0,
  outline: '2px solid var(--mantine-color-blue-6)',
  outlineOffset: 2,
  width: '100%',
  height: '100%',
  display: 'block',
} as const;
