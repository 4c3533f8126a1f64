import type { ComponentInstance } from '@letterset/core';
import { Box, Tooltip, UnstyledButton } from '@mantine/core';
import { type MouseEvent, useEffect } from 'react';
import { instanceLabel, useEditorSession, useEditorState } from '../editor/EditorContext.tsx';
import { clickTarget } from '../editor/preview.ts';
import { useFollowPreview } from '../editor/use-follow-preview.ts';
import { markerPosition, pinBranchKey, pinCoordinates, pinShowsInBranches, topOf } from './pin-math.ts';
import type { ReviewState } from './review-state.ts';
import type { CommentThread } from './threads.ts';

const markerSize = 24;

/** The top of an instance's rendering in the preview's viewport, or of the document for none. */
function anchorTop(document: Document, instanceId: string | null): number | null {
  if (instanceId === null) return document.documentElement.getBoundingClientRect().top;
  const boxes = [...document.querySelectorAll(`[data-es-instance="${CSS.escape(instanceId)}"]`)]
    .map((element) => element.getBoundingClientRect())
    .filter((box) => box.width > 0 || box.height > 0);
  return topOf(boxes);
}

/**
 * Numbered pin markers over the preview frame (an overlay the same size as the frame), placed from
 * their component's current box so they follow it as content moves; with the pin tool on, a click
 * anywhere on the preview places a new pin on the component under it.
 */
export function PinOverlay({
  frame,
  threads,
  pinNumbers,
  review,
}: {
  frame: HTMLIFrameElement;
  /** The threads whose pins to draw (those of the locale on screen). */
  threads: readonly CommentThread[];
  pinNumbers: ReadonlyMap<number, number>;
  review: ReviewState;
}) {
  const { editor, branchSelection, componentsById } = useEditorSession();
  const { document: emailDocument } = useEditorState(editor);
  useFollowPreview(frame);
  const instances: ComponentInstance[] = [
    emailDocument.content.container_component_instance,
    ...emailDocument.content.component_instances,
  ];
  const document = frame.contentDocument;
  const width = document?.documentElement.clientWidth ?? 0;

  const markers = document
    ? threads.flatMap((thread) => {
        const pin = thread.first.pin_data;
        const number = pinNumbers.get(thread.first.id);
        if (!pin || thread.first.pin_detached || number === undefined) return [];
        if (!pinShowsInBranches(pin, instances, branchSelection)) return [];
        const top = anchorTop(document, pin.component_instance_id);
        if (top === null) return [];
        return [{ thread, number, ...markerPosition(pin.coordinates, width, top) }];
      })
    : [];
  const pending =
    document && review.pendingPin
      ? (() => {
          const top = anchorTop(document, review.pendingPin.component_instance_id);
          return top === null ? null : markerPosition(review.pendingPin.coordinates, width, top);
        })()
      : null;

  // A thread selected in the panel brings its pin into view.
  const selected = markers.find((marker) => marker.thread.first.id === review.selectedThreadId);
  const selectedY = selected?.y;
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new selection scrolls, not every move.
  useEffect(() => {
    const view = frame.contentWindow;
    if (selectedY === undefined || !view) return;
    if (selectedY < 0 || selectedY > view.innerHeight)
      view.scrollBy({ top: selectedY - view.innerHeight / 3 });
  }, [review.selectedThreadId]);

  function place(event: MouseEvent<HTMLDivElement>) {
    if (!document) return;
    const box = event.currentTarget.getBoundingClientRect();
    const click = { x: event.clientX - box.left, y: event.clientY - box.top };
    const { instanceId } = clickTarget(document.elementFromPoint(click.x, click.y));
    // Outside every instance is the container's: such a pin is on the email itself.
    const instance = instances.find((candidate) => candidate.id === instanceId);
    const pinnedId = instance ? instance.id : null;
    review.setPendingPin({
      component_instance_id: pinnedId,
      branch_key: pinBranchKey(instance, branchSelection),
      coordinates: pinCoordinates(click, width, anchorTop(document, pinnedId) ?? 0),
      label: instance ? instanceLabel(instance, componentsById) : 'the email',
    });
    review.setPinMode(false);
    review.selectThread(null);
  }

  return (
    <Box
      data-testid="pin-overlay"
      pos="absolute"
      inset={0}
      style={{ overflow: 'hidden', pointerEvents: 'none', zIndex: 2 }}
    >
      {review.pinMode && (
        // biome-ignore lint/a11y/useKeyWithClickEvents: a pin is placed by pointing; Escape leaves the tool.
        // biome-ignore lint/a11y/noStaticElementInteractions: the layer is the preview's surface while pinning.
        <div
          title="Click the preview to place a pin"
          data-testid="pin-capture"
          style={{ position: 'absolute', inset: 0, cursor: 'crosshair', pointerEvents: 'auto' }}
          onClick={place}
          onWheel={(event) => frame.contentWindow?.scrollBy({ top: event.deltaY, left: event.deltaX })}
        />
      )}
      {markers.map((marker) => {
        const selectedMarker = marker.thread.first.id === review.selectedThreadId;
        return (
          <Tooltip key={marker.thread.first.id} label={marker.thread.first.body.slice(0, 80)} withinPortal>
            <UnstyledButton
              aria-label={`Pin ${marker.number}`}
              aria-pressed={selectedMarker}
              onClick={() => review.selectThread(marker.thread.first.id)}
              style={{
                position: 'absolute',
                left: marker.x - markerSize / 2,
                top: marker.y - markerSize / 2,
                width: markerSize,
                height: markerSize,
                borderRadius: '50% 50% 50% 0',
                background: marker.thread.first.resolved
                  ? 'var(--mantine-color-green-6)'
                  : selectedMarker
                    ? 'var(--mantine-color-orange-6)'
                    : 'var(--mantine-color-blue-6)',
                color: 'white',
                fontSize: 12,
                fontWeight: 700,
                display: 'flex',
                alignItems: 'center',
                justifyContent: 'center',
                boxShadow: selectedMarker ? '0 0 0 3px rgba(253,126,20,0.35)' : '0 1px 3px rgba(0,0,0,0.3)',
                pointerEvents: 'auto',
              }}
            >
              {marker.number}
            </UnstyledButton>
          </Tooltip>
        );
      })}
      {pending && (
        <Box
          aria-label="New pin"
          style={{
            position: 'absolute',
            left: pending.x - markerSize / 2,
            top: pending.y - markerSize / 2,
            width: markerSize,
            height: markerSize,
            borderRadius: '50% 50% 50% 0',
            background: 'var(--mantine-color-orange-6)',
            color: 'white',
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'center',
            fontWeight: 700,
          }}
        >
          +
        </Box>
      )}
    </Box>
  );
}
