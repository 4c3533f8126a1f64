/**
 * Listens to what the preview frame shows, and returns the function that stops listening:
 * - `rendered` runs after every re-render of its document (the editor rewrites the body on every
 *   change), from a MutationObserver, so in the same task as the render and before the browser
 *   paints: something placed over an element in answer never shows at a stale place;
 * - `moved` runs at most once a frame, before the paint, after anything that may have moved what it
 *   shows: a re-render, a scroll, a resize, an image that loaded (a re-render reloads every image
 *   of the email, so these come by the dozen).
 */
export function onPreviewChanges(
  frame: HTMLIFrameElement,
  { rendered, moved }: { rendered?: () => void; moved?: () => void },
): () => void {
  const document = frame.contentDocument;
  const view = frame.contentWindow;
  if (!document || !view) return () => {};
  let scheduled = 0;
  const schedule = () => {
    if (!moved || scheduled) return;
    scheduled = requestAnimationFrame(() => {
      scheduled = 0;
      moved();
    });
  };
  const mutations = new MutationObserver(() => {
    rendered?.();
    schedule();
  });
  // Children only: the attributes the editor sets on the shown elements (selection, editing) do not move anything.
  mutations.observe(document, { childList: true, subtree: true, characterData: true });
  view.addEventListener('scroll', schedule, { passive: true });
  view.addEventListener('resize', schedule);
  document.addEventListener('load', schedule, true);
  const sizes = new ResizeObserver(schedule);
  sizes.observe(frame);
  return () => {
    cancelAnimationFrame(scheduled);
    mutations.disconnect();
    view.removeEventListener('scroll', schedule);
    view.removeEventListener('resize', schedule);
    document.removeEventListener('load', schedule, true);
    sizes.disconnect();
  };
}
