import type { Permission } from './session.ts';

/** A destination in the side navigation, shown only to users whose role grants one of `anyOf`. */
export interface NavigationItem {
  label: string;
  /** The route path; `$workspaceId` is filled with the current workspace. */
  to: string;
  /** Empty: everyone signed in may open it. */
  anyOf: readonly Permission[];
}

export interface NavigationSection {
  label: string;
  items: readonly NavigationItem[];
}

/**
 * The product's areas. Each feature adds its screen here; the shell hides what the user's role
 * cannot use rather than showing a page that would answer 403.
 */
export const navigation: readonly NavigationSection[] = [
  {
    label: 'Workspace',
    items: [
      // Every member may look at design systems; changing them takes the update permission.
      { label: 'Design systems', to: '/workspaces/$workspaceId/design-systems', anyOf: [] },
      // Conditionals, tags, profiles, link tracking and feeds are read by every email editor.
      { label: 'Dynamic content', to: '/workspaces/$workspaceId/dynamic-content', anyOf: [] },
    ],
  },
  {
    label: 'Settings',
    items: [],
  },
];

export function visibleNavigation(
  permissions: readonly Permission[],
  sections: readonly NavigationSection[] = navigation,
): NavigationSection[] {
  const granted = new Set(permissions);
  return sections
    .map((section) => ({
      ...section,
      items: section.items.filter(
        (item) => item.anyOf.length === 0 || item.anyOf.some((permission) => granted.has(permission)),
      ),
    }))
    .filter((section) => section.items.length > 0);
}
