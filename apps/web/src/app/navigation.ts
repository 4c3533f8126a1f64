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
      { label: 'Projects', to: '/workspaces/$workspaceId/projects', anyOf: [] },
      // Every member may look at design systems; changing them takes the update permission.
      { label: 'Design systems', to: '/workspaces/$workspaceId/design-systems', anyOf: [] },
      // Conditionals, tags, profiles, link tracking and feeds are read by every email editor.
      { label: 'Dynamic content', to: '/workspaces/$workspaceId/dynamic-content', anyOf: [] },
      {
        label: 'Images',
        to: '/workspaces/$workspaceId/images',
        anyOf: [],
      },
      // Every member may see the workspace's exports and download them; starting one takes create_exports.
      { label: 'Exports', to: '/workspaces/$workspaceId/exports', anyOf: [] },
    ],
  },
  {
    label: 'Settings',
    items: [
      { label: 'Users', to: '/settings/users', anyOf: ['create_users', 'update_users', 'delete_users'] },
      { label: 'Roles', to: '/settings/roles', anyOf: ['create_roles', 'update_roles', 'delete_roles'] },
      {
        label: 'Workspaces',
        to: '/settings/workspaces',
        anyOf: [
          'create_workspaces',
          'update_workspaces',
          'delete_workspaces',
          'manage_workspace_access',
          'access_all_workspaces',
        ],
      },
      {
        label: 'Teams',
        to: '/settings/teams',
        anyOf: ['create_teams', 'update_teams', 'delete_teams', 'access_all_teams'],
      },
      // Everyone lists and revokes their own keys; creating one takes manage_api_keys.
      { label: 'API keys', to: '/settings/api-keys', anyOf: [] },
      { label: 'MCP apps', to: '/settings/mcp-apps', anyOf: ['update_organization'] },
      {
        label: 'Connectors',
        to: '/workspaces/$workspaceId/connectors',
        anyOf: ['create_connectors', 'update_connectors', 'delete_connectors'],
      },
      // Every member connects their own account; adding servers and enabling tools take manage_mcp_servers.
      { label: 'MCP connectors', to: '/workspaces/$workspaceId/connectors/mcp', anyOf: [] },
      // Those who submit emails for approval see the groups they submit to; changing them takes the key.
      {
        label: 'Review groups',
        to: '/settings/review-groups',
        anyOf: ['manage_review_groups', 'submit_for_approval'],
      },
      {
        label: 'AI agents',
        to: '/workspaces/$workspaceId/ai-agents',
        anyOf: ['create_ai_agents', 'update_ai_agents', 'delete_ai_agents'],
      },
      {
        label: 'AI reviewers',
        to: '/workspaces/$workspaceId/ai-reviewers',
        anyOf: ['create_ai_reviewers', 'update_ai_reviewers', 'delete_ai_reviewers'],
      },
      // Everyone may read whether AI is set up; choosing the provider and reading usage take the key.
      { label: 'AI', to: '/settings/ai', anyOf: ['update_organization'] },
      { label: 'Audit log', to: '/settings/audit-log', anyOf: ['view_audit_logs'] },
    ],
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

/**
 * Screens that take the whole window: the side navigation folds away (the menu button brings it
 * back), so the editor's preview keeps its 600 px email width beside the palette and inspector.
 */
export function usesWholeWindow(pathname: string): boolean {
  return /^\/workspaces\/[^/]+\/(emails|layouts)\/[^/]+\/edit\/?$/.test(pathname);
}
