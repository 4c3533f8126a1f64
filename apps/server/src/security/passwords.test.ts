import { describe, expect, it, vi } from 'vitest';
import { hashPassword as hashAtTheCostOfTests } from './passwords.ts';

describe('password hashing', () => {
  it('hashes with argon2id at the OWASP baseline (19 MiB, 2 passes) unless the tests lowered it', async () => {
    // The setup file lowered the cost on the module instance the other tests share; a fresh
    // instance is the one a server process runs.
    vi.resetModules();
    const production = await import('./passwords.ts');
    const hashed = await production.hashPassword('a long enough password');
    expect(hashed).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await production.verifyPassword(hashed, 'a long enough password')).toBe(true);
    expect(await production.verifyPassword(hashed, 'another password')).toBe(false);
  });

  it('verifies a hash made at either cost', async () => {
    vi.resetModules();
    const production = await import('./passwords.ts');
    const cheap = await hashAtTheCostOfTests('a long enough password');
    expect(cheap).toMatch(/m=1024,t=1/);
    expect(await production.verifyPassword(cheap, 'a long enough password')).toBe(true);
    expect(await production.verifyPassword(null, 'a long enough password')).toBe(false);
  });
});
