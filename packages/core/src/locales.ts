export type TextDirection = 'ltr' | 'rtl';

export interface LocaleInfo {
  code: string;
  /** The English name, for pickers and messages. */
  name: string;
  direction: TextDirection;
}

/**
 * The locales an email can be written in: the 53 codes the API accepts (Norwegian is `no-NO`,
 * as in the reference API, not `nb-NO`). Arabic and Hebrew are written right to left.
 */
export const locales: readonly LocaleInfo[] = [
  { code: 'ar-SA', name: 'Arabic (Saudi Arabia)', direction: 'rtl' },
  { code: 'bn-BD', name: 'Bengali (Bangladesh)', direction: 'ltr' },
  { code: 'bn-IN', name: 'Bengali (India)', direction: 'ltr' },
  { code: 'ca-ES', name: 'Catalan (Spain)', direction: 'ltr' },
  { code: 'cs-CZ', name: 'Czech (Czechia)', direction: 'ltr' },
  { code: 'da-DK', name: 'Danish (Denmark)', direction: 'ltr' },
  { code: 'de-AT', name: 'German (Austria)', direction: 'ltr' },
  { code: 'de-CH', name: 'German (Switzerland)', direction: 'ltr' },
  { code: 'de-DE', name: 'German (Germany)', direction: 'ltr' },
  { code: 'el-GR', name: 'Greek (Greece)', direction: 'ltr' },
  { code: 'en-AU', name: 'English (Australia)', direction: 'ltr' },
  { code: 'en-CA', name: 'English (Canada)', direction: 'ltr' },
  { code: 'en-GB', name: 'English (United Kingdom)', direction: 'ltr' },
  { code: 'en-IE', name: 'English (Ireland)', direction: 'ltr' },
  { code: 'en-IN', name: 'English (India)', direction: 'ltr' },
  { code: 'en-NZ', name: 'English (New Zealand)', direction: 'ltr' },
  { code: 'en-US', name: 'English (United States)', direction: 'ltr' },
  { code: 'en-ZA', name: 'English (South Africa)', direction: 'ltr' },
  { code: 'es-AR', name: 'Spanish (Argentina)', direction: 'ltr' },
  { code: 'es-CL', name: 'Spanish (Chile)', direction: 'ltr' },
  { code: 'es-CO', name: 'Spanish (Colombia)', direction: 'ltr' },
  { code: 'es-ES', name: 'Spanish (Spain)', direction: 'ltr' },
  { code: 'es-MX', name: 'Spanish (Mexico)', direction: 'ltr' },
  { code: 'es-US', name: 'Spanish (United States)', direction: 'ltr' },
  { code: 'fi-FI', name: 'Finnish (Finland)', direction: 'ltr' },
  { code: 'fr-BE', name: 'French (Belgium)', direction: 'ltr' },
  { code: 'fr-CA', name: 'French (Canada)', direction: 'ltr' },
  { code: 'fr-CH', name: 'French (Switzerland)', direction: 'ltr' },
  { code: 'fr-FR', name: 'French (France)', direction: 'ltr' },
  { code: 'he-IL', name: 'Hebrew (Israel)', direction: 'rtl' },
  { code: 'hi-IN', name: 'Hindi (India)', direction: 'ltr' },
  { code: 'hu-HU', name: 'Hungarian (Hungary)', direction: 'ltr' },
  { code: 'id-ID', name: 'Indonesian (Indonesia)', direction: 'ltr' },
  { code: 'it-CH', name: 'Italian (Switzerland)', direction: 'ltr' },
  { code: 'it-IT', name: 'Italian (Italy)', direction: 'ltr' },
  { code: 'ja-JP', name: 'Japanese (Japan)', direction: 'ltr' },
  { code: 'ko-KR', name: 'Korean (South Korea)', direction: 'ltr' },
  { code: 'nl-BE', name: 'Dutch (Belgium)', direction: 'ltr' },
  { code: 'nl-NL', name: 'Dutch (Netherlands)', direction: 'ltr' },
  { code: 'no-NO', name: 'Norwegian (Norway)', direction: 'ltr' },
  { code: 'pl-PL', name: 'Polish (Poland)', direction: 'ltr' },
  { code: 'pt-BR', name: 'Portuguese (Brazil)', direction: 'ltr' },
  { code: 'pt-PT', name: 'Portuguese (Portugal)', direction: 'ltr' },
  { code: 'ro-RO', name: 'Romanian (Romania)', direction: 'ltr' },
  { code: 'ru-RU', name: 'Russian (Russia)', direction: 'ltr' },
  { code: 'sk-SK', name: 'Slovak (Slovakia)', direction: 'ltr' },
  { code: 'sv-SE', name: 'Swedish (Sweden)', direction: 'ltr' },
  { code: 'ta-IN', name: 'Tamil (India)', direction: 'ltr' },
  { code: 'ta-LK', name: 'Tamil (Sri Lanka)', direction: 'ltr' },
  { code: 'th-TH', name: 'Thai (Thailand)', direction: 'ltr' },
  { code: 'tr-TR', name: 'Turkish (Türkiye)', direction: 'ltr' },
  { code: 'zh-CN', name: 'Chinese (China)', direction: 'ltr' },
  { code: 'zh-HK', name: 'Chinese (Hong Kong)', direction: 'ltr' },
];

export const localeCodes: readonly string[] = locales.map((locale) => locale.code);

const localesByCode = new Map(locales.map((locale) => [locale.code, locale]));

export function isLocaleCode(code: string): boolean {
  return localesByCode.has(code);
}

export function localeInfo(code: string): LocaleInfo | undefined {
  return localesByCode.get(code);
}

/** The direction text in this locale is written; unknown codes read left to right. */
export function textDirectionOf(code: string): TextDirection {
  return localesByCode.get(code)?.direction ?? 'ltr';
}
