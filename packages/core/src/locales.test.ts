import { describe, expect, it } from 'vitest';
import { isLocaleCode, localeCodes, localeInfo, locales, textDirectionOf } from './locales.ts';

describe('locales', () => {
  it('lists the 53 codes the API accepts, once each, sorted', () => {
    expect(localeCodes).toHaveLength(53);
    expect(new Set(localeCodes).size).toBe(53);
    expect([...localeCodes].sort()).toEqual(localeCodes);
    for (const code of ['en-US', 'en-GB', 'de-DE', 'fr-FR', 'es-ES', 'ja-JP', 'pt-BR', 'zh-CN', 'no-NO']) {
      expect(isLocaleCode(code)).toBe(true);
    }
    expect(isLocaleCode('nb-NO')).toBe(false);
    expect(isLocaleCode('en_US')).toBe(false);
  });

  it('writes Arabic and Hebrew right to left, and only those', () => {
    expect(locales.filter((locale) => locale.direction === 'rtl').map((locale) => locale.code)).toEqual([
      'ar-SA',
      'he-IL',
    ]);
    expect(textDirectionOf('he-IL')).toBe('rtl');
    expect(textDirectionOf('de-DE')).toBe('ltr');
    expect(textDirectionOf('xx-XX')).toBe('ltr');
  });

  it('names each locale in English', () => {
    expect(localeInfo('pt-BR')?.name).toBe('Portuguese (Brazil)');
    expect(locales.every((locale) => locale.name.length > 0)).toBe(true);
  });
});
