import { describe, expect, it } from 'vitest';
import type { Principal } from './access.ts';
import { changesAccess, PrincipalCache } from './principal-cache.ts';

const principal = (userId: number): Principal => ({
  userId,
  organizationId: 1,
  roleId: 1,
  permissions: new Set(),
  via: 'api_key',
  sessionTokenHash: null,
  apiKeyId: 1,
});

describe('PrincipalCache', () => {
  it('remembers a principal until its time is up', () => {
    let now = 1_000;
    const cache = new PrincipalCache({ ttlMs: 100, now: () => now });
    cache.remember('key:a', principal(7));
    now += 99;
    expect(cache.get('key:a')?.principal.userId).toBe(7);
    now += 1;
    expect(cache.get('key:a')).toBeUndefined();
  });

  it('forgets everything on clear, and the oldest entry when full', () => {
    const cache = new PrincipalCache({ maxEntries: 2 });
    cache.remember('a', principal(1));
    cache.remember('b', principal(2));
    cache.remember('c', principal(3));
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('c')?.principal.userId).toBe(3);
    cache.clear();
    expect(cache.get('b')).toBeUndefined();
  });
});

describe('changesAccess', () => {
  it('names identity routes and not content routes', () => {
    for (const url of [
      '/api/v1/roles/:id',
      '/api/v1/users/:id',
      '/api/v1/api_keys/:id',
      '/api/v1/session',
      '/api/v1/me',
      '/api/v1/workspaces',
      '/api/v1/workspaces/:id',
      '/api/v1/workspaces/:workspace_id/users/:user_id',
    ]) {
      expect(changesAccess(url), url).toBe(true);
    }
    for (const url of [
      '/api/v1/workspaces/:workspace_id/emails/:id',
      '/api/v1/teams/:id',
      '/api/v1/roleset',
    ]) {
      expect(changesAccess(url), url).toBe(false);
    }
  });
});
