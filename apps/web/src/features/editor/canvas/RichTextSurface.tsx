import type { CustomStyle, FieldDefinition } from '@letterset/core';
import { ActionIcon, Group, Paper, UnstyledButton } from '@mantine/core';
import { IconBold, IconItalic, IconList, IconListNumbers } from '@tabler/icons-react';
import {
  EditorContent,
  type Editor as TipTapEditor,
  useEditor as useTipTap,
  useEditorState as useTipTapState,
} from '@tiptap/react';
import { type RefObject, useEffect, useRef } from 'react';
import { allowsMark, fieldCustomStyles, richTextExtensions } from '../fields/rich-text-setup.ts';
import { type InPlaceEditorProps, surfaceReset } from './in-place-surface.ts';

const richTextCss = `
.es-in-place-rich .ProseMirror { outline: none; min-height: 100%; }
.es-in-place-rich .ProseMirror p { margin: var(--es-paragraph-margin, 0 0 1em); }
.es-in-place-rich .ProseMirror > :first-child { margin-top: 0; }
.es-in-place-rich .ProseMirror > :last-child { margin-bottom: 0; }
.es-in-place-rich .ProseMirror a { color: var(--es-link-color, inherit); }
`;

/**
 * A rich-text field's editor: TipTap set up as in the side panel (the field's marks and custom
 * styles, no history of its own), with a small formatting bar.
 */
export function RichTextSurface({
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
