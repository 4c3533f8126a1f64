import { hash, verify } from '@node-rs/argon2';

export const minimumPasswordLength = 10;

/** argon2id with the library's defaults (19 MiB, 2 passes): the OWASP baseline. */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  if (!passwordHash) {
    // Spend the same time as a real check, so response times do not tell which emails exist.
    await hash(password);
    return false;
  }
  return verify(passwordHash, password).catch(() => false);
}
