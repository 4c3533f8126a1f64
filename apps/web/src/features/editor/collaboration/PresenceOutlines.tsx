import { initialsOf, presenceColorOf } from '@letterset/core';
import { Box, Text } from '@mantine/core';
import { useFollowPreview } from '../use-follow-preview.ts';
import { byPerson } from './PresenceAvatars.tsx';
import { usePresentOthers } from './presence-context.tsx';

/**
 * A coloured outline, labelled with the person's name, around each component someone else has
 * selected in the preview: a layer over the preview frame (the Canvas's `overlay`), following the
 * component as the preview scrolls and re-renders. It lets clicks through to the preview.
 */
export function PresenceOutlines({ frame }: { frame: HTMLIFrameElement }) {
  useFollowPreview(frame);
  const others = usePresentOthers();
  const document = frame.contentDocument;
  if (!document) return null;
  const byInstance = new Map<string, { userId: number; name: string }[]>();
  for (const presence of others) {
    const instanceId = presence.selected_instance_id;
    if (instanceId === null) continue;
    const people = byInstance.get(instanceId) ?? [];
    if (!people.some((person) => person.userId === presence.user_id))
      people.push({ userId: presence.user_id, name: presence.user_name });
    byInstance.set(instanceId, people);
  }
  const frameBox = frame.getBoundingClientRect();
  const width = frameBox.width;
  const height = frameBox.height;
  return (
    <Box pos="absolute" inset={0} style={{ pointerEvents: 'none', overflow: 'hidden' }} aria-hidden>
      {[...byInstance].map(([instanceId, people]) => {
        const box = boundsOf(document, instanceId);
        if (!box || box.bottom < 0 || box.top > height) return null;
        const color = `var(--mantine-color-${presenceColorOf(people[0]?.userId ?? 0)}-6)`;
        return (
          <Box
            key={instanceId}
            data-presence-instance={instanceId}
            pos="absolute"
            style={{
              top: box.top,
              left: Math.max(0, box.left),
              width: Math.min(width, box.right) - Math.max(0, box.left),
              height: box.bottom - box.top,
              outline: `2px solid ${color}`,
              outlineOffset: -2,
            }}
          >
            <Text
              size="xs"
              c="white"
              px={4}
              pos="absolute"
              right={0}
              style={{
                top: box.top < 18 ? 0 : -18,
                background: color,
                borderRadius: 3,
                whiteSpace: 'nowrap',
              }}
            >
              {byPerson(others)
                .filter((person) => people.some((here) => here.userId === person.userId))
                .map((person) => `${initialsOf(person.name)} ${person.name}`)
                .join(', ')}
            </Text>
          </Box>
        );
      })}
    </Box>
  );
}

/** The box around every element rendering an instance, in the frame's viewport. */
function boundsOf(document: Document, instanceId: string): DOMRect | null {
  const boxes = [...document.querySelectorAll(`[data-es-instance="${CSS.escape(instanceId)}"]`)]
    .map((element) => element.getBoundingClientRect())
    .filter((box) => box.width > 0 || box.height > 0);
  if (boxes.length === 0) return null;
  const top = Math.min(...boxes.map((box) => box.top));
  const left = Math.min(...boxes.map((box) => box.left));
  const right = Math.max(...boxes.map((box) => box.right));
  const bottom = Math.max(...boxes.map((box) => box.bottom));
  return new DOMRect(left, top, right - left, bottom - top);
}
