import { type CustomStyle, fieldTypes } from '@letterset/core';
import type { ModelMessage } from 'ai';

/**
 * The words Letterset says to a model designing an email design system. Its answer is data: it is
 * checked like an imported design system (templates parsed, fields validated, each component
 * rendered with its defaults), and what fails goes back to it for repair.
 */

/** The placeholder pictures that ship with Letterset (see starter-images.ts), for image defaults. */
const placeholderPictures = [
  'hero.png (1200 × 600, a wide banner)',
  'image.png (1072 × 600)',
  'image-and-text.png (512 × 384, beside text)',
  'product.png (1068 × 712, a product photo)',
  'logo.png (240 × 60, a logo)',
];

const designSystemModel = `An email design system is a library of components that authors stack to build marketing emails in a drag-and-drop editor. It has exactly one container and a set of components.

Each component has:
- name: a unique, stable snake_case identifier (hero_banner); renaming it later breaks emails, so make it meaningful.
- label: the name authors see in the editor ("Hero banner").
- description: what the component is for and when to use it; AI agents choose components by this text.
- template: Liquid and HTML.
- field_definitions: the values an author may edit. Every field is a Liquid variable: a field with liquid_variable "headline" is printed in the template as {{ headline }}. Every variable a template prints must be one of its own fields, a global field, or render_context.

Field types (type → default_value):
- text → a string; printed HTML-escaped.
- rich_text → a string of simple HTML (<p>, <strong>, <em>, <a>, <ul>, <ol>, <li>); printed as HTML.
- url → an https:// link (or mailto:); use in href="{{ button_url }}".
- image → the picture's URL; use in <img src="{{ image_url }}">, and give the image a text field for its alt text.
- color → a hex colour such as #1a73e8; use in inline styles.
- number → a number.
- boolean → true or false; the usual show/hide toggle: {% if show_button %}…{% endif %}.
- enum → one of its options' values; options are [{label, value}].
- horizontal_align → left, center or right; vertical_align → top, middle or bottom (options: the allowed ones, label = value, or null for all).
- code → raw HTML an author pastes; printed as is (use sparingly).
Optional keys are null when unused: hint (help under the field), group (fields shown together, e.g. "Button"), options (only enum and the alignments), validations (max_length for text and rich_text, must_not_be_blank, min and max for numbers).

The container wraps every email. Its template is the whole HTML document: <!DOCTYPE html>, <html lang="{{ render_context.email.locale }}" dir="{{ render_context.email.text_direction }}">, a <head> with <meta charset="utf-8">, the viewport meta tag and <title>{{ render_context.email.content.subject }}</title>, a body with a hidden preheader (<div style="display: none; max-height: 0; overflow: hidden;">{{ render_context.email.content.preheader }}</div>), then a centred 600px-wide table. It must print {{children}} exactly once, inside that table, where the components go. Its fields are the email's global fields (e.g. a background colour or a logo), which components read as {{ global_fields.<liquid_variable> }}.

Each component is one or more table rows (<tr><td>…</td></tr>) that sit inside the container's 600px table.

Email-safe HTML only, for Outlook, Gmail and Apple Mail:
- Tables for layout (role="presentation", cellpadding="0", cellspacing="0", border="0"), never flexbox, grid, floats or positioning.
- Inline styles on every element (style="…"); a <style> block only in the container's head, for resets and media queries.
- Web-safe font stacks (Helvetica, Arial, sans-serif; Georgia, serif); sizes in px.
- Images with width, alt and style="display: block; max-width: 100%; height: auto;".
- Buttons as a table cell with a background colour around a link, padding on the cell.
- Text readable on its background: a contrast of at least 4.5:1 (3:1 for text of 24px, or 19px bold), so dark text on light backgrounds and white text on dark ones; every link with its own color.
- Link text that names where it leads, never only "here" or "click here".
- No JavaScript, forms, iframes, video, external stylesheets or web fonts.

Liquid: the standard tags (if, elsif, else, unless, case, for, assign, capture) and filters (default, escape, upcase, downcase, capitalize, date, size, plus, minus, times, append, prepend, replace, strip, truncate). No other filters, and no include or render tags. render_context also gives email.locale, email.text_direction and output_format ("html" or "plaintext").

Design tokens are values shared by every component (brand colours, fonts, sizes, spacing), given as a list of {path, value} and read as {{ render_context.design_tokens.<path> }}, e.g. path colors.primary is {{ render_context.design_tokens.colors.primary }}. Use tokens for what should stay consistent and authors should not change, fields for what authors edit. Define every token a template reads.`;

export function designSystemPrompt(input: {
  brief: string;
  name: string;
  description: string | null;
  agentDescription: string | null;
  customStyles: readonly CustomStyle[];
  designTokens: Record<string, unknown>;
  /** Where the placeholder pictures are served from; null when they are not available. */
  placeholderImagesUrl: string | null;
}): { system: string; messages: ModelMessage[] } {
  const existingTokens = Object.keys(input.designTokens).length > 0;
  const system = [
    'You design email design systems for Letterset from a brief.',
    designSystemModel,
    `Design a container and 6 to 12 components that fit the brief: typically a header, a hero, headings and text, a button, images, image and text side by side, a product or offer card, a divider or spacer, social links and a footer, adapted to what the brief asks for. Field types are: ${fieldTypes.join(', ')}.`,
    'Give every field a realistic default value that fits the brief, so each component looks finished before an author edits it. Links default to https://example.com pages.',
    input.placeholderImagesUrl
      ? `Image fields default to one of Letterset’s placeholder pictures at ${input.placeholderImagesUrl.replace(/\/+$/, '')}/<file>: ${placeholderPictures.join('; ')}.`
      : 'Image fields default to an https:// URL of a placeholder picture.',
    input.agentDescription?.trim()
      ? `Design for this company, in its voice and following its guidelines (labels, descriptions and default texts included):\n${input.agentDescription.trim()}`
      : 'Write labels, descriptions and default texts in a clear, friendly, professional voice.',
    existingTokens
      ? `The design system already has these design tokens; use them, and add only what is missing (existing values are kept):\n${JSON.stringify(input.designTokens, null, 2)}`
      : '',
    input.customStyles.length > 0
      ? `Rich-text fields may offer these custom styles of the design system: ${input.customStyles.map((style) => style.name).join(', ')}.`
      : '',
    'Answer with JSON only, in the shape of the schema.',
  ]
    .filter(Boolean)
    .join('\n\n');
  const about = [
    `Design system: ${input.name}`,
    input.description?.trim() ? `Description: ${input.description.trim()}` : '',
  ]
    .filter(Boolean)
    .join('\n');
  return { system, messages: [{ role: 'user', content: `${about}\n\nBrief:\n${input.brief}` }] };
}
