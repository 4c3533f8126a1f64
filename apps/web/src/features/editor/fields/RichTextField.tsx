import type { CustomStyle, FieldDefinition } from '@letterset/core';
import { Input } from '@mantine/core';
import { RichTextEditor } from '@mantine/tiptap';
import { useEditor } from '@tiptap/react';
import { useEffect, useRef } from 'react';
import type { PersonalizationTag } from '../editor-api.ts';
import { CaretTagPicker, TagPickerButton } from './merge-tags/TagPicker.tsx';
import { chipLoadedTokens, htmlWithTokens } from './merge-tags/tag-document.ts';
import { useTagChips } from './merge-tags/use-tag-chips.ts';
import { allowsMark, fieldCustomStyles, type RichTextMark, richTextExtensions } from './rich-text-setup.ts';

/**
 * Rich text in TipTap, offering only the marks the field enables and the custom styles it names.
 * The editor's own undo history is off: undo belongs to the email editor, so Ctrl+Z is one history.
 */
export function RichTextField({
  definition,
  customStyles,
  label,
  description,
  error,
  value,
  onChange,
  disabled,
  personalizationTags,
}: {
  definition: FieldDefinition;
  customStyles: readonly CustomStyle[];
  label: string;
  description?: string;
  error?: string;
  value: string;
  onChange: (html: string) => void;
  disabled: boolean;
  personalizationTags: readonly PersonalizationTag[];
}) {
  const allows = (mark: RichTextMark) => allowsMark(definition, mark);
  const styles = fieldCustomStyles(definition, customStyles);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const { extension: tagChips, keyHandler } = useTagChips(personalizationTags, !disabled);
  const editor = useEditor({
    immediatelyRender: false,
    editable: !disabled,
    extensions: [...richTextExtensions(definition), tagChips],
    content: value,
    onCreate: ({ editor: created }) => chipLoadedTokens(created.view),
    editorProps: { attributes: { 'aria-label': label, role: 'textbox', 'aria-multiline': 'true' } },
    onUpdate: ({ editor: changed }) => onChangeRef.current(htmlWithTokens(changed.getHTML())),
  });

  useEffect(() => {
    if (editor && !editor.isDestroyed && htmlWithTokens(editor.getHTML()) !== value) {
      editor.commands.setContent(value, { emitUpdate: false });
    }
  }, [editor, value]);

  return (
    <Input.Wrapper label={label} description={description} error={error}>
      {/* One @tiptap/core, seen twice by the type checker through Mantine's declarations. */}
      <RichTextEditor editor={editor as Parameters<typeof RichTextEditor>[0]['editor']}>
        {!disabled && (
          <RichTextEditor.Toolbar>
            <RichTextEditor.ControlsGroup>
              {allows('bold') && <RichTextEditor.Bold />}
              {allows('italic') && <RichTextEditor.Italic />}
              {allows('bullet_list') && <RichTextEditor.BulletList />}
              {allows('numbered_list') && <RichTextEditor.OrderedList />}
            </RichTextEditor.ControlsGroup>
            {allows('link') && (
              <RichTextEditor.ControlsGroup>
                <RichTextEditor.Link />
                <RichTextEditor.Unlink />
              </RichTextEditor.ControlsGroup>
            )}
            {personalizationTags.length > 0 && (
              <RichTextEditor.ControlsGroup>
                <TagPickerButton
                  editor={editor}
                  tags={personalizationTags}
                  spaced
                  size="md"
                  label={`Insert a personalization tag into ${label}`}
                />
              </RichTextEditor.ControlsGroup>
            )}
            {styles.length > 0 && (
              <RichTextEditor.ControlsGroup>
                {styles.map((style) => (
                  <RichTextEditor.Control
                    key={style.name}
                    aria-label={`Style: ${style.label}`}
                    title={style.label}
                    active={editor?.isActive('customStyle', { name: style.name }) ?? false}
                    onClick={() =>
                      editor?.chain().focus().toggleMark('customStyle', { name: style.name }).run()
                    }
                    w="auto"
                    px={6}
                  >
                    {style.label}
                  </RichTextEditor.Control>
                ))}
              </RichTextEditor.ControlsGroup>
            )}
          </RichTextEditor.Toolbar>
        )}
        <RichTextEditor.Content />
      </RichTextEditor>
      <CaretTagPicker editor={editor} tags={personalizationTags} spaced keyHandler={keyHandler} />
    </Input.Wrapper>
  );
}
