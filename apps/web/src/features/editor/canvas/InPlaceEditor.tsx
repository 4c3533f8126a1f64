import type { CustomStyle, FieldDefinition } from '@letterset/core';
import { ActionIcon, Group, Paper, UnstyledButton } from '@mantine/core';
import { IconBold, IconItalic, IconList, IconListNumbers } from '@tabler/icons-react';
import {
  EditorContent,
  type Editor as TipTapEditor,
  useEditor as useTipTap,
  useEditorState as useTipTapState,
} from '@tiptap/react';
import {
  type FocusEvent,
  type KeyboardEvent,
  type RefObject,
  useEffect,
  useLayoutEffect,
  useRef,
} from 'react';
import { allowsMark, fieldCustomStyles, richTextExtensions } from '../fields/rich-text-setup.ts';
import { type FieldElementAddress, findFieldElement, type InPlaceKind } from './in-place-fields.ts';
import { formattingBarPosition, matchingTextStyle } from './overlay-geometry.ts';
import { onPreviewChanges } from './preview-changes.ts';

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

const surfaceReset = {
  boxSizing: 'border-box',
  margin: 0,
  border: 0,
  outline: '2px solid var(--mantine-color-blue-6)',
  outlineOffset: 2,
  width: '100%',
  height: '100%',
  display: 'block',
} as const;

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

/**
 * Places the editor's box over the element after every change of the preview, copying the
 * element's text styles; the element itself is hidden meanwhile (its box keeps its place).
 */
function useFollowElement(
  { frame, address, containerId, kind }: InPlaceEditorProps,
  box: RefObject<HTMLDivElement | null>,
  surface: RefObject<HTMLElement | null>,
  bar: RefObject<HTMLDivElement | null>,
) {
  const { instanceId, variable, index } = address;
  useLayoutEffect(() => {
    const document = frame.contentDocument;
    const view = frame.contentWindow;
    if (!document || !view) return;
    const place = () => {
      const element = findFieldElement(document, { instanceId, variable, index }, containerId);
      for (const other of document.querySelectorAll(`[${editingAttribute}]`)) {
        if (other !== element) other.removeAttribute(editingAttribute);
      }
      // An element a template leaves out when its field is empty is gone while the field is: the editor stays where it was.
      if (!element || !box.current) return;
      if (!element.hasAttribute(editingAttribute)) element.setAttribute(editingAttribute, '');
      const rect = element.getBoundingClientRect();
      const computed = view.getComputedStyle(element);
      // An emptied element has no height: the editor keeps one line to type into.
      const oneLine =
        (Number.parseFloat(computed.lineHeight) || Number.parseFloat(computed.fontSize) * 1.2) +
        Number.parseFloat(computed.paddingTop) +
        Number.parseFloat(computed.paddingBottom);
      Object.assign(box.current.style, {
        top: `${rect.top}px`,
        left: `${rect.left}px`,
        width: `${Math.max(rect.width, 24)}px`,
        [kind === 'plain_text' ? 'height' : 'minHeight']: `${Math.max(rect.height, oneLine)}px`,
      });
      const target = surface.current;
      if (target) {
        for (const [property, value] of Object.entries(matchingTextStyle(computed)))
          target.style.setProperty(property, value);
        if (kind === 'rich_text') copyRichTextSpacing(element, view, target);
      }
      if (bar.current) {
        const position = formattingBarPosition(
          { top: rect.top, left: rect.left, width: rect.width, height: box.current.offsetHeight },
          { width: bar.current.offsetWidth, height: bar.current.offsetHeight },
          { width: frame.clientWidth, height: frame.clientHeight },
        );
        bar.current.style.top = `${position.top - rect.top}px`;
        bar.current.style.left = `${position.left - rect.left}px`;
      }
    };
    place();
    const stop = onPreviewChanges(frame, place);
    return () => {
      stop();
      for (const element of document.querySelectorAll(`[${editingAttribute}]`))
        element.removeAttribute(editingAttribute);
    };
  }, [frame, instanceId, variable, index, containerId, kind, box, surface, bar]);
}

/** Paragraph and list spacing and link colour come from the email's own CSS, which the editor's document does not have. */
function copyRichTextSpacing(element: Element, view: Window, target: HTMLElement) {
  const paragraph = element.querySelector('p');
  if (paragraph) {
    const style = view.getComputedStyle(paragraph);
    target.style.setProperty('--es-paragraph-margin', `${style.marginTop} 0 ${style.marginBottom}`);
  }
  const link = element.querySelector('a');
  if (link) target.style.setProperty('--es-link-color', view.getComputedStyle(link).color);
}

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

function PlainTextSurface({
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

const richTextCss = `
.es-in-place-rich .ProseMirror { outline: none; min-height: 100%; }
.es-in-place-rich .ProseMirror p { margin: var(--es-paragraph-margin, 0 0 1em); }
.es-in-place-rich .ProseMirror > :first-child { margin-top: 0; }
.es-in-place-rich .ProseMirror > :last-child { margin-bottom: 0; }
.es-in-place-rich .ProseMirror a { color: var(--es-link-color, inherit); }
`;

function RichTextSurface({
  frame,
  definition,
  customStyles,
  value,
  caretPoint,
  onChange,
  surface,
  bar,
}: InPlaceEditorProps & {
  surface: RefObject<HTMLDivElement | null>;
  bar: RefObject<HTMLDivElement | null>;
}) {
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const label = `${definition.label}, in the preview`;
  const tiptap = useTipTap({
    immediatelyRender: true,
    extensions: richTextExtensions(definition),
    content: value,
    editorProps: { attributes: { 'aria-label': label, role: 'textbox', 'aria-multiline': 'true' } },
    onUpdate: ({ editor: changed }) => onChangeRef.current(changed.getHTML()),
  });

  // Undo, redo and the side panel change the value: the editor shows it.
  useEffect(() => {
    if (!tiptap.isDestroyed && tiptap.getHTML() !== value)
      tiptap.commands.setContent(value, { emitUpdate: false });
  }, [tiptap, value]);

  // After the box is placed over the element (the parent's layout effect runs after this
  // component's), so the click's point lands on the same words in the editor.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the caret is placed once, where the click was.
  useEffect(() => {
    const frameBox = frame.getBoundingClientRect();
    const position =
      caretPoint &&
      tiptap.view.posAtCoords({ left: frameBox.left + caretPoint.x, top: frameBox.top + caretPoint.y });
    tiptap.commands.focus(position ? position.pos : 'end');
  }, []);

  return (
    <>
      <style>{richTextCss}</style>
      <div
        ref={surface}
        className="es-in-place-rich"
        style={{ ...surfaceReset, height: 'auto', minHeight: '100%' }}
      >
        <EditorContent editor={tiptap} />
      </div>
      <FormattingBar
        editor={tiptap}
        definition={definition}
        customStyles={customStyles}
        bar={bar}
        fieldLabel={definition.label}
      />
    </>
  );
}

/** Bold, italic, lists and custom styles, as the field allows them; links are set in the side panel. */
function FormattingBar({
  editor,
  definition,
  customStyles,
  bar,
  fieldLabel,
}: {
  editor: TipTapEditor;
  definition: FieldDefinition;
  customStyles: readonly CustomStyle[];
  bar: RefObject<HTMLDivElement | null>;
  fieldLabel: string;
}) {
  const styles = fieldCustomStyles(definition, customStyles);
  const active = useTipTapState({
    editor,
    selector: ({ editor: current }) => ({
      bold: current.isActive('bold'),
      italic: current.isActive('italic'),
      bulletList: current.isActive('bulletList'),
      orderedList: current.isActive('orderedList'),
      styles: styles.map((style) => current.isActive('customStyle', { name: style.name })),
    }),
  });
  const marks = [
    {
      mark: 'bold',
      label: 'Bold',
      icon: IconBold,
      on: active.bold,
      run: () => editor.chain().focus().toggleBold().run(),
    },
    {
      mark: 'italic',
      label: 'Italic',
      icon: IconItalic,
      on: active.italic,
      run: () => editor.chain().focus().toggleItalic().run(),
    },
    {
      mark: 'bullet_list',
      label: 'Bullet list',
      icon: IconList,
      on: active.bulletList,
      run: () => editor.chain().focus().toggleBulletList().run(),
    },
    {
      mark: 'numbered_list',
      label: 'Numbered list',
      icon: IconListNumbers,
      on: active.orderedList,
      run: () => editor.chain().focus().toggleOrderedList().run(),
    },
  ] as const;
  const shown = marks.filter((entry) => allowsMark(definition, entry.mark));
  if (shown.length === 0 && styles.length === 0) return null;
  return (
    <Paper
      ref={bar}
      shadow="sm"
      withBorder
      p={2}
      role="toolbar"
      aria-label={`Formatting of ${fieldLabel}`}
      style={{ position: 'absolute', whiteSpace: 'nowrap', zIndex: 1 }}
      // Clicking the bar keeps the caret (and the selection) in the text.
      onMouseDown={(event) => event.preventDefault()}
    >
      <Group gap={2} wrap="nowrap">
        {shown.map((entry) => (
          <ActionIcon
            key={entry.mark}
            size="sm"
            variant={entry.on ? 'filled' : 'subtle'}
            aria-label={entry.label}
            aria-pressed={entry.on}
            title={entry.label}
            onClick={entry.run}
          >
            <entry.icon size={14} />
          </ActionIcon>
        ))}
        {styles.map((style, index) => (
          <UnstyledButton
            key={style.name}
            aria-label={`Style: ${style.label}`}
            aria-pressed={active.styles[index] ?? false}
            fz="xs"
            px={6}
            fw={active.styles[index] ? 700 : 400}
            onClick={() => editor.chain().focus().toggleMark('customStyle', { name: style.name }).run()}
          >
            {style.label}
          </UnstyledButton>
        ))}
      </Group>
    </Paper>
  );
}
