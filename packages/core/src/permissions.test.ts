import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  administers,
  administrationKeys,
  builtInRoleGrants,
  canGrant,
  isPermissionKey,
  keysBeyond,
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

describe('the grant rule', () => {
  const someKeys = fc.subarray([...permissionKeys]);

  it('names the keys given that the granter lacks, each once, in catalogue order', () => {
    expect(
      keysBeyond(['update_users', 'create_emails'], ['manage_api_keys', 'update_users', 'create_emails']),
    ).toEqual(['manage_api_keys']);
    expect(
      keysBeyond(['update_users'], ['update_roles', 'manage_billing', 'update_roles', 'create_emails']),
    ).toEqual(['create_emails', 'manage_billing', 'update_roles']);
    expect(keysBeyond([], [])).toEqual([]);
  });

  it('lets only a holder of every key give the Admin role', () => {
    const admin = builtInRoleGrants.Admin;
    expect(canGrant(admin, admin)).toBe(true);
    for (const role of ['Viewer', 'Editor', 'Developer'] as const) {
      expect(canGrant(builtInRoleGrants[role], admin), role).toBe(false);
    }
    expect(
      keysBeyond(
        permissionKeys.filter((key) => key !== 'view_audit_logs'),
        admin,
      ),
    ).toEqual(['view_audit_logs']);
  });

  it('ignores strings that are not permission keys: they grant nothing', () => {
    expect(keysBeyond(['update_users'], ['update_users', 'retired_key'])).toEqual([]);
  });

  it('allows exactly the subsets of what the granter holds', () => {
    fc.assert(
      fc.property(someKeys, someKeys, (held, given) => {
        const beyond = keysBeyond(held, given);
        expect(canGrant(held, given)).toBe(beyond.length === 0);
        expect(beyond.every((key) => given.includes(key) && !held.includes(key))).toBe(true);
        expect(given.filter((key) => !held.includes(key)).every((key) => beyond.includes(key))).toBe(true);
        // Giving what you hold, or any part of it, is always allowed.
        expect(canGrant(held, held.slice(0, given.length))).toBe(true);
      }),
    );
  });

  it('counts a role as administering only with both update_roles and update_users', () => {
    expect(administrationKeys).toEqual(['update_roles', 'update_users']);
    expect(administers(builtInRoleGrants.Admin)).toBe(true);
    expect(administers(['update_roles'])).toBe(false);
    expect(administers(['update_users', 'create_emails'])).toBe(false);
    expect(administers(['update_users', 'update_roles'])).toBe(true);
    for (const role of ['Viewer', 'Editor', 'Developer'] as const) {
      expect(administers(builtInRoleGrants[role]), role).toBe(false);
    }
  });
});
