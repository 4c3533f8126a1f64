import { type FocusEvent, type KeyboardEvent, type RefObject, useRef } from 'react';
import type { InPlaceEditorProps } from './in-place-surface.ts';
import { PlainTextSurface } from './PlainTextSurface.tsx';
import { RichTextSurface } from './RichTextSurface.tsx';
import { useFollowElement } from './use-follow-element.ts';

/**
 * A field's editor drawn over the element of the preview that shows it, looking like it (font,
 * size, colour, alignment, padding copied from the element) and following it as the preview
 * re-renders, scrolls and resizes. It lives outside the preview's document, so the re-render under
 * it on every keystroke never touches the caret.
 */
export function InPlaceEditor(props: InPlaceEditorProps) {
  const root = useRef<HTMLFieldSetElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const surface = useRef<HTMLElement>(null);
  const bar = useRef<HTMLDivElement>(null);
  useFollowElement(props, box, surface, bar);
  const onEnd = useRef(props.onEnd);
  onEnd.current = props.onEnd;

  const endOnKeys = (event: KeyboardEvent) => {
    if (event.key === 'Escape' || (event.key === 'Enter' && props.kind === 'plain_text')) {
      event.preventDefault();
      onEnd.current('keyboard');
    }
  };
  const endWhenFocusLeaves = (event: FocusEvent) => {
    if (!root.current?.contains(event.relatedTarget as Node | null)) onEnd.current('elsewhere');
  };

  return (
    <fieldset
      ref={root}
      aria-label={`Editing ${props.definition.label}`}
      onBlur={endWhenFocusLeaves}
      onKeyDown={endOnKeys}
      style={{ border: 0, margin: 0, padding: 0, minWidth: 0 }}
    >
      <div ref={box} style={{ position: 'absolute', pointerEvents: 'auto' }}>
        {props.kind === 'plain_text' ? (
          <PlainTextSurface {...props} surface={surface as RefObject<HTMLTextAreaElement | null>} />
        ) : (
          <RichTextSurface {...props} surface={surface as RefObject<HTMLDivElement | null>} bar={bar} />
        )}
      </div>
    </fieldset>
  );
}
