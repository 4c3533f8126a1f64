import { type RefObject, useLayoutEffect } from 'react';
import { findFieldElement } from './in-place-fields.ts';
import { editingAttribute, type InPlaceEditorProps } from './in-place-surface.ts';
import { formattingBarPosition, matchingTextStyle } from './overlay-geometry.ts';
import { onPreviewChanges } from './preview-changes.ts';

/**
 * Places the editor's box over the element after every change of the preview, copying the
 * element's text styles; the element itself is hidden meanwhile (its box keeps its place).
 */
export function useFollowElement(
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
    /** Hides the element under the editor; the element it finds, if any. */
    const hide = () => {
      const element = findFieldElement(document, { instanceId, variable, index }, containerId);
      for (const other of document.querySelectorAll(`[${editingAttribute}]`)) {
        if (other !== element) other.removeAttribute(editingAttribute);
      }
      if (element && !element.hasAttribute(editingAttribute)) element.setAttribute(editingAttribute, '');
      return element;
    };
    const place = () => {
      const element = hide();
      // An element a template leaves out when its field is empty is gone while the field is: the editor stays where it was.
      if (!element || !box.current) return;
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
    // A re-render's new element is hidden at once; measuring waits for the frame's layout (`moved`
    // comes once a frame, before the paint, after a re-render too): measuring here would lay the
    // email out in the middle of a keystroke's work, and again once the editor's own changes are in.
    const stop = onPreviewChanges(frame, { rendered: hide, moved: place });
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
