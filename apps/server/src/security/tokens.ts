import { createHash, randomBytes } from 'node:crypto';

/** 32 random bytes, URL-safe: session cookies, API keys, invitation links. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Tokens are stored only as this digest: a leaked database does not hand out working secrets. */
export function tokenDigest(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
