import { hash, type Options, verify } from '@node-rs/argon2';

export const minimumPasswordLength = 10;

/** argon2id with the library's defaults (19 MiB, 2 passes): the OWASP baseline. */
let hashOptions: Options = {};

/**
 * For the test runs only (the server's vitest setup file calls it): a hash at the baseline costs
 * ~50 ms of a core and 19 MiB, and the tests sign in over a thousand times. Hashes record their
 * own parameters, so they verify the same either way.
 */
export function lowerPasswordHashCostForTests(): void {
  hashOptions = { memoryCost: 1024, timeCost: 1 };
}

export function hashPassword(password: string): Promise<string> {
  return hash(password, hashOptions);
}

export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  if (!passwordHash) {
    // Spend the same time as a real check, so response times do not tell which emails exist.
    await hash(password, hashOptions);
    return false;
  }
  return verify(passwordHash, password).catch(() => false);
}
