import { useDndContext, useDraggable, useDroppable } from '@dnd-kit/core';
import { ActionIcon } from '@mantine/core';
import { IconGripVertical } from '@tabler/icons-react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { instanceLabel, useDocumentShape, useEditorSelector, useEditorSession } from '../EditorContext.tsx';
import { useFollowPreview } from '../use-follow-preview.ts';
import type { DragItem, GapDropData } from './drop-command.ts';
import { canvasDropId } from './EditorDragAndDrop.tsx';
import {
  edgeScrollStep,
  type InsertionPoint,
  insertionPointAt,
  instanceBoxes,
  moveDestination,
} from './insertion-point.ts';
import { hoverKeeperAttribute, usePreviewHover } from './use-preview-hover.ts';

const handleSize = 22;
const handleInset = 4;
const lineThickness = 3;

/**
 * Drawn over the preview frame (the Canvas's overlay) when the user may change the email's structure:
 * a drag handle at the left edge of the hovered and of the selected instance, and, while anything is
 * dragged, a transparent layer over the whole frame. The frame's document runs no script and swallows
 * the pointer, so the layer takes the pointer instead: it is the editor's drop target over the preview,
 * maps the pointer to the nearest gap between the email's instances, draws a line there, and tells
 * the editor's drag-and-drop context that gap when the item is dropped. The line is drawn over the
 * frame: nothing is inserted in the email until the drop.
 */
export function CanvasDropLayer({ frame }: { frame: HTMLIFrameElement }) {
  const { editor, readOnly } = useEditorSession();
  const { active } = useDndContext();
  // From a press on a handle over the frame: the frame would take the pointer's first moves before the
  // drag starts, so the layer covers it already.
  const [pressing, setPressing] = useState(false);
  const dragging = active !== null;
  const hoveredId = usePreviewHover(frame, dragging || pressing);
  useFollowPreview(frame);

  useEffect(() => {
    if (!pressing) return;
    const release = () => setPressing(false);
    window.addEventListener('pointerup', release);
    window.addEventListener('pointercancel', release);
    return () => {
      window.removeEventListener('pointerup', release);
      window.removeEventListener('pointercancel', release);
    };
  }, [pressing]);

  if (readOnly || !editor.can('insertComponent')) return null;
  return (
    <>
      <DropSurface
        frame={frame}
        covering={dragging || pressing}
        dragged={active?.data.current as DragItem | undefined}
      />
      <InstanceHandles
        frame={frame}
        hoveredId={hoveredId}
        raised={dragging || pressing}
        onPress={() => setPressing(true)}
      />
    </>
  );
}

function DropSurface({
  frame,
  covering,
  dragged,
}: {
  frame: HTMLIFrameElement;
  covering: boolean;
  dragged: DragItem | undefined;
}) {
  const { editor } = useEditorSession();
  const hasInstances = useEditorSelector(
    editor,
    (state) => state.document.content.component_instances.length > 0,
  );
  const [insertion, setInsertion] = useState<InsertionPoint | null>(null);
  const insertionRef = useRef<InsertionPoint | null>(null);
  const pointerY = useRef<number | null>(null);
  const data = useMemo<GapDropData>(() => ({ gapIndex: () => insertionRef.current?.index ?? null }), []);
  // An empty email has its own drop box over the preview.
  const { setNodeRef } = useDroppable({ id: canvasDropId, disabled: !hasInstances, data });

  const layer = useRef<HTMLDivElement | null>(null);
  const setLayer = useCallback(
    (element: HTMLDivElement | null) => {
      layer.current = element;
      setNodeRef(element);
    },
    [setNodeRef],
  );

  function follow(y: number | null) {
    pointerY.current = y;
    const previewDocument = frame.contentDocument;
    const instanceIds = editor.getState().document.content.component_instances.map((instance) => instance.id);
    const point =
      y === null || !previewDocument
        ? null
        : insertionPointAt(y, instanceBoxes(previewDocument, instanceIds));
    // Either side of the instance being moved is where it already is: no line, nothing to drop.
    const changes =
      point !== null &&
      (dragged?.kind !== 'instance' ||
        moveDestination(instanceIds.indexOf(dragged.instanceId), point.index) !== null);
    const next = changes ? point : null;
    insertionRef.current = next;
    setInsertion((shown) => (sameInsertion(shown, next) ? shown : next));
  }
  const followRef = useRef(follow);
  followRef.current = follow;

  // The page's pointer, not the layer's: the drag image under the pointer may be what it is over.
  useEffect(() => {
    if (!covering) {
      followRef.current(null);
      return;
    }
    const move = (event: globalThis.PointerEvent) => {
      const box = layer.current?.getBoundingClientRect();
      const inside =
        box &&
        event.clientX >= box.left &&
        event.clientX <= box.right &&
        event.clientY >= box.top &&
        event.clientY <= box.bottom;
      followRef.current(inside ? event.clientY - box.top : null);
    };
    // Held near the preview's top or bottom edge, the pointer scrolls the email, and the line follows.
    let frameRequest = requestAnimationFrame(function scrollAtEdge() {
      const height = layer.current?.clientHeight ?? 0;
      const step = pointerY.current === null ? 0 : edgeScrollStep(pointerY.current, height);
      if (step !== 0) {
        frame.contentWindow?.scrollBy({ top: step });
        followRef.current(pointerY.current);
      }
      frameRequest = requestAnimationFrame(scrollAtEdge);
    });
    window.addEventListener('pointermove', move);
    return () => {
      cancelAnimationFrame(frameRequest);
      window.removeEventListener('pointermove', move);
    };
  }, [covering, frame]);

  return (
    <div
      ref={setLayer}
      data-testid="canvas-drop-layer"
      style={{
        position: 'absolute',
        inset: 0,
        overflow: 'hidden',
        zIndex: 3,
        pointerEvents: covering ? 'auto' : 'none',
        cursor: covering ? 'grabbing' : undefined,
      }}
      // The layer covers the frame: the wheel still scrolls the email, and the line follows.
      onWheel={
        covering
          ? (event) => {
              frame.contentWindow?.scrollBy({ top: event.deltaY, left: event.deltaX });
              follow(pointerY.current);
            }
          : undefined
      }
    >
      {covering && insertion && (
        <div
          data-testid="canvas-drop-line"
          aria-hidden
          style={{
            position: 'absolute',
            top: insertion.y - lineThickness / 2,
            left: insertion.left,
            width: Math.max(insertion.right - insertion.left, 0),
            height: lineThickness,
            borderRadius: lineThickness,
            background: 'var(--mantine-color-blue-6)',
            boxShadow: '0 0 0 1px white',
          }}
        />
      )}
    </div>
  );
}

function sameInsertion(a: InsertionPoint | null, b: InsertionPoint | null): boolean {
  if (a === null || b === null) return a === b;
  return a.index === b.index && a.y === b.y && a.left === b.left && a.right === b.right;
}

/**
 * Handles for the hovered and the selected instance (one when they are the same). Under the comment
 * pins' layer, except once pressed: then above the drop layer that covers the frame, so a press
 * released without a drag is a click on the handle.
 */
function InstanceHandles({
  frame,
  hoveredId,
  raised,
  onPress,
}: {
  frame: HTMLIFrameElement;
  hoveredId: string | null;
  raised: boolean;
  onPress: () => void;
}) {
  const { editor, selectedId, componentsById } = useEditorSession();
  // Typing does not move the handles by itself: the preview's re-render under them does, and
  // `useFollowPreview` re-renders them once a frame after it, when the preview is laid out anyway.
  const instances = useDocumentShape(editor).content.component_instances;
  const previewDocument = frame.contentDocument;
  if (!previewDocument) return null;
  const shownIds = [...new Set([hoveredId, selectedId])];
  return shownIds.flatMap((instanceId) => {
    const instance = instances.find((candidate) => candidate.id === instanceId);
    if (!instance) return [];
    // Measured only for a handle to place: reading the frame's size lays the email out.
    const viewHeight = frame.contentWindow?.innerHeight ?? 0;
    const [box] = instanceBoxes(previewDocument, [instance.id]);
    // Off screen in the frame: no handle floating at its edge.
    if (!box || box.bottom <= 0 || box.top >= viewHeight) return [];
    const top = Math.min(Math.max(box.top, 0) + handleInset, viewHeight - handleSize - handleInset);
    return [
      <InstanceHandle
        key={instance.id}
        instanceId={instance.id}
        label={instanceLabel(instance, componentsById)}
        top={top}
        left={box.left + handleInset}
        zIndex={raised ? 4 : 1}
        onPress={onPress}
      />,
    ];
  });
}

function InstanceHandle({
  instanceId,
  label,
  top,
  left,
  zIndex,
  onPress,
}: {
  instanceId: string;
  label: string;
  top: number;
  left: number;
  zIndex: number;
  onPress: () => void;
}) {
  const { select } = useEditorSession();
  // Its own id: the outline's row of the same instance is a draggable too.
  const { listeners, setNodeRef, isDragging } = useDraggable({
    id: `preview:${instanceId}`,
    data: { kind: 'instance', instanceId, label } satisfies DragItem,
  });
  return (
    <ActionIcon
      ref={setNodeRef}
      {...{ [hoverKeeperAttribute]: '' }}
      size={handleSize}
      variant="filled"
      color="blue"
      aria-label={`Drag ${label} in the preview`}
      title={`Drag to move ${label}`}
      onPointerDown={(event) => {
        listeners?.onPointerDown?.(event);
        onPress();
      }}
      // A pointer's shortcut only: keyboard users move instances in the outline (Alt+Arrow, its drag handles).
      tabIndex={-1}
      onClick={() => select(instanceId)}
      style={{
        position: 'absolute',
        top,
        left,
        zIndex,
        cursor: 'grab',
        opacity: isDragging ? 0.5 : 1,
        pointerEvents: 'auto',
      }}
    >
      <IconGripVertical size={14} />
    </ActionIcon>
  );
}
