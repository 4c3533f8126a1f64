/**
 * Calls `changed` whenever what the preview frame shows may have moved: its document re-rendered
 * (the editor rewrites the body on every change), it scrolled or resized, or an image loaded.
 * Returns the function that stops listening.
 *
 * A re-render is reported from a MutationObserver, so in the same task as the render and before
 * the browser paints: something placed over an element in answer never shows at a stale place.
 */
export function onPreviewChanges(frame: HTMLIFrameElement, changed: () => void): () => void {
  const document = frame.contentDocument;
  const view = frame.contentWindow;
  if (!document || !view) return () => {};
  view.addEventListener('scroll', changed, { passive: true });
  view.addEventListener('resize', changed);
  document.addEventListener('load', changed, true);
  const mutations = new MutationObserver(changed);
  // Children only: the attributes the editor sets on the shown elements (selection, editing) do not move anything.
  mutations.observe(document, { childList: true, subtree: true, characterData: true });
  const sizes = new ResizeObserver(changed);
  sizes.observe(frame);
  return () => {
    view.removeEventListener('scroll', changed);
    view.removeEventListener('resize', changed);
    document.removeEventListener('load', changed, true);
    mutations.disconnect();
    sizes.disconnect();
  };
}
