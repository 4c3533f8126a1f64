import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSecrets, loadSecretsKey, parseSecretsKey } from './secrets.ts';

describe('secrets', () => {
  const secrets = createSecrets(randomBytes(32));

  it('seals and opens, never writing the plaintext, a fresh IV every time', () => {
    const sealed = secrets.seal('sk_live_abcdef', 'connector-settings');
    expect(sealed).not.toContain('sk_live');
    expect(sealed).toMatch(/^v1\.[\w-]{8}\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(secrets.seal('sk_live_abcdef', 'connector-settings')).not.toBe(sealed);
    expect(secrets.open(sealed, 'connector-settings')).toBe('sk_live_abcdef');
  });

  it('refuses a changed value, another purpose and another key, saying which', () => {
    const sealed = secrets.seal('secret', 'connector-settings');
    const parts = sealed.split('.');
    parts[4] = Buffer.from('tampered').toString('base64url');
    expect(() => secrets.open(parts.join('.'), 'connector-settings')).toThrow('could not be decrypted');
    expect(() => secrets.open(sealed, 'ai-keys')).toThrow('could not be decrypted');
    expect(() => createSecrets(randomBytes(32)).open(sealed, 'connector-settings')).toThrow(
      'encrypted with another secrets key',
    );
    expect(() => secrets.open('plain text', 'connector-settings')).toThrow('not in a format');
  });

  it('reads SECRETS_KEY as 64 hex characters or base64 of 32 bytes', () => {
    const key = randomBytes(32);
    expect(parseSecretsKey(key.toString('hex'))).toEqual(key);
    expect(parseSecretsKey(key.toString('base64'))).toEqual(key);
    expect(parseSecretsKey(key.toString('base64url'))).toEqual(key);
    expect(parseSecretsKey('too short')).toBeNull();
    expect(parseSecretsKey(randomBytes(16).toString('hex'))).toBeNull();
  });

  it('generates a key file once, owner-only, and prefers a configured key', () => {
    const dataDir = path.join(mkdtempSync(path.join(tmpdir(), 'letterset-secrets-')), 'data');
    const first = loadSecretsKey({ configuredKey: undefined, dataDir });
    const file = path.join(dataDir, 'secrets.key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadSecretsKey({ configuredKey: undefined, dataDir })).toEqual(first);
    expect(readFileSync(file, 'utf8').trim()).toBe(first.toString('hex'));
    const configured = randomBytes(32);
    expect(loadSecretsKey({ configuredKey: configured, dataDir })).toEqual(configured);
    writeFileSync(file, 'garbage');
    expect(() => loadSecretsKey({ configuredKey: undefined, dataDir })).toThrow(
      'does not hold a 32-byte key',
    );
  });
});
