import { useEffect, useReducer } from 'react';

/**
 * Re-renders whenever the preview scrolls, resizes, re-renders or loads an image, so what is drawn
 * over the frame (comment pins, presence outlines, the drop line) follows the email.
 */
export function useFollowPreview(frame: HTMLIFrameElement): void {
  const [, refresh] = useReducer((count: number) => count + 1, 0);
  useEffect(() => {
    const document = frame.contentDocument;
    const view = frame.contentWindow;
    if (!document || !view) return;
    let scheduled = 0;
    const schedule = () => {
      if (scheduled) return;
      scheduled = requestAnimationFrame(() => {
        scheduled = 0;
        refresh();
      });
    };
    view.addEventListener('scroll', schedule, { passive: true });
    view.addEventListener('resize', schedule);
    document.addEventListener('load', schedule, true);
    const mutations = new MutationObserver(schedule);
    mutations.observe(document, { childList: true, subtree: true, attributes: true, characterData: true });
    const sizes = new ResizeObserver(schedule);
    sizes.observe(frame);
    return () => {
      cancelAnimationFrame(scheduled);
      view.removeEventListener('scroll', schedule);
      view.removeEventListener('resize', schedule);
      document.removeEventListener('load', schedule, true);
      mutations.disconnect();
      sizes.disconnect();
    };
  }, [frame]);
}
