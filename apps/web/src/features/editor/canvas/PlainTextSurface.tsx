import { type RefObject, useLayoutEffect } from 'react';
import { findFieldElement } from './in-place-fields.ts';
import { type InPlaceEditorProps, surfaceReset } from './in-place-surface.ts';

/** The text offset of a point in the preview inside an element, when the point is in its text. */
function textOffsetAt(
  frame: HTMLIFrameElement,
  element: Element,
  point: { x: number; y: number },
): number | null {
  const document = frame.contentDocument;
  if (!document) return null;
  const position = document.caretPositionFromPoint?.(point.x, point.y);
  if (!position || !element.contains(position.offsetNode)) return null;
  let offset = 0;
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node === position.offsetNode) return offset + position.offset;
    offset += node.textContent?.length ?? 0;
  }
  return null;
}

/** A text field's one-line editor: a text area styled like the element, the caret where the click was. */
export function PlainTextSurface({
  frame,
  address,
  containerId,
  definition,
  value,
  caretPoint,
  onChange,
  surface,
}: InPlaceEditorProps & { surface: RefObject<HTMLTextAreaElement | null> }) {
  // Before the element is hidden under the editor (the parent's layout effect runs after this one):
  // the caret's place is read from the element's text.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the caret is placed once, where the click was.
  useLayoutEffect(() => {
    const input = surface.current;
    if (!input) return;
    const element = frame.contentDocument && findFieldElement(frame.contentDocument, address, containerId);
    const offset = element && caretPoint ? textOffsetAt(frame, element, caretPoint) : null;
    input.focus();
    input.setSelectionRange(offset ?? input.value.length, offset ?? input.value.length);
  }, []);
  return (
    <textarea
      ref={surface}
      aria-label={`${definition.label}, in the preview`}
      rows={1}
      spellCheck
      value={value}
      // A text field holds one line: a pasted line break becomes a space.
      onChange={(event) => onChange(event.currentTarget.value.replace(/\r?\n/g, ' '))}
      style={{ ...surfaceReset, resize: 'none', overflow: 'hidden', whiteSpace: 'pre-wrap' }}
    />
  );
}
