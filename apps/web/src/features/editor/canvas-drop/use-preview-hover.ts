import { useEffect, useRef, useState } from 'react';
import { clickTarget } from '../preview.ts';

/** Marks the controls drawn over the preview that belong to the hovered instance (its drag handle). */
export const hoverKeeperAttribute = 'data-preview-hover-keeper';

/**
 * The body instance under the mouse in the preview frame, null over the container or away from the
 * frame. Moving onto a control marked with `hoverKeeperAttribute` (drawn over the frame, so in this
 * page's document) keeps the instance, so its handle stays while the mouse goes to it. While `frozen`
 * (a drag is on), the hovered instance stays what it was, so the handle being dragged stays mounted.
 */
export function usePreviewHover(frame: HTMLIFrameElement, frozen: boolean): string | null {
  const [hoveredId, setHoveredId] = useState<string | null>(null);
  const frozenRef = useRef(frozen);
  frozenRef.current = frozen;
  useEffect(() => {
    // The frame's document is the one Canvas wrote when it mounted, before this overlay was drawn.
    const previewDocument = frame.contentDocument;
    const page = frame.ownerDocument;
    if (!previewDocument) return;
    const overPreview = (event: MouseEvent) => {
      if (!frozenRef.current) setHoveredId(clickTarget(event.target as Element | null).instanceId);
    };
    const overPage = (event: MouseEvent) => {
      if (frozenRef.current) return;
      const target = event.target instanceof Element ? event.target : null;
      if (!target?.closest(`[${hoverKeeperAttribute}]`)) setHoveredId(null);
    };
    previewDocument.addEventListener('mousemove', overPreview);
    page.addEventListener('mousemove', overPage);
    return () => {
      previewDocument.removeEventListener('mousemove', overPreview);
      page.removeEventListener('mousemove', overPage);
    };
  }, [frame]);
  return hoveredId;
}
