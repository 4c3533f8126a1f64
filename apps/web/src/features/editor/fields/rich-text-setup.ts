import type { CustomStyle, FieldDefinition } from '@letterset/core';
import Link from '@tiptap/extension-link';
import { type Extensions, Mark, mergeAttributes } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';

/**
 * A design system's custom style on a run of text, stored as the span the render expects
 * (`data-custom-style` names the style; the render adds its CSS).
 */
const CustomStyleMark = Mark.create({
  name: 'customStyle',
  addAttributes() {
    return {
      name: {
        default: null,
        parseHTML: (element) => element.getAttribute('data-custom-style'),
        renderHTML: (attributes) => ({
          'data-custom-style': attributes.name,
          class: `es-custom-style es-custom-style-${attributes.name}`,
        }),
      },
    };
  },
  parseHTML: () => [{ tag: 'span[data-custom-style]' }],
  renderHTML: ({ HTMLAttributes }) => ['span', mergeAttributes(HTMLAttributes), 0],
});

export type RichTextMark = keyof NonNullable<FieldDefinition['marks']>;

/** Whether a rich-text field offers a mark: a field without a marks setting offers every one, as the render accepts them all. */
export function allowsMark(definition: FieldDefinition, mark: RichTextMark): boolean {
  return definition.marks == null || definition.marks[mark]?.enabled === true;
}

/** The custom styles a rich-text field names, among the design system's (and brand profile's). */
export function fieldCustomStyles(
  definition: FieldDefinition,
  customStyles: readonly CustomStyle[],
): CustomStyle[] {
  return customStyles.filter((style) => definition.custom_styles_names?.includes(style.name));
}

/**
 * TipTap's extensions for a rich-text field: only the marks the field enables, and custom styles.
 * TipTap's own undo history is off: undo belongs to the email editor, so Ctrl+Z is one history
 * wherever the field is edited (the side panel or the preview).
 */
export function richTextExtensions(definition: FieldDefinition): Extensions {
  const allows = (mark: RichTextMark) => allowsMark(definition, mark);
  return [
    StarterKit.configure({
      link: false,
      undoRedo: false,
      heading: false,
      code: false,
      codeBlock: false,
      blockquote: false,
      strike: false,
      underline: false,
      horizontalRule: false,
      bold: allows('bold') ? {} : false,
      italic: allows('italic') ? {} : false,
      bulletList: allows('bullet_list') ? {} : false,
      orderedList: allows('numbered_list') ? {} : false,
      listItem: allows('bullet_list') || allows('numbered_list') ? {} : false,
    }),
    ...(allows('link') ? [Link.configure({ openOnClick: false })] : []),
    CustomStyleMark,
  ];
}
