/**
 * What a translation must leave exactly as it is: Liquid and personalization tags, sending-platform
 * syntax, HTML markup with its attributes and link targets. Before a model sees a text, each such
 * piece is replaced by a numbered placeholder (`⟦1⟧`); after, the answer must hold every placeholder
 * exactly once and nothing that looks like markup or template syntax of its own, or it is refused.
 */

/** Template syntax of Letterset and the sending platforms, longest forms first. */
const templateSyntax = [
  /\{tag:\d+\}/, // Letterset personalization tags: {tag:7}
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

/** How to name what a piece stands for: personalization tags by their label. */
export interface DescribeOptions {
  tagLabel?: (id: number) => string | undefined;
}

const longest = 60;
const shortened = (text: string) => (text.length > longest ? `${text.slice(0, longest - 1)}…` : text);
const hrefOf = (tag: string) => /\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(tag);
const tagNameOf = (piece: string) => /^<\/?([A-Za-z][\w-]*)/.exec(piece)?.[1]?.toLowerCase();
const isMarkup = (piece: string) => /^<[A-Za-z/!]|^&/.test(piece);

/** The words a link's opening tag (piece `index`, from 0) encloses in the source, up to its closing tag, without markup. */
function linkTextAfter(masked: MaskedText, index: number): string {
  const start = masked.masked.indexOf(placeholder(index));
  if (start < 0) return '';
  const rest = masked.masked.slice(start + placeholder(index).length);
  let text = '';
  for (const part of rest.split(/(⟦\d+⟧)/)) {
    const piece = /^⟦(\d+)⟧$/.exec(part);
    if (!piece) {
      text += part;
      continue;
    }
    if (tagNameOf(masked.pieces[Number(piece[1]) - 1] ?? '') === 'a') break;
  }
  return text.replace(/\s+/g, ' ').trim();
}

/** One protected piece in words: `the link "Shop now" (https://…)`, `the personalization tag {First name}`. */
function describePiece(masked: MaskedText, index: number, options: DescribeOptions): string {
  const piece = masked.pieces[index] ?? '';
  const tag = /^\{tag:(\d+)\}$/.exec(piece);
  if (tag) {
    const label = options.tagLabel?.(Number(tag[1]));
    return label ? `the personalization tag {${label}}` : `the personalization tag ${piece}`;
  }
  if (piece.startsWith('{{')) return `the Liquid value ${shortened(piece)}`;
  if (piece.startsWith('{%')) return `the Liquid tag ${shortened(piece)}`;
  if (/^(?:https?:\/\/|mailto:)/i.test(piece)) return `the web address ${shortened(piece)}`;
  if (piece.startsWith('<!--')) return 'an HTML comment';
  if (piece.startsWith('&')) return `the character ${piece}`;
  const name = tagNameOf(piece);
  if (name === 'a' && !piece.startsWith('</')) {
    const href = hrefOf(piece);
    const target = href ? (href[1] ?? href[2] ?? href[3] ?? '') : '';
    const words = linkTextAfter(masked, index);
    if (words) return `the link "${shortened(words)}"${target ? ` (to ${shortened(target)})` : ''}`;
    return target ? `a link to ${shortened(target)}` : 'a link';
  }
  if (name === 'a') return 'the end of a link (</a>)';
  if (name) return piece.startsWith('</') ? `the end of <${name}>` : `<${name}>`;
  return `the sending-platform code ${shortened(piece)}`;
}

function listed(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/**
 * The protected pieces (by placeholder number) in words, for people: a link's closing tag goes
 * unnamed when its opening tag is named, and markup alone is counted ("2 pieces of markup: …").
 */
export function describeProtectedPieces(
  masked: MaskedText,
  numbers: readonly number[],
  options: DescribeOptions = {},
): string {
  const openLinks = numbers.filter((number) => {
    const piece = masked.pieces[number - 1] ?? '';
    return tagNameOf(piece) === 'a' && !piece.startsWith('</');
  });
  const shown = numbers.filter((number) => {
    const piece = masked.pieces[number - 1] ?? '';
    return !(piece.startsWith('</') && tagNameOf(piece) === 'a' && openLinks.length > 0);
  });
  const words = shown.map((number) => describePiece(masked, number - 1, options));
  const allMarkup = shown.every((number) => isMarkup(masked.pieces[number - 1] ?? ''));
  return allMarkup && words.length > 1 ? `${words.length} pieces of markup: ${listed(words)}` : listed(words);
}

/** Why a translation cannot be used, in words for people (no placeholders), from the same findings. */
export type UnmaskFailure = { ok: false; problem: string; description: string };

/**
 * The translation with its placeholders restored, or why it cannot be used: a placeholder lost,
 * repeated or invented, or markup and template syntax the source did not have. `problem` speaks in
 * placeholders, for the model asked to repair its answer; `description` names what the
 * placeholders stand for, for the people reading why a value was left untranslated.
 */
export function unmaskProtectedMarkup(
  translated: string,
  masked: MaskedText,
  options: DescribeOptions = {},
): { ok: true; text: string } | UnmaskFailure {
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
      description: `lost ${describeProtectedPieces(masked, missing, options)}`,
    };
  const repeated = expected.filter((index) => (counts.get(index) ?? 0) > 1);
  if (repeated.length > 0)
    return {
      ok: false,
      problem: `repeats ${repeated.map((index) => `⟦${index}⟧`).join(', ')}; each placeholder appears once`,
      description: `repeats ${describeProtectedPieces(masked, repeated, options)}`,
    };
  const invented = [...counts.keys()].filter((index) => index < 1 || index > masked.pieces.length);
  if (invented.length > 0)
    return {
      ok: false,
      problem: `has ${invented.map((index) => `⟦${index}⟧`).join(', ')}, which the source does not`,
      description: 'adds markup, links or personalization the source does not have',
    };
  const added = addedTrace(masked.masked, translated);
  if (added !== undefined)
    return {
      ok: false,
      problem: `adds “${added}”: keep markup and template syntax to the placeholders the source has`,
      description: `adds “${added}”, markup or template syntax the source does not have`,
    };
  const text = translated.replace(
    placeholderPattern,
    (_, index: string) => masked.pieces[Number(index) - 1] ?? '',
  );
  return { ok: true, text };
}
