/**
 * What a translation must leave exactly as it is: Liquid and personalization tags, sending-platform
 * syntax, HTML markup with its attributes and link targets. Before a model sees a text, each such
 * piece is replaced by a numbered placeholder (`⟦1⟧`); after, the answer must hold every placeholder
 * exactly once and nothing that looks like markup or template syntax of its own, or it is refused.
 */

/** Template syntax of Letterset and the sending platforms, longest forms first. */
const templateSyntax = [
  /\{\{[\s\S]*?\}\}/, // Liquid and Handlebars output: {{ first_name }}
  /\{%[\s\S]*?%\}/, // Liquid tags: {% if vip %}
  /%%\[[\s\S]*?\]%%/, // AMPscript blocks: %%[ set @a = 1 ]%%
  /%%=[\s\S]*?=%%/, // AMPscript inline: %%=v(@a)=%%
  /%%[A-Za-z_][\w.-]*%%/, // Marketing Cloud personalization strings: %%FirstName%%
  /\*\|[A-Z0-9_:]+\|\*/, // Merge tags: *|FNAME|*
  /<%[\s\S]*?%>/, // ERB-like platforms
  /\$\{[^}\n]*\}/, // Template literals some platforms use: ${first_name}
];
const htmlMarkup = [
  /<!--[\s\S]*?-->/,
  /<\/?[A-Za-z][^<>]*>/,
  /&(?:[a-zA-Z][a-zA-Z0-9]*|#\d+|#x[0-9a-fA-F]+);/,
];
const linkTargets = [/\b(?:https?:\/\/|mailto:)[^\s<>"']+/];

function alternation(patterns: readonly RegExp[]): RegExp {
  return new RegExp(patterns.map((pattern) => pattern.source).join('|'), 'g');
}
const protectedInText = alternation([...templateSyntax, ...linkTargets]);
const protectedInRichText = alternation([...templateSyntax, ...htmlMarkup, ...linkTargets]);

export type MarkupFormat = 'text' | 'rich_text';

export interface MaskedText {
  /** The text with every protected piece replaced by its placeholder. */
  masked: string;
  /** The protected pieces, placeholder `⟦n⟧` standing for `pieces[n - 1]`. */
  pieces: string[];
}

const placeholder = (index: number) => `⟦${index + 1}⟧`;
const placeholderPattern = /⟦(\d+)⟧/g;

/** Replaces what a translation must keep with numbered placeholders. */
export function maskProtectedMarkup(text: string, format: MarkupFormat): MaskedText {
  const pieces: string[] = [];
  const pattern = format === 'rich_text' ? protectedInRichText : protectedInText;
  const masked = text.replace(pattern, (piece) => {
    pieces.push(piece);
    return placeholder(pieces.length - 1);
  });
  return { masked, pieces };
}

/** Traces of markup or template syntax a translation must not add on its own. */
const syntaxTraces = ['<', '>', '{{', '{%', '%}', '}}', '%%', '*|', '${'];

function occurrences(text: string, trace: string): number {
  return text.split(trace).length - 1;
}

/** A trace the translation holds more often than the source (outside placeholders), if any. */
function addedTrace(source: string, translation: string): string | undefined {
  const bare = (text: string) => text.replace(placeholderPattern, '');
  return syntaxTraces.find(
    (trace) => occurrences(bare(translation), trace) > occurrences(bare(source), trace),
  );
}

/**
 * The translation with its placeholders restored, or why it cannot be used: a placeholder lost,
 * repeated or invented, or markup and template syntax the source did not have.
 */
export function unmaskProtectedMarkup(
  translated: string,
  masked: MaskedText,
): { ok: true; text: string } | { ok: false; problem: string } {
  const counts = new Map<number, number>();
  for (const match of translated.matchAll(placeholderPattern)) {
    const index = Number(match[1]);
    counts.set(index, (counts.get(index) ?? 0) + 1);
  }
  const expected = masked.pieces.map((_, index) => index + 1);
  const missing = expected.filter((index) => !counts.has(index));
  if (missing.length > 0)
    return {
      ok: false,
      problem: `lost ${missing.map((index) => `⟦${index}⟧`).join(', ')}, which must stay exactly as given`,
    };
  const repeated = expected.filter((index) => (counts.get(index) ?? 0) > 1);
  if (repeated.length > 0)
    return {
      ok: false,
      problem: `repeats ${repeated.map((index) => `⟦${index}⟧`).join(', ')}; each placeholder appears once`,
    };
  const invented = [...counts.keys()].filter((index) => index < 1 || index > masked.pieces.length);
  if (invented.length > 0)
    return {
      ok: false,
      problem: `has ${invented.map((index) => `⟦${index}⟧`).join(', ')}, which the source does not`,
    };
  const added = addedTrace(masked.masked, translated);
  if (added !== undefined)
    return {
      ok: false,
      problem: `adds “${added}”: keep markup and template syntax to the placeholders the source has`,
    };
  const text = translated.replace(
    placeholderPattern,
    (_, index: string) => masked.pieces[Number(index) - 1] ?? '',
  );
  return { ok: true, text };
}
