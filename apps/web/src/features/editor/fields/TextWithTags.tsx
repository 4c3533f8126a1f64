import { Input } from '@mantine/core';
import { useId } from '@mantine/hooks';
import type { EditorView } from '@tiptap/pm/view';
import { EditorContent, Node, useEditor } from '@tiptap/react';
import { type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import type { PersonalizationTag } from '../editor-api.ts';
import { CaretTagPicker, TagPickerButton } from './merge-tags/TagPicker.tsx';
import { lineOfValue, valueOfLine } from './merge-tags/tag-document.ts';
import { useTagChips } from './merge-tags/use-tag-chips.ts';

/** One paragraph and nothing else: the field's value is one line of text and chips, no marks. */
const LineDocument = Node.create({ name: 'doc', topNode: true, content: 'paragraph' });
const LineParagraph = Node.create({
  name: 'paragraph',
  group: 'block',
  content: 'inline*',
  parseHTML: () => [{ tag: 'p' }],
  renderHTML: () => ['p', 0],
  addKeyboardShortcuts: () => ({ Enter: () => true, 'Shift-Enter': () => true, 'Mod-Enter': () => true }),
});
const LineText = Node.create({ name: 'text', group: 'inline' });

/**
 * A one-line text field whose personalization tags show as chips (typing `{` or the button picks
 * one); its value is the text with each tag's `{tag:<id>}` token, exactly as stored before chips.
 * Enter adds no line and pasted lines join with spaces. `url` values take no spaces around an
 * inserted tag (they are addresses). Undo belongs to the email editor, as in rich text.
 */
export function TextWithTags({
  id,
  label,
  description,
  error,
  disabled = false,
  value,
  onChange,
  onFocus,
  personalizationTags,
  url = false,
}: {
  id?: string;
  label: string;
  description?: ReactNode;
  error?: ReactNode;
  disabled?: boolean;
  value: string;
  onChange: (value: string) => void;
  onFocus?: () => void;
  personalizationTags: readonly PersonalizationTag[];
  url?: boolean;
}) {
  const inputId = useId(id);
  const { extension, keyHandler } = useTagChips(personalizationTags, !disabled);
  const callbacks = useRef({ onChange, onFocus });
  callbacks.current = { onChange, onFocus };

  const describedBy = [error ? `${inputId}-error` : null, description ? `${inputId}-description` : null]
    .filter(Boolean)
    .join(' ');
  const invalid = Boolean(error);
  // useEditor hands options that changed to the editor on each render, which redraws its
  // selection: they are kept the same objects until what they say changes.
  const editorProps = useMemo(
    () => ({
      attributes: {
        id: inputId,
        role: 'textbox',
        'aria-label': label,
        'aria-multiline': 'false',
        ...(describedBy ? { 'aria-describedby': describedBy } : {}),
        ...(invalid ? { 'aria-invalid': 'true' } : {}),
        ...(disabled ? { 'aria-readonly': 'true', 'aria-disabled': 'true' } : {}),
      },
      // Pasted text is one line, its tokens chips (the chip plugin turns them); marks are dropped.
      handlePaste(view: EditorView, event: ClipboardEvent) {
        const text = event.clipboardData?.getData('text/plain');
        if (text === undefined) return false;
        view.dispatch(view.state.tr.insertText(text.replace(/\s*[\r\n]+\s*/g, ' ')).scrollIntoView());
        return true;
      },
      handleDrop: () => true,
    }),
    [inputId, label, describedBy, invalid, disabled],
  );
  const [initialContent] = useState(() => lineOfValue(value));
  const extensions = useMemo(() => [LineDocument, LineParagraph, LineText, extension], [extension]);
  const editor = useEditor({
    // Made in the first render, so the field is focusable as soon as it shows (a validation
    // problem or a click in the preview focuses it right away).
    immediatelyRender: true,
    editable: !disabled,
    extensions,
    content: initialContent,
    editorProps,
    onUpdate: ({ editor: changed }) => callbacks.current.onChange(valueOfLine(changed.state.doc)),
    onFocus: () => callbacks.current.onFocus?.(),
  });

  useEffect(() => {
    if (editor && !editor.isDestroyed && editor.isEditable === disabled) editor.setEditable(!disabled, false);
  }, [editor, disabled]);

  useEffect(() => {
    if (editor && !editor.isDestroyed && valueOfLine(editor.state.doc) !== value) {
      editor.commands.setContent(lineOfValue(value), { emitUpdate: false });
    }
  }, [editor, value]);

  const offerTags = personalizationTags.length > 0 && !disabled;
  return (
    <Input.Wrapper
      id={inputId}
      label={label}
      description={description}
      error={error}
      labelProps={{ onClick: () => editor?.commands.focus() }}
    >
      <Input
        component="div"
        className="ls-tag-line"
        multiline
        error={Boolean(error)}
        disabled={disabled}
        rightSection={
          offerTags ? (
            <TagPickerButton
              editor={editor}
              tags={personalizationTags}
              spaced={!url}
              label={`Insert a personalization tag into ${label}`}
            />
          ) : null
        }
        rightSectionPointerEvents="all"
      >
        <EditorContent editor={editor} />
      </Input>
      <CaretTagPicker editor={editor} tags={personalizationTags} spaced={!url} keyHandler={keyHandler} />
    </Input.Wrapper>
  );
}
