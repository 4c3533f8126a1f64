import type { ChildNode, Document, Element } from 'domhandler';
import { decodeHTML, decodeHTMLAttribute } from 'entities';

/**
 * The plain text html-to-text makes of a document, written straight from the document
 * `inline-css.ts` parsed (with entities left as written) instead of serializing it and having
 * html-to-text parse it again.
 *
 * It reproduces, byte for byte, html-to-text 10 with the options `plain-text.ts` compiles
 * (wordwrap 78, headings h1–h3 not uppercased, tables and their rows and cells as blocks, images
 * and `display: none` elements skipped), before `normaliseLines`: the same block builder (line
 * breaks stashed between blocks, words wrapped as they are added, long words kept whole), the same
 * whitespace handling and the same formatters, including their quirks (noted where they are kept).
 * Equivalence tests hold the two together (`plain-text-writer.test.ts`).
 *
 * What it must equal is html-to-text's text of the HTML the document serializes to
 * (`serializeHtml`, a rendering's `html`), which html-to-text parses with the same htmlparser2 into
 * the same tree, but for text nodes next to each other, which it reads as one. Entities are decoded
 * as that parse decodes them: text in the parser's legacy mode (except in `<textarea>` and `<xmp>`,
 * which it reads raw), attribute values in its attribute mode.
 *
 * Null when the document holds what only html-to-text reproduces exactly (see `needsHtmlToText`):
 * the caller converts the HTML with html-to-text instead.
 */
export function plainTextOfDocument(document: Document): string | null {
  const writer = new Writer();
  try {
    writer.write(document);
  } catch (error) {
    if (error instanceof NeedsHtmlToText) return null;
    throw error;
  }
  return writer.text();
}

/** Something only html-to-text itself reads exactly; the caller converts the HTML with it instead. */
class NeedsHtmlToText extends Error {}

const wordwrap = 78;

/** html-to-text's `whitespaceCharacters`: ' \t\r\n\f\u200b'. */
function isWhitespace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13 || code === 12 || code === 0x200b;
}

function containsWords(text: string): boolean {
  for (let index = 0; index < text.length; index += 1) {
    if (!isWhitespace(text.charCodeAt(index))) return true;
  }
  return false;
}

/**
 * One of html-to-text's block stack items (a block, a list or a list item) with its inline text
 * builder folded in: the finished lines, the words of the line being built and what is left of it.
 */
class Block {
  readonly parent: Block | null;
  leadingLineBreaks: number;
  readonly maxLineLength: number;
  readonly isPre: boolean;
  /** Finished lines of the inline text, each already joined with spaces. */
  lines: string[] = [];
  words: string[] = [];
  available: number;
  stashedSpace = false;
  wordBreakOpportunity = false;
  rawText = '';
  stashedLineBreaks = 0;
  /** Lists: the longest item prefix. List items: their prefix. */
  prefix = '';
  maxPrefixLength = 0;

  constructor(parent: Block | null, leadingLineBreaks: number, maxLineLength: number, isPre: boolean) {
    this.parent = parent;
    this.leadingLineBreaks = leadingLineBreaks;
    this.maxLineLength = maxLineLength;
    this.isPre = isPre;
    this.available = maxLineLength;
  }
}

function startNewLine(block: Block, count: number): void {
  block.lines.push(block.words.join(' '));
  for (let extra = 1; extra < count; extra += 1) block.lines.push('');
  block.words = [];
  block.available = block.maxLineLength;
}

function pushWord(block: Block, word: string): void {
  if (block.available <= 0) startNewLine(block, 1);
  const isLineStart = block.words.length === 0;
  const cost = word.length + (isLineStart ? 0 : 1);
  if (cost <= block.available) {
    block.words.push(word);
    block.available -= cost;
    return;
  }
  // A word longer than the line is kept whole (no split characters, no forced wrap), but for the
  // quirk in splitLongWord.
  const parts = splitLongWord(word, block.maxLineLength);
  if (!isLineStart) startNewLine(block, 1);
  for (let index = 0; index < parts.length; index += 1) {
    const part = parts[index] as string;
    if (index > 0) startNewLine(block, 1);
    block.words.push(part);
    block.available -= part.length;
  }
}

/**
 * html-to-text's `splitLongWord` with no `wrapCharacters`: it looks for `wrapCharacters[0]`,
 * which is `undefined`, and `lastIndexOf(undefined)` searches for the text "undefined", so a long
 * word is split after the "u" of the last "undefined" in its first line, as long as there is one.
 */
function splitLongWord(word: string, maxLineLength: number): string[] {
  const parts: string[] = [];
  let rest = word;
  while (rest.length > maxLineLength) {
    const firstLine = rest.substring(0, maxLineLength);
    const splitIndex = firstLine.lastIndexOf('undefined');
    if (splitIndex === -1) break;
    parts.push(firstLine.substring(0, splitIndex + 1));
    rest = firstLine.substring(splitIndex + 1) + rest.substring(maxLineLength);
  }
  parts.push(rest);
  return parts;
}

function popWord(block: Block): string | undefined {
  const last = block.words.pop();
  if (last !== undefined) block.available += last.length + (block.words.length === 0 ? 0 : 1);
  return last;
}

function concatWord(block: Block, word: string): void {
  if (block.wordBreakOpportunity && word.length > block.available) {
    pushWord(block, word);
    block.wordBreakOpportunity = false;
  } else {
    const last = popWord(block);
    pushWord(block, last ? last + word : word);
  }
}

function textOf(block: Block): string {
  if (block.lines.length === 0) {
    return block.words.length === 0 ? block.rawText : block.rawText + block.words.join(' ');
  }
  return `${block.rawText}${block.lines.join('\n')}\n${block.words.join(' ')}`;
}

function addText(block: Block, text: string, leadingLineBreaks: number, trailingLineBreaks: number): void {
  const parentText = textOf(block);
  const lineBreaks = Math.max(block.stashedLineBreaks, leadingLineBreaks);
  block.lines = [];
  block.words = [];
  block.available = block.maxLineLength;
  if (parentText) {
    block.rawText = parentText + '\n'.repeat(lineBreaks) + text;
  } else {
    block.rawText = text;
    block.leadingLineBreaks = lineBreaks;
  }
  block.stashedLineBreaks = trailingLineBreaks;
}

/** `[leading, trailing]` line breaks of the elements html-to-text formats as plain blocks. */
const blockLineBreaks = new Map<string, readonly [number, number]>([
  ['p', [2, 2]],
  ['article', [1, 1]],
  ['aside', [1, 1]],
  ['div', [1, 1]],
  ['footer', [1, 1]],
  ['form', [1, 1]],
  ['header', [1, 1]],
  ['main', [1, 1]],
  ['nav', [1, 1]],
  ['section', [1, 1]],
  // Formatted as blocks by plain-text.ts's options, with the `block` formatter's default 2 and 2.
  ['table', [2, 2]],
  ['tr', [2, 2]],
  ['td', [2, 2]],
  ['th', [2, 2]],
  // Headings keep their case (plain-text.ts) up to h3; h4–h6 keep html-to-text's uppercase.
  ['h1', [3, 2]],
  ['h2', [3, 2]],
  ['h3', [3, 2]],
]);
const uppercasedHeadings = new Set(['h4', 'h5', 'h6']);

/** Elements whose text html-to-text's parser reads raw, without decoding entities. */
const rawTextElements = new Set(['textarea', 'xmp']);

/**
 * SVG and MathML are serialized in dom-serializer's foreign mode before html-to-text parses them;
 * element names html-to-text's selector picker looks up in a plain object find Object.prototype's
 * members there. Neither is worth reproducing: such documents go through html-to-text.
 */
function needsHtmlToText(name: string): boolean {
  return name === 'svg' || name === 'math' || name in Object.prototype;
}

class Writer {
  private current = new Block(null, 1, wordwrap, false);
  /** Words added through html-to-text's word transforms so far: an anchor with none shows its URL alone. */
  private transformedWords = 0;
  private uppercase = 0;

  text(): string {
    let root = this.current;
    while (root.parent) root = root.parent;
    return textOf(root);
  }

  /** html-to-text converts the outermost `<body>` elements when there are any, else everything. */
  write(document: Document): void {
    const bodies: Element[] = [];
    collectBodies(document.children, bodies);
    if (bodies.length > 0) for (const body of bodies) this.element(body);
    else this.walk(document.children);
  }

  private walk(nodes: readonly ChildNode[]): void {
    for (let index = 0; index < nodes.length; index += 1) {
      const node = nodes[index] as ChildNode;
      if (node.type === 'text') {
        // Text nodes next to each other (a removed <style> between them) are one after a new parse.
        let data = node.data;
        while (nodes[index + 1]?.type === 'text') {
          index += 1;
          data += (nodes[index] as { data: string }).data;
        }
        this.addInline(decodeText(data, node.parent as Element | null));
      } else if (node.type === 'tag') {
        this.element(node as Element);
      }
    }
  }

  private element(element: Element): void {
    const name = element.name;
    if (needsHtmlToText(name)) throw new NeedsHtmlToText();
    const style = element.attribs.style;
    if (style !== undefined) {
      const decoded = decodeAttribute(style);
      // plain-text.ts skips `[style*="display: none"]` and `[style*="display:none"]` (case-sensitive).
      if (decoded.includes('display: none') || decoded.includes('display:none')) return;
    }
    const lineBreaks = blockLineBreaks.get(name);
    if (lineBreaks) {
      this.openBlock(lineBreaks[0], 0, false);
      this.walk(element.children);
      this.closeBlock(lineBreaks[1]);
      return;
    }
    switch (name) {
      case 'img':
        return;
      case 'a':
        this.anchor(element);
        return;
      case 'br':
        if (this.current.isPre) this.current.rawText += '\n';
        else startNewLine(this.current, 1);
        return;
      case 'wbr':
        this.current.wordBreakOpportunity = true;
        return;
      case 'hr':
        this.openBlock(2, 0, false);
        this.addInline('-'.repeat(wordwrap));
        this.closeBlock(2);
        return;
      case 'pre':
        this.openBlock(2, 0, true);
        this.walk(element.children);
        this.closeBlock(2);
        return;
      case 'blockquote':
        this.openBlock(2, 2, false);
        this.walk(element.children);
        this.closeBlock(2, quoteLines);
        return;
      case 'ul':
        this.list(element, () => ' * ');
        return;
      case 'ol':
        this.orderedList(element);
        return;
    }
    if (uppercasedHeadings.has(name)) {
      this.openBlock(2, 0, false);
      this.uppercase += 1;
      this.walk(element.children);
      this.uppercase -= 1;
      this.closeBlock(2);
      return;
    }
    // Every other element is inline.
    this.walk(element.children);
  }

  /** "text [href]", or the href alone when the link has no text; `#` and empty links are text only. */
  private anchor(element: Element): void {
    const raw = element.attribs.href;
    let href = raw ? decodeAttribute(raw) : '';
    if (href) {
      href = href.replace(/^mailto:/, '');
      if (href[0] === '#') href = '';
    }
    if (!href) {
      this.walk(element.children);
      return;
    }
    const wordsBefore = this.transformedWords;
    this.walk(element.children);
    // The `a` options' `hideLinkIfSameAsText` is not an html-to-text option (it reads
    // `hideLinkHrefIfSameAsText`): the href is shown even when it is the text.
    this.addInline(this.transformedWords > wordsBefore ? ` [${href}]` : href, true);
  }

  private orderedList(element: Element): void {
    const start = element.attribs.start;
    let next = Number((start === undefined ? '' : decodeAttribute(start)) || '1');
    const type = element.attribs.type;
    const indexOf = orderedListIndex(type === undefined ? undefined : decodeAttribute(type));
    this.list(element, () => {
      const prefix = ` ${indexOf(next)}. `;
      next += 1;
      return prefix;
    });
  }

  private list(element: Element, nextPrefix: () => string): void {
    const isNested = (element.parent as Element | null)?.name === 'li';
    const items: { nodes: ChildNode[]; text: string | null; prefix: string }[] = [];
    let maxPrefixLength = 0;
    const children = element.children;
    for (let index = 0; index < children.length; index += 1) {
      const child = children[index] as ChildNode;
      if (child.type === 'text') {
        let data = child.data;
        while (children[index + 1]?.type === 'text') {
          index += 1;
          data += (children[index] as { data: string }).data;
        }
        const text = decodeText(data, element);
        // html-to-text leaves out text that is all JavaScript whitespace (\s, which counts &nbsp;).
        if (/^\s*$/.test(text)) continue;
        items.push({ nodes: [], text, prefix: '' });
        continue;
      }
      let prefix = '';
      if (child.type === 'tag' && (child as Element).name === 'li') {
        prefix = isNested ? nextPrefix().trimStart() : nextPrefix();
        if (prefix.length > maxPrefixLength) maxPrefixLength = prefix.length;
      }
      items.push({ nodes: [child], text: null, prefix });
    }
    if (items.length === 0) return;

    const parent = this.current;
    const list = new Block(parent, isNested ? 1 : 2, parent.maxLineLength, parent.isPre);
    list.maxPrefixLength = maxPrefixLength;
    this.current = list;
    const spacing = `\n${' '.repeat(maxPrefixLength)}`;
    for (const { nodes, text, prefix } of items) {
      const item = new Block(list, 1, Math.max(20, list.maxLineLength - maxPrefixLength), list.isPre);
      item.prefix = prefix;
      this.current = item;
      if (text !== null) this.addInline(text);
      else this.walk(nodes);
      this.current = list;
      const itemText = prefix.padEnd(maxPrefixLength) + textOf(item).replace(/\n/g, spacing);
      addText(list, itemText, item.leadingLineBreaks, Math.max(item.stashedLineBreaks, 1));
    }
    this.current = parent;
    const listText = textOf(list);
    if (listText) addText(parent, listText, list.leadingLineBreaks, isNested ? 1 : 2);
  }

  private openBlock(leadingLineBreaks: number, reservedLineLength: number, isPre: boolean): void {
    const parent = this.current;
    this.current = new Block(
      parent,
      leadingLineBreaks,
      Math.max(20, parent.maxLineLength - reservedLineLength),
      isPre || parent.isPre,
    );
  }

  private closeBlock(trailingLineBreaks: number, transform?: (text: string) => string): void {
    const block = this.current;
    const parent = block.parent as Block;
    this.current = parent;
    const text = transform ? transform(textOf(block)) : textOf(block);
    addText(parent, text, block.leadingLineBreaks, Math.max(block.stashedLineBreaks, trailingLineBreaks));
  }

  /** html-to-text's `addInline`: whitespace collapsed and words wrapped, or kept as is in <pre>. */
  private addInline(text: string, noWordTransform = false): void {
    const block = this.current;
    if (block.isPre) {
      block.rawText += text;
      return;
    }
    if (text.length === 0 || (block.stashedLineBreaks && !containsWords(text))) return;
    if (block.stashedLineBreaks) startNewLine(block, block.stashedLineBreaks);
    this.shrinkWrapAdd(text, block, noWordTransform);
    block.stashedLineBreaks = 0;
  }

  private shrinkWrapAdd(text: string, block: Block, noWordTransform: boolean): void {
    const previouslyStashedSpace = block.stashedSpace;
    const length = text.length;
    let anyWord = false;
    let index = 0;
    while (index < length) {
      while (index < length && isWhitespace(text.charCodeAt(index))) index += 1;
      if (index === length) break;
      let end = index + 1;
      while (end < length && !isWhitespace(text.charCodeAt(end))) end += 1;
      let word = text.slice(index, end);
      if (!noWordTransform) {
        this.transformedWords += 1;
        if (this.uppercase > 0) word = word.toUpperCase();
      }
      if (anyWord || previouslyStashedSpace || isWhitespace(text.charCodeAt(0))) pushWord(block, word);
      else concatWord(block, word);
      anyWord = true;
      index = end;
    }
    block.stashedSpace = (previouslyStashedSpace && !anyWord) || isWhitespace(text.charCodeAt(length - 1));
  }
}

function collectBodies(nodes: readonly ChildNode[], bodies: Element[]): void {
  for (const node of nodes) {
    if (node.type !== 'tag') continue;
    const element = node as Element;
    if (needsHtmlToText(element.name)) throw new NeedsHtmlToText();
    if (element.name === 'body') bodies.push(element);
    else collectBodies(element.children, bodies);
  }
}

function decodeText(data: string, parent: Element | null): string {
  if (!data.includes('&')) return data;
  if (parent && rawTextElements.has(parent.name)) return data;
  return decodeHTML(data);
}

function decodeAttribute(value: string): string {
  return value.includes('&') ? decodeHTMLAttribute(value) : value;
}

/** A blockquote's lines, each after "> " (html-to-text's `trimEmptyLines`). */
function quoteLines(text: string): string {
  return trimNewlines(text)
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
}

function trimNewlines(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text[start] === '\n') start += 1;
  while (end > start && text[end - 1] === '\n') end -= 1;
  return text.substring(start, end);
}

/** html-to-text's ordered-list markers by `type` (numbers for anything else). */
function orderedListIndex(type: string | undefined): (index: number) => string {
  switch (type) {
    case 'a':
      return (index) => letterSequence(index, 'a');
    case 'A':
      return (index) => letterSequence(index, 'A');
    case 'i':
      return (index) => romanNumeral(index).toLowerCase();
    case 'I':
      return (index) => romanNumeral(index);
    default:
      return (index) => index.toString();
  }
}

/** a, …, z, aa, …: html-to-text's `numberToLetterSequence`, as it computes it for any number. */
function letterSequence(index: number, first: string): string {
  const digits: number[] = [];
  let rest = index;
  do {
    rest -= 1;
    digits.push(rest % 26);
    rest = (rest / 26) >> 0;
  } while (rest > 0);
  const base = first.charCodeAt(0);
  return digits
    .reverse()
    .map((digit) => String.fromCharCode(base + digit))
    .join('');
}

const romanOnes = ['I', 'X', 'C', 'M'];
const romanFives = ['V', 'L', 'D'];

/** html-to-text's `numberToRoman`, as it computes it for any number. */
function romanNumeral(index: number): string {
  return [...`${index}`]
    .map((digit) => +digit)
    .reverse()
    .map((value, place) =>
      value % 5 < 4
        ? (value < 5 ? '' : romanFives[place]) + (romanOnes[place] as string).repeat(value % 5)
        : (romanOnes[place] as string) + (value < 5 ? romanFives[place] : romanOnes[place + 1]),
    )
    .reverse()
    .join('');
}
