import { readabilityProblemCodes } from './readability.ts';

/**
 * Pre-send checks: what stands between an email and its recipients, per locale and branch.
 * Blocking problems refuse an export; warnings are shown (and kept with the export) but do not stop it.
 */
export const preSendProblemCodes = {
  /** A field value breaks its field's validations (blocking). */
  invalidContent: 'invalid_content',
  /** A template or dynamic-content problem found while rendering (blocking). */
  renderError: 'render_error',
  /** A link with no target, or only `#` (blocking). */
  emptyLink: 'empty_link',
  /** A link that is neither http(s) nor mailto: (blocking). */
  unsupportedLink: 'unsupported_link',
  /** A link that does not resolve to a full address: `https://` alone, a leftover tag token (blocking). */
  unresolvedLink: 'unresolved_link',
  /** An image without alt text (warning). */
  missingAltText: 'missing_alt_text',
  /** HTML over the size Gmail clips at (warning). */
  htmlTooLarge: 'html_too_large',
  missingSubject: 'missing_subject',
  missingPreheader: 'missing_preheader',
  /** An image an html export with include_in_zip cannot pack: Letterset does not store it, so it stays at its address (warning). */
  imageNotPacked: 'image_not_packed',
  /** A value of another locale that is blank or the same as the default locale's (warning). */
  untranslated: 'untranslated_value',
  /** A value of another locale longer than its field allows, once translated (blocking, like any invalid value). */
  translationTooLong: 'translation_too_long',
  /** The HTML of a right-to-left locale (ar-SA, he-IL) sets no dir="rtl" on <html> or <body> (warning). */
  missingRtlDirection: 'missing_rtl_direction',
  /** Low contrast, a missing lang or dir, vague link text (warnings; see readability.ts). */
  ...readabilityProblemCodes,
  /**
   * An export for a dynamic content profile that a conditional used in the email has no syntax
   * for (none of its own, and an empty default syntax): every reader would get every branch (blocking).
   */
  missingConditionalSyntax: 'missing_conditional_syntax',
  /** Branches past the bound of audiences rendered per locale, whose renders were not checked (warning). */
  audiencesNotChecked: 'audiences_not_checked',
} as const;

export type PreSendProblemCode = (typeof preSendProblemCodes)[keyof typeof preSendProblemCodes];

export interface PreSendProblem {
  code: PreSendProblemCode;
  severity: 'blocking' | 'warning';
  /** The locale it was found in; null for problems of the email as a whole. */
  locale: string | null;
  /** The branch key, for content under a conditional (`null_branch` otherwise); null when not known. */
  branch: string | null;
  /**
   * The conditional `branch` belongs to, when known: a problem a render of that branch's
   * audience found, or a conditional's own problem. Absent otherwise.
   */
  conditional_id?: number;
  /** The component instance it is in, when known. */
  component_instance_id: string | null;
  message: string;
}

export interface PreSendCheckResult {
  /** No blocking problem: the email may be exported. */
  ready: boolean;
  blocking_count: number;
  warning_count: number;
  problems: PreSendProblem[];
}
