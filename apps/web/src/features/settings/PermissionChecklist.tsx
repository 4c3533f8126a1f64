import { type PermissionKey, permissionGroups } from '@letterset/core/permissions';
import { Checkbox, Fieldset, SimpleGrid, Stack } from '@mantine/core';

// Keys whose words do not read well when the underscores become spaces.
const labelOverrides: Partial<Record<PermissionKey, string>> = {
  add_remove_reorder_email_components: 'Add, remove and reorder email components',
  add_remove_conditional_from_components: 'Add and remove conditionals on components',
  add_remove_locales_from_emails: 'Add and remove locales of emails',
  email_commenting: 'Comment on emails',
  create_exports: 'Export emails',
  access_all_projects: 'See all projects',
  access_all_workspaces: 'Enter all workspaces',
  access_all_teams: 'See all teams',
  manage_workspace_access: 'Manage who is in a workspace',
  manage_organization_sso_settings: 'Manage single sign-on settings',
  view_audit_logs: 'View the audit log',
  manage_api_keys: 'Manage API keys',
  manage_mcp_servers: 'Manage MCP servers',
  create_ai_agents: 'Create AI agents',
  update_ai_agents: 'Update AI agents',
  delete_ai_agents: 'Delete AI agents',
  create_ai_reviewers: 'Create AI reviewers',
  update_ai_reviewers: 'Update AI reviewers',
  delete_ai_reviewers: 'Delete AI reviewers',
  create_library_images: 'Upload images',
  update_library_images: 'Rename images',
  delete_library_images: 'Delete images',
};

export function permissionLabel(key: PermissionKey): string {
  const override = labelOverrides[key];
  if (override) return override;
  const words = key.replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * A role's permission keys as checkboxes grouped by area; each group's own box grants or takes
 * away the whole area at once.
 */
export function PermissionChecklist({
  value,
  onChange,
  readOnly = false,
  heldKeys,
}: {
  value: readonly PermissionKey[];
  onChange: (keys: PermissionKey[]) => void;
  readOnly?: boolean;
  /** The editor's own keys: nobody grants a key they do not hold, so the others are disabled. */
  heldKeys?: readonly string[];
}) {
  const granted = new Set(value);
  const held = heldKeys ? new Set(heldKeys) : null;
  const mayGrant = (key: PermissionKey) => held === null || held.has(key);
  const set = (keys: readonly PermissionKey[], grant: boolean) => {
    const next = new Set(granted);
    for (const key of keys.filter(mayGrant)) {
      if (grant) next.add(key);
      else next.delete(key);
    }
    // Kept in the checklist's order, so saving without changes sends the same list.
    onChange(permissionGroups.flatMap((group) => group.keys).filter((key) => next.has(key)));
  };

  return (
    <Stack gap="md">
      {permissionGroups.map((group) => {
        const count = group.keys.filter((key) => granted.has(key)).length;
        const grantable = group.keys.filter(mayGrant);
        return (
          <Fieldset
            key={group.label}
            legend={
              <Checkbox
                label={`${group.label} (${count} of ${group.keys.length})`}
                aria-label={`All of ${group.label}`}
                fw={600}
                checked={count === group.keys.length}
                indeterminate={count > 0 && count < group.keys.length}
                disabled={readOnly || grantable.length === 0}
                onChange={(event) => set(group.keys, event.currentTarget.checked)}
              />
            }
            variant="filled"
          >
            <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="xs">
              {group.keys.map((key) => (
                <Checkbox
                  key={key}
                  label={permissionLabel(key)}
                  description={mayGrant(key) ? key : `${key} · you do not hold this key`}
                  title={mayGrant(key) ? undefined : 'You can only grant keys you hold yourself'}
                  // Keys have no spaces; let them wrap anywhere rather than run into the next column.
                  styles={{ description: { overflowWrap: 'anywhere' } }}
                  checked={granted.has(key)}
                  disabled={readOnly || !mayGrant(key)}
                  onChange={(event) => set([key], event.currentTarget.checked)}
                />
              ))}
            </SimpleGrid>
          </Fieldset>
        );
      })}
    </Stack>
  );
}
