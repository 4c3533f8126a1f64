import { inlineCssKeepingDocument } from './inline-css.ts';
import { toPlainText, toPlainTextOfDocument } from './plain-text.ts';
import { type EmailFinishing, type RenderInput, type RenderOutput, renderFinished } from './render.ts';

const emailFinishing: EmailFinishing = { inlineCssKeepingDocument, toPlainText, toPlainTextOfDocument };

/**
 * Renders an email: its components into their container, dynamic content resolved for the mode,
 * the CSS inlined when `inlineCss` asks, and the plain-text version computed on first read. What
 * only shows HTML (a preview) uses `renderHtml`, which loads none of the finishing.
 */
export function render(input: RenderInput): RenderOutput {
  return renderFinished(input, emailFinishing);
}
