/**
 * Every permission key a role can grant, and what the built-in roles grant. The server checks
 * these keys on every route; the web app hides what a user cannot use.
 */

/** Keys that stand alone. */
export const singlePermissionKeys = [
  'update_emails',
  'add_remove_reorder_email_components',
  'add_remove_conditional_from_components',
  'add_remove_locales_from_emails',
  'create_emails',
  'delete_emails',
  'submit_for_approval',
  'publish_emails',
  'force_publish_emails',
  'convert_emails_to_draft',
  'access_all_projects',
  'email_commenting',
  'send_test_emails',
  'create_exports',
  'update_organization',
  'manage_billing',
  'manage_api_keys',
  'manage_organization_sso_settings',
  'view_audit_logs',
  'access_all_workspaces',
  'manage_workspace_access',
  'access_all_teams',
  'manage_mcp_servers',
  'manage_feeds',
  'manage_review_groups',
] as const;

/** Resources whose keys come as create_X, update_X and delete_X. */
export const permissionResources = [
  'library_images',
  'projects',
  'email_design_systems',
  'dynamic_content_profiles',
  'personalization_tags',
  'conditionals',
  'link_tracking_profiles',
  'connectors',
  'users',
  'ai_agents',
  'ai_reviewers',
  'roles',
  'brand_profiles',
  'layouts',
  'workspaces',
  'teams',
] as const;

export type PermissionResource = (typeof permissionResources)[number];
type SinglePermissionKey = (typeof singlePermissionKeys)[number];
type ResourcePermissionKey = `${'create' | 'update' | 'delete'}_${PermissionResource}`;
export type PermissionKey = SinglePermissionKey | ResourcePermissionKey;

function crud(resource: PermissionResource): ResourcePermissionKey[] {
  return [`create_${resource}`, `update_${resource}`, `delete_${resource}`];
}

/** All 73 keys: the 25 single keys, then each resource's create, update and delete. */
export const permissionKeys: readonly PermissionKey[] = [
  ...singlePermissionKeys,
  ...permissionResources.flatMap(crud),
];

const knownKeys: ReadonlySet<string> = new Set(permissionKeys);

export function isPermissionKey(value: string): value is PermissionKey {
  return knownKeys.has(value);
}

/** Groups for showing the keys as a checklist, in the order people think about them. */
export const permissionGroups: readonly { label: string; keys: readonly PermissionKey[] }[] = [
  {
    label: 'Emails',
    keys: [
      'create_emails',
      'update_emails',
      'delete_emails',
      'add_remove_reorder_email_components',
      'add_remove_conditional_from_components',
      'add_remove_locales_from_emails',
      'email_commenting',
      'send_test_emails',
      'create_exports',
    ],
  },
  {
    label: 'Review and publishing',
    keys: [
      'submit_for_approval',
      'publish_emails',
      'force_publish_emails',
      'convert_emails_to_draft',
      'manage_review_groups',
      ...crud('ai_reviewers'),
    ],
  },
  { label: 'Projects', keys: ['access_all_projects', ...crud('projects')] },
  { label: 'Image library', keys: crud('library_images') },
  {
    label: 'Email design systems',
    keys: [...crud('email_design_systems'), ...crud('brand_profiles'), ...crud('layouts')],
  },
  {
    label: 'Dynamic content',
    keys: [
      ...crud('dynamic_content_profiles'),
      ...crud('conditionals'),
      ...crud('personalization_tags'),
      ...crud('link_tracking_profiles'),
      'manage_feeds',
    ],
  },
  { label: 'Connectors', keys: crud('connectors') },
  { label: 'AI', keys: [...crud('ai_agents'), 'manage_mcp_servers'] },
  {
    label: 'Workspaces and teams',
    keys: [
      'access_all_workspaces',
      'manage_workspace_access',
      ...crud('workspaces'),
      'access_all_teams',
      ...crud('teams'),
    ],
  },
  {
    label: 'Organization',
    keys: [
      ...crud('users'),
      ...crud('roles'),
      'update_organization',
      'manage_billing',
      'manage_api_keys',
      'manage_organization_sso_settings',
      'view_audit_logs',
    ],
  },
];

export const builtInRoleNames = ['Viewer', 'Editor', 'Developer', 'Admin'] as const;
export type BuiltInRoleName = (typeof builtInRoleNames)[number];

/** Viewers read emails and take part in review through comments. */
const viewer: PermissionKey[] = ['email_commenting'];

/** Editors build emails: content, structure, locales, review, test sends, exports, images, projects. */
const editor: PermissionKey[] = [
  ...viewer,
  'create_emails',
  'update_emails',
  'delete_emails',
  'add_remove_reorder_email_components',
  'add_remove_conditional_from_components',
  'add_remove_locales_from_emails',
  'submit_for_approval',
  'publish_emails',
  'convert_emails_to_draft',
  'send_test_emails',
  'create_exports',
  ...crud('library_images'),
  ...crud('projects'),
];

/** Developers also build what emails are made from: design systems, dynamic content, connectors, AI, API keys. */
const developer: PermissionKey[] = [
  ...editor,
  ...crud('email_design_systems'),
  ...crud('brand_profiles'),
  ...crud('layouts'),
  ...crud('dynamic_content_profiles'),
  ...crud('conditionals'),
  ...crud('personalization_tags'),
  ...crud('link_tracking_profiles'),
  ...crud('connectors'),
  ...crud('ai_agents'),
  ...crud('ai_reviewers'),
  'manage_feeds',
  'manage_mcp_servers',
  'manage_api_keys',
];

/** What each built-in role grants. Admin has every key. */
export const builtInRoleGrants: Readonly<Record<BuiltInRoleName, readonly PermissionKey[]>> = {
  Viewer: viewer,
  Editor: editor,
  Developer: developer,
  Admin: permissionKeys,
};

/**
 * The keys among `givenKeys` that `granterKeys` does not hold, each once, in catalogue order.
 *
 * The one rule for every grant: a person may give a role, create a role, change a role's keys,
 * invite someone, or act on a person or role, only where this is empty — nobody hands out (or
 * takes away from someone above them) a key they do not hold themselves. Strings that are not
 * permission keys (a key since retired, still stored on an old role) grant nothing, so they are
 * never "beyond" anyone.
 */
export function keysBeyond(granterKeys: Iterable<string>, givenKeys: Iterable<string>): PermissionKey[] {
  const held = new Set(granterKeys);
  const given = new Set(givenKeys);
  return permissionKeys.filter((key) => given.has(key) && !held.has(key));
}

/** Whether a holder of `granterKeys` may give (or act on someone holding) every one of `givenKeys`. */
export function canGrant(granterKeys: Iterable<string>, givenKeys: Iterable<string>): boolean {
  return keysBeyond(granterKeys, givenKeys).length === 0;
}

/**
 * The keys that keep an organization administrable: whoever holds both can fix any role and any
 * person's role. Letterset never lets an organization lose its last holder of both.
 */
export const administrationKeys = [
  'update_roles',
  'update_users',
] as const satisfies readonly PermissionKey[];

/** Whether a role's keys include every administration key. */
export function administers(keys: Iterable<string>): boolean {
  const held = new Set(keys);
  return administrationKeys.every((key) => held.has(key));
}
