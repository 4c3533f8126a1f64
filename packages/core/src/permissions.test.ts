import { describe, expect, it } from 'vitest';
import {
  builtInRoleGrants,
  isPermissionKey,
  type PermissionKey,
  permissionGroups,
  permissionKeys,
  permissionResources,
  singlePermissionKeys,
} from './permissions.ts';

describe('permission keys', () => {
  it('are the 25 single keys and the 16 create/update/delete triples: 73 in all, no duplicates', () => {
    expect(singlePermissionKeys).toHaveLength(25);
    expect(permissionResources).toHaveLength(16);
    expect(permissionKeys).toHaveLength(73);
    expect(new Set(permissionKeys).size).toBe(73);
    expect(permissionKeys).toContain('create_library_images');
    expect(permissionKeys).toContain('delete_teams');
  });

  it('recognises only known keys', () => {
    expect(isPermissionKey('manage_api_keys')).toBe(true);
    expect(isPermissionKey('update_workspaces')).toBe(true);
    expect(isPermissionKey('manage_everything')).toBe(false);
    expect(isPermissionKey('create_')).toBe(false);
  });

  it('put every key in exactly one checklist group', () => {
    const grouped = permissionGroups.flatMap((group) => group.keys);
    expect(grouped).toHaveLength(73);
    expect(new Set(grouped)).toEqual(new Set(permissionKeys));
  });
});

describe('built-in roles', () => {
  const grants = (role: keyof typeof builtInRoleGrants) => new Set<PermissionKey>(builtInRoleGrants[role]);

  it('grant only known keys, each once', () => {
    for (const keys of Object.values(builtInRoleGrants)) {
      expect(keys.every(isPermissionKey)).toBe(true);
      expect(new Set(keys).size).toBe(keys.length);
    }
  });

  it('give Admin every key', () => {
    expect(grants('Admin')).toEqual(new Set(permissionKeys));
  });

  it('nest: Viewer ⊂ Editor ⊂ Developer ⊂ Admin', () => {
    const order = ['Viewer', 'Editor', 'Developer', 'Admin'] as const;
    for (let index = 1; index < order.length; index++) {
      const lower = grants(order[index - 1] ?? 'Viewer');
      const higher = grants(order[index] ?? 'Admin');
      expect([...lower].every((key) => higher.has(key))).toBe(true);
      expect(higher.size).toBeGreaterThan(lower.size);
    }
  });

  it('follow the reference roles table', () => {
    const viewer = grants('Viewer');
    const editor = grants('Editor');
    const developer = grants('Developer');
    expect(viewer.has('update_emails')).toBe(false);
    expect([...editor]).toEqual(
      expect.arrayContaining([
        'create_emails',
        'update_emails',
        'delete_emails',
        'create_library_images',
        'create_projects',
        'send_test_emails',
      ]),
    );
    expect(editor.has('create_email_design_systems')).toBe(false);
    expect(editor.has('manage_api_keys')).toBe(false);
    expect([...developer]).toEqual(
      expect.arrayContaining([
        'create_email_design_systems',
        'create_conditionals',
        'create_connectors',
        'manage_api_keys',
        'manage_feeds',
        'manage_mcp_servers',
        'update_ai_agents',
      ]),
    );
    for (const adminOnly of [
      'access_all_projects',
      'update_organization',
      'manage_billing',
      'view_audit_logs',
      'create_users',
      'update_roles',
    ] as const) {
      expect(developer.has(adminOnly), adminOnly).toBe(false);
    }
  });
});
