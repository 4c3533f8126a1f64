import { type EmailPresence, initialsOf, presenceColorOf } from '@letterset/core';
import { Avatar, Tooltip } from '@mantine/core';
import { usePresentOthers } from './presence-context.tsx';

/** One avatar per person (their tabs together), for the toolbar: who else has the email open. */
export function PresenceAvatars({ labelOf }: { labelOf: (instanceId: string) => string | null }) {
  const people = byPerson(usePresentOthers());
  if (people.length === 0) return null;
  return (
    <Avatar.Group spacing="xs" aria-label="Also editing this email" role="list">
      {people.map(({ userId, name, selected }) => {
        const selection = selected.map(labelOf).filter((label): label is string => label !== null);
        return (
          <Tooltip
            key={userId}
            label={selection.length > 0 ? `${name} · ${selection.join(', ')}` : `${name} · viewing`}
            withArrow
          >
            <Avatar
              role="listitem"
              aria-label={selection.length > 0 ? `${name}, on ${selection.join(', ')}` : name}
              size="sm"
              radius="xl"
              color={presenceColorOf(userId)}
              variant="filled"
            >
              {initialsOf(name)}
            </Avatar>
          </Tooltip>
        );
      })}
    </Avatar.Group>
  );
}

/** A small avatar per person who has this instance selected, beside it in the outline. */
export function PresenceMarkers({ instanceId }: { instanceId: string }) {
  const here = byPerson(
    usePresentOthers().filter((presence) => presence.selected_instance_id === instanceId),
  );
  if (here.length === 0) return null;
  return (
    <Avatar.Group spacing={6}>
      {here.map(({ userId, name }) => (
        <Tooltip key={userId} label={`${name} has this selected`} withArrow>
          <Avatar
            role="img"
            size={18}
            radius="xl"
            color={presenceColorOf(userId)}
            variant="filled"
            aria-label={`${name} has this selected`}
            styles={{ placeholder: { fontSize: 9 } }}
          >
            {initialsOf(name)}
          </Avatar>
        </Tooltip>
      ))}
    </Avatar.Group>
  );
}

interface PresentPerson {
  userId: number;
  name: string;
  selected: string[];
}

/** One entry per person, whatever their number of tabs, with what each tab has selected. */
export function byPerson(presences: readonly EmailPresence[]): PresentPerson[] {
  const people = new Map<number, PresentPerson>();
  for (const presence of presences) {
    const person = people.get(presence.user_id) ?? {
      userId: presence.user_id,
      name: presence.user_name,
      selected: [],
    };
    const selected = presence.selected_instance_id;
    if (selected !== null && !person.selected.includes(selected)) person.selected.push(selected);
    people.set(presence.user_id, person);
  }
  return [...people.values()];
}
