import { Badge } from '@mantine/core';
import type { Team } from './projects-api.ts';

/** API badge colours that are not Mantine palette names, as colours Mantine accepts. */
const badgeColors: Record<Team['badge_color'], string> = {
  white: 'gray.1',
  black: 'dark',
  gray: 'gray',
  red: 'red',
  green: 'green',
  blue: 'blue',
  yellow: 'yellow',
  purple: 'grape',
  pink: 'pink',
  orange: 'orange',
  brown: '#8d5b3a',
  cyan: 'cyan',
  lime: 'lime',
  teal: 'teal',
  indigo: 'indigo',
};

/** A team's name in the team's own badge colour. */
export function TeamBadge({ team }: { team: Pick<Team, 'name' | 'badge_color'> }) {
  const light = team.badge_color === 'white';
  return (
    <Badge color={badgeColors[team.badge_color]} c={light ? 'dark' : undefined} variant="filled" radius="sm">
      {team.name}
    </Badge>
  );
}
