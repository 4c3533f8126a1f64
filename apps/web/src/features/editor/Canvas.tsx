import type {
  BranchSelection,
  BrandProfileDefinition,
  ComponentDefinition,
  ConditionalDefinition,
  DesignSystemDefinition,
  Editor,
  LinkTrackingProfileDefinition,
  PersonalizationTagDefinition,
} from '@letterset/core';
import { Box, Paper } from '@mantine/core';
import { memo, type ReactNode, useEffect, useRef, useState } from 'react';
import { clickTarget, renderPreview, updatePreviewHtml } from './preview.ts';

export const previewWidths = { desktop: 660, mobile: 375 } as const;
export type PreviewWidth = keyof typeof previewWidths;

/**
 * The preview runs no script: the email's HTML is inserted by the editor, and this policy (which
 * stays in force once read, whatever later replaces the head) refuses scripts, inline event
 * handlers, plugins and form submissions, so nothing in a template can act in the app's origin.
 */
const previewPolicy =
  "<meta http-equiv=\"Content-Security-Policy\" content=\"script-src 'none'; object-src 'none'; form-action 'none'; base-uri 'none'\">";

/**
 * Outlines the selected instance inside the preview document, shows which of its fields open in
 * place, and hides the one being edited under its editor (its box keeps its place); the email's
 * own CSS is left alone.
 */
const selectionStyle = [
  '[data-es-selected]{outline:2px solid #228be6;outline-offset:-2px}[data-es-instance]{cursor:pointer}',
  '[data-es-in-place]{cursor:text}[data-es-in-place]:hover,[data-es-in-place]:focus{outline:1px dashed #228be6;outline-offset:2px}',
  '[data-es-editing]{visibility:hidden}',
].join('');

/**
 * The email as it will look, rendered by core in this browser and written into a frame whose
 * content security policy runs no script. It follows the editor synchronously, so typing shows at once; a click
 * selects the instance under the pointer and asks for the field marked with data-es-field-focus.
 */
export const Canvas = memo(function Canvas({
  editor,
  designSystem,
  components,
  brandProfile,
  locale,
  branchSelection,
  personalizationTags,
  linkTrackingProfile,
  conditionals,
  emailName,
  showTagNames = false,
  width,
  selectedId,
  onPick,
  overlay,
}: {
  editor: Editor;
  designSystem: DesignSystemDefinition;
  components: ComponentDefinition[];
  brandProfile: BrandProfileDefinition | null;
  locale: string;
  branchSelection: BranchSelection;
  personalizationTags: readonly PersonalizationTagDefinition[];
  linkTrackingProfile: LinkTrackingProfileDefinition | null;
  conditionals: readonly ConditionalDefinition[];
  emailName: string;
  /** Personalization tags show their names instead of their example values. */
  showTagNames?: boolean;
  width: PreviewWidth;
  selectedId: string | null;
  onPick: (instanceId: string | null, field: string | null) => void;
  /**
   * Drawn over the frame, the same size (editing in place, comment pins): given the frame, to
   * measure its document. A layer may listen to the frame's clicks in the capture phase and take
   * one with preventDefault: the canvas then leaves it alone.
   */
  overlay?: (frame: HTMLIFrameElement) => ReactNode;
}) {
  const frame = useRef<HTMLIFrameElement>(null);
  const [frameElement, setFrameElement] = useState<HTMLIFrameElement | null>(null);
  const onPickRef = useRef(onPick);
  onPickRef.current = onPick;
  const selectedRef = useRef(selectedId);
  selectedRef.current = selectedId;

  useEffect(() => {
    const document = frame.current?.contentDocument;
    if (!document) return;
    // The frame's first document is about:blank in quirks mode; emails are written for standards mode.
    if (document.compatMode !== 'CSS1Compat') {
      document.open();
      document.write(`<!doctype html><html><head>${previewPolicy}</head><body></body></html>`);
      document.close();
    }
    const parser = new DOMParser();
    const style = document.createElement('style');
    style.textContent = selectionStyle;
    const showSelection = () => {
      for (const element of document.querySelectorAll('[data-es-selected]'))
        element.removeAttribute('data-es-selected');
      if (!selectedRef.current) return;
      for (const element of document.querySelectorAll(
        `[data-es-instance="${CSS.escape(selectedRef.current)}"]`,
      )) {
        element.setAttribute('data-es-selected', '');
      }
    };
    let shownContent: unknown = null;
    // What the document shows: null at first, and after a change of what is rendered with (locale,
    // brand profile…), which this effect starts over for, so the whole body is written then.
    let shownHtml: string | null = null;
    const update = () => {
      const { content } = editor.getState().document;
      if (content === shownContent) return;
      shownContent = content;
      const html = renderPreview({
        designSystem,
        components,
        brandProfile,
        content,
        locale,
        branchSelection,
        personalizationTags,
        linkTrackingProfile,
        conditionals,
        emailName,
        showPersonalizationTagNames: showTagNames,
      });
      updatePreviewHtml(document, html, shownHtml, parser);
      shownHtml = html;
      if (style.parentNode !== document.head) document.head.append(style);
      showSelection();
    };
    update();
    const stop = editor.subscribe(update);
    const click = (event: MouseEvent) => {
      // A layer over the preview took the click first (a field opening in place there).
      if (event.defaultPrevented) return;
      // Links in the preview would navigate the frame away from the email.
      event.preventDefault();
      const target = clickTarget(event.target as Element | null);
      onPickRef.current(target.instanceId, target.field);
    };
    document.addEventListener('click', click);
    return () => {
      stop();
      document.removeEventListener('click', click);
    };
  }, [
    editor,
    designSystem,
    components,
    brandProfile,
    locale,
    branchSelection,
    personalizationTags,
    linkTrackingProfile,
    conditionals,
    emailName,
    showTagNames,
  ]);

  useEffect(() => {
    const document = frame.current?.contentDocument;
    if (!document) return;
    for (const element of document.querySelectorAll('[data-es-selected]'))
      element.removeAttribute('data-es-selected');
    if (!selectedId) return;
    const selected = document.querySelectorAll(`[data-es-instance="${CSS.escape(selectedId)}"]`);
    for (const element of selected) element.setAttribute('data-es-selected', '');
    selected[0]?.scrollIntoView({ block: 'nearest' });
  }, [selectedId]);

  return (
    <Box bg="gray.1" p="md" style={{ flex: 1, overflow: 'auto', display: 'flex', justifyContent: 'center' }}>
      <Paper shadow="xs" w={previewWidths[width]} maw="100%" pos="relative" style={{ flexShrink: 0 }}>
        <iframe
          ref={(element) => {
            frame.current = element;
            setFrameElement(element);
          }}
          title="Email preview"
          // Same origin so the editor can update the document in place at typing speed; `previewPolicy` keeps scripts out.
          style={{ border: 0, width: '100%', height: 'calc(100vh - 190px)', display: 'block' }}
        />
        {overlay && frameElement && overlay(frameElement)}
      </Paper>
    </Box>
  );
});
