import { describe, expect, it } from 'vitest';
import { generateTotpSecret, totpCode, totpUri, verifyTotp } from './totp.ts';

// RFC 6238 appendix B: the ASCII secret "12345678901234567890", base32-encoded, SHA-1.
const rfcSecret = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

describe('TOTP', () => {
  it.each([
    [59_000, '287082'],
    [1_111_111_109_000, '081804'],
    [1_234_567_890_000, '005924'],
    [2_000_000_000_000, '279037'],
  ])('matches the RFC 6238 test vector at %i ms', (atMs, code) => {
    expect(totpCode(rfcSecret, atMs)).toBe(code);
  });

  it('accepts the previous and next period, and nothing further', () => {
    const now = 1_700_000_000_000;
    expect(verifyTotp(rfcSecret, totpCode(rfcSecret, now - 30_000), now)).toBe(true);
    expect(verifyTotp(rfcSecret, totpCode(rfcSecret, now + 30_000), now)).toBe(true);
    expect(verifyTotp(rfcSecret, totpCode(rfcSecret, now - 90_000), now)).toBe(false);
  });

  it('ignores spaces and refuses codes that are not six digits', () => {
    const now = 1_700_000_000_000;
    const code = totpCode(rfcSecret, now);
    expect(verifyTotp(rfcSecret, `${code.slice(0, 3)} ${code.slice(3)}`, now)).toBe(true);
    expect(verifyTotp(rfcSecret, '12345', now)).toBe(false);
    expect(verifyTotp(rfcSecret, 'abcdef', now)).toBe(false);
  });

  it('makes 160-bit base32 secrets and an otpauth URI authenticator apps read', () => {
    const secret = generateTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(totpUri(secret, 'ada@example.com')).toBe(
      `otpauth://totp/Letterset%3Aada%40example.com?secret=${secret}&issuer=Letterset&algorithm=SHA1&digits=6&period=30`,
    );
  });
});
