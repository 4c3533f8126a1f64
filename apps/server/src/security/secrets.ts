import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Secrets users give Letterset (connector API keys and client secrets, OAuth refresh tokens; later
 * AI keys and MCP tokens) are stored encrypted with AES-256-GCM. The key comes from `SECRETS_KEY`,
 * or is generated once into the data folder, readable by its owner only.
 *
 * A sealed value reads `v1.<key id>.<iv>.<tag>.<ciphertext>` (base64url parts). The key id is the
 * start of the key's SHA-256, so a value sealed with another key is reported as such instead of
 * failing as "corrupt". The `purpose` is authenticated data: a value sealed for one purpose
 * cannot be opened as another's (a connector's secret pasted into another table does not decrypt).
 */
export interface Secrets {
  seal(plaintext: string, purpose: string): string;
  open(sealed: string, purpose: string): string;
}

/** A secret as answers show it: never more than its last 4 characters, and those only when long. */
export function maskSecret(value: string): string {
  return value.length >= 16 ? `••••${value.slice(-4)}` : '••••';
}

export class SecretsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretsError';
  }
}

const keyBytes = 32;
const ivBytes = 12;
/** In the data folder: generated on first start when `SECRETS_KEY` is unset. Never in backups. */
export const secretsKeyFileName = 'secrets.key';

/** `SECRETS_KEY`: 32 bytes as 64 hex characters or as base64; null when it is neither. */
export function parseSecretsKey(text: string): Buffer | null {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed)) {
    const decoded = Buffer.from(trimmed.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (decoded.length === keyBytes) return decoded;
  }
  return null;
}

export function createSecrets(key: Buffer): Secrets {
  if (key.length !== keyBytes) throw new SecretsError('The secrets key must be 32 bytes');
  const keyId = createHash('sha256').update(key).digest('base64url').slice(0, 8);
  return {
    seal(plaintext, purpose) {
      const iv = randomBytes(ivBytes);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(purpose, 'utf8'));
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return ['v1', keyId, iv, cipher.getAuthTag(), ciphertext]
        .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
        .join('.');
    },
    open(sealed, purpose) {
      const [version, sealedKeyId, iv, tag, ciphertext] = sealed.split('.');
      if (version !== 'v1' || iv === undefined || tag === undefined || ciphertext === undefined)
        throw new SecretsError('The stored secret is not in a format this server reads');
      if (sealedKeyId !== keyId)
        throw new SecretsError(
          'The stored secret was encrypted with another secrets key (SECRETS_KEY or DATA_DIR/secrets.key changed)',
        );
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
        decipher.setAAD(Buffer.from(purpose, 'utf8'));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([
          decipher.update(Buffer.from(ciphertext, 'base64url')),
          decipher.final(),
        ]).toString('utf8');
      } catch {
        throw new SecretsError(
          'The stored secret could not be decrypted: it was changed or sealed for another use',
        );
      }
    },
  };
}

/**
 * The key from the configuration, else the data folder's key file, created on first start with
 * owner-only permissions. Created exclusively, so two processes starting on one folder agree.
 */
export function loadSecretsKey(options: { configuredKey: Buffer | undefined; dataDir: string }): Buffer {
  if (options.configuredKey) return options.configuredKey;
  const file = path.join(options.dataDir, secretsKeyFileName);
  mkdirSync(options.dataDir, { recursive: true });
  try {
    writeFileSync(file, `${randomBytes(keyBytes).toString('hex')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  // The mode of an existing file is tightened too: the key is as secret as what it protects.
  chmodSync(file, 0o600);
  const key = parseSecretsKey(readFileSync(file, 'utf8'));
  if (!key) throw new SecretsError(`${file} does not hold a 32-byte key as 64 hex characters`);
  return key;
}
