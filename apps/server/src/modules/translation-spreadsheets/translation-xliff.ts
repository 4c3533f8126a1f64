import { setImmediate } from 'node:timers/promises';
import { type TranslationRow, textDirectionOf } from '@letterset/core';
import { SaxesParser } from 'saxes';
import {
  type ImportedTranslations,
  type ImportLocales,
  inChunks,
  localeColumn,
  TranslationFileProblems,
} from './translation-file.ts';

export const xliffNamespace = 'urn:oasis:names:tc:xliff:document:2.0';

/**
 * Characters XML 1.0 cannot carry at all, not even as a character reference: C0 controls other
 * than tab, LF and CR, lone surrogates, U+FFFE and U+FFFF. XLIFF 2.0 writes them as <cp hex="…"/>.
 */
const notXmlCharacter =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds.
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function codePoint(character: string): string {
  return `<cp hex="${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}"/>`;
}

/**
 * Text as XLIFF element content, read back to the same string by any conforming parser: markup
 * characters escaped, CR as a character reference (parsers turn a literal CR LF into LF), and
 * characters XML cannot hold as <cp/>. Rich text travels this way: its HTML is text to translate.
 */
export function xliffText(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('\r', '&#13;')
    .replace(notXmlCharacter, codePoint);
}

/** Text as an attribute value in double quotes (whitespace kept as references, not normalized away). */
function xliffAttribute(text: string): string {
  return xliffText(text).replaceAll('"', '&quot;').replaceAll('\t', '&#9;').replaceAll('\n', '&#10;');
}

/**
 * A translation file as XLIFF 2.0 for one target locale: one <unit> per translatable value, its id
 * the value's key, notes naming the component and the field (and whether the text is HTML), one
 * segment holding the default locale's text as <source> and, when the locale has one, the
 * translation as <target>. Units may not be resegmented, so the texts come back whole.
 */
export function translationsXliff(
  rows: readonly TranslationRow[],
  options: { defaultLocale: string; targetLocale: string; emailId: number; emailName: string },
): string {
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<xliff xmlns="${xliffNamespace}" version="2.0" srcLang="${options.defaultLocale}" trgLang="${options.targetLocale}">`,
    `  <file id="email-${options.emailId}" original="${xliffAttribute(options.emailName)}" srcDir="${textDirectionOf(options.defaultLocale)}" trgDir="${textDirectionOf(options.targetLocale)}">`,
  ];
  for (const row of rows) {
    const target = row.targetTexts[options.targetLocale] ?? '';
    lines.push(
      `    <unit id="${xliffAttribute(row.key)}" canResegment="no">`,
      '      <notes>',
      `        <note category="component">${xliffText(row.componentLabel)}</note>`,
      `        <note category="field">${xliffText(row.fieldLabel)}</note>`,
      `        <note category="format">${row.format === 'rich_text' ? 'html' : 'text'}</note>`,
      '      </notes>',
      `      <segment state="${target === '' ? 'initial' : 'translated'}">`,
      `        <source xml:space="preserve">${xliffText(row.sourceText)}</source>`,
      ...(target === '' ? [] : [`        <target xml:space="preserve">${xliffText(target)}</target>`]),
      '      </segment>',
      '    </unit>',
    );
  }
  lines.push('  </file>', '</xliff>', '');
  return lines.join('\n');
}

interface UnitReading {
  id: string;
  line: number;
  /** Per segment or ignorable, its target text (null when it has none) and its source. */
  parts: { kind: 'segment' | 'ignorable'; source: string; target: string | null }[];
}

/**
 * How much of an XLIFF file Letterset reads: far beyond any file a translation tool writes (Letterset's
 * own nest 5 deep with 3 attributes at most, about 10 elements per text), and small enough that a
 * hostile file is refused within milliseconds, at the element that crosses the bound.
 */
export const xliffLimits = {
  /** Elements inside one another: <xliff>, <file>, <group>s, <unit>, <segment>, <source>, <cp>. */
  depth: 64,
  /** Elements in the whole file: about eight per text to translate, so some 6,000 texts. */
  elements: 50_000,
  /** Attributes of one element, namespace declarations included. */
  attributesPerElement: 64,
  /** Characters of text and attribute values in the whole file. */
  textCharacters: 4_000_000,
} as const;

const xmlNamespace = 'http://www.w3.org/XML/1998/namespace';
const xmlnsNamespace = 'http://www.w3.org/2000/xmlns/';

/** An element as the reader sees it: its namespace resolved, its attributes by name. */
interface XmlElement {
  name: string;
  local: string;
  uri: string;
  attributes: Record<string, string>;
}

/** A bound of `xliffLimits` crossed: the file is refused where it happened. */
class XliffLimitError extends Error {}

/** A namespace rule the file breaks (an unbound prefix, say): it is not well-formed XLIFF. */
class XmlNamespaceError extends Error {}

/**
 * The namespace bindings in scope, one stack of URIs per prefix: resolving a prefix is one map
 * look-up whatever the depth. (saxes's own namespace mode walks every open element for every
 * element it resolves, which made a deeply nested file take time in the square of its depth.)
 */
class NamespaceScopes {
  private readonly bindings = new Map<string, string[]>([
    ['xml', [xmlNamespace]],
    ['xmlns', [xmlnsNamespace]],
  ]);
  /** Per open element, the prefixes it declared, to unbind when it closes. */
  private readonly declared: string[][] = [];

  /** Enters an element: binds what its xmlns attributes declare. */
  enter(attributes: Record<string, string>): void {
    const prefixes: string[] = [];
    for (const [name, uri] of Object.entries(attributes)) {
      let prefix: string;
      if (name === 'xmlns') prefix = '';
      else if (name.startsWith('xmlns:')) prefix = name.slice('xmlns:'.length);
      else continue;
      if (prefix === 'xmlns') throw new XmlNamespaceError('the prefix xmlns may not be declared');
      if (prefix === 'xml' ? uri !== xmlNamespace : uri === xmlNamespace || uri === xmlnsNamespace) {
        throw new XmlNamespaceError(`the prefix "${prefix}" may not be bound to ${uri || '(none)'}`);
      }
      if (prefix !== '' && uri === '')
        throw new XmlNamespaceError(`the prefix "${prefix}" is bound to nothing`);
      const stack = this.bindings.get(prefix);
      if (stack) stack.push(uri);
      else this.bindings.set(prefix, [uri]);
      prefixes.push(prefix);
    }
    this.declared.push(prefixes);
  }

  /** Leaves the innermost element: its declarations go out of scope. */
  leave(): void {
    for (const prefix of this.declared.pop() ?? []) this.bindings.get(prefix)?.pop();
  }

  /** The namespace of a qualified name, and its local part. */
  resolve(qualifiedName: string, { isAttribute }: { isAttribute: boolean }): { uri: string; local: string } {
    const colon = qualifiedName.indexOf(':');
    if (colon === -1) {
      // Unprefixed attributes are in no namespace; unprefixed elements in the default one.
      return { uri: isAttribute ? '' : (this.bindings.get('')?.at(-1) ?? ''), local: qualifiedName };
    }
    const prefix = qualifiedName.slice(0, colon);
    const local = qualifiedName.slice(colon + 1);
    if (prefix === '' || local === '' || local.includes(':')) {
      throw new XmlNamespaceError(`malformed name: ${qualifiedName}`);
    }
    if (!isAttribute && prefix === 'xmlns')
      throw new XmlNamespaceError('elements may not have the prefix xmlns');
    const uri = this.bindings.get(prefix)?.at(-1);
    if (uri === undefined) throw new XmlNamespaceError(`unbound namespace prefix: "${prefix}"`);
    return { uri, local };
  }
}

/**
 * The texts of an XLIFF 2.0 translation file for the email: its trgLang must be a locale of the
 * email other than the default one (srcLang, when given, the default one), unit ids are the keys,
 * and a unit's text is the concatenation of its segments' targets. Units without a target change
 * nothing. Inline markup (<ph>, <pc>, …) is refused: Letterset writes HTML as text to translate.
 * Parsed by saxes, a conforming XML parser: no DTD, no entity other than XML's own. Reading takes
 * time in proportion to the file's size, and stops at the first bound of `xliffLimits` it crosses.
 */
export async function readTranslationsXliff(
  bytes: Buffer,
  locales: ImportLocales,
): Promise<ImportedTranslations> {
  const problems: TranslationFileProblems = new TranslationFileProblems('xliff_file');
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    problems.file('is not UTF-8 text: XLIFF files must be saved as UTF-8');
    problems.fail();
  }

  const parser = new SaxesParser({ position: true });
  const namespaces = new NamespaceScopes();
  const units: UnitReading[] = [];
  let root: XmlElement | null = null;
  let xmlError: string | null = null;
  /** Elements open right now, outermost first. */
  const stack: XmlElement[] = [];
  let elementCount = 0;
  let attributeCount = 0;
  let textCharacters = 0;
  let unit: UnitReading | null = null;
  let part: UnitReading['parts'][number] | null = null;
  /** Collecting the text of a <source> or <target> of the current part. */
  let collecting: 'source' | 'target' | null = null;
  let collected = '';

  const where = () => `line ${parser.line}, column ${parser.column}`;
  const beyond = (message: string): never => {
    throw new XliffLimitError(`${message} (at ${where()}): Letterset stopped reading there`);
  };
  const countText = (characters: number) => {
    textCharacters += characters;
    if (textCharacters > xliffLimits.textCharacters) {
      beyond(`holds more than ${xliffLimits.textCharacters.toLocaleString('en-US')} characters of text`);
    }
  };

  parser.on('error', (error) => {
    xmlError ??= error.message;
    throw error;
  });
  parser.on('doctype', () => {
    xmlError ??= 'declares a DOCTYPE, which XLIFF files do not have';
    throw new Error(xmlError);
  });
  // Bounds are checked as the parser reaches each element and attribute, before it goes on.
  parser.on('opentagstart', () => {
    elementCount += 1;
    attributeCount = 0;
    if (stack.length >= xliffLimits.depth) {
      beyond(`nests elements more than ${xliffLimits.depth} deep`);
    }
    if (elementCount > xliffLimits.elements) {
      beyond(`has more than ${xliffLimits.elements.toLocaleString('en-US')} elements`);
    }
  });
  parser.on('attribute', (attribute) => {
    attributeCount += 1;
    if (attributeCount > xliffLimits.attributesPerElement) {
      beyond(`has an element with more than ${xliffLimits.attributesPerElement} attributes`);
    }
    countText(attribute.value.length);
  });
  parser.on('opentag', (plain) => {
    // Without saxes's namespace mode, attributes are plain strings by name.
    const plainAttributes = plain.attributes as Record<string, string>;
    namespaces.enter(plainAttributes);
    const attributes: Record<string, string> = {};
    for (const [name, value] of Object.entries(plainAttributes)) {
      const { uri, local } = namespaces.resolve(name, { isAttribute: true });
      // Letterset reads unprefixed attributes (id, hex, version, …) and none in other namespaces.
      if (uri === '') attributes[local] = value;
    }
    const tag: XmlElement = {
      name: plain.name,
      ...namespaces.resolve(plain.name, { isAttribute: false }),
      attributes,
    };
    const inXliff = tag.uri === xliffNamespace;
    if (stack.length === 0) root = tag;
    const parent = stack.at(-1);
    stack.push(tag);
    if (collecting) {
      if (inXliff && tag.local === 'cp') {
        const hex = tag.attributes.hex ?? '';
        const point = /^[0-9A-Fa-f]{1,6}$/.test(hex) ? Number.parseInt(hex, 16) : Number.NaN;
        if (point >= 0 && point <= 0x10ffff) collected += String.fromCodePoint(point);
        else problems.at(whereUnit(), `has a <cp> whose hex "${hex}" is not a code point`);
        return;
      }
      problems.at(
        whereUnit(),
        `holds inline markup (<${tag.name}>) in its ${collecting}: Letterset writes HTML as text to translate, so keep the tags as text`,
      );
      return;
    }
    if (!inXliff) return;
    if (tag.local === 'unit') {
      unit = { id: tag.attributes.id ?? '', line: parser.line, parts: [] };
      return;
    }
    if (unit && parent?.uri === xliffNamespace && parent.local === 'unit') {
      if (tag.local === 'segment' || tag.local === 'ignorable') {
        part = { kind: tag.local, source: '', target: null };
        unit.parts.push(part);
      }
      return;
    }
    if (part && parent?.local === part.kind && (tag.local === 'source' || tag.local === 'target')) {
      collecting = tag.local;
      collected = '';
    }
  });
  parser.on('text', (chunk) => {
    countText(chunk.length);
    if (collecting) collected += chunk;
  });
  parser.on('cdata', (chunk) => {
    countText(chunk.length);
    if (collecting) collected += chunk;
  });
  parser.on('closetag', () => {
    const tag = stack.pop();
    namespaces.leave();
    if (!tag) return;
    if (collecting && tag.uri === xliffNamespace && tag.local === collecting && stack.length > 0) {
      const parent = stack.at(-1);
      if (part && parent?.local === part.kind) {
        part[collecting] = collected;
        collecting = null;
      }
      return;
    }
    if (tag.uri !== xliffNamespace) return;
    if (tag.local === 'unit' && unit) {
      units.push(unit);
      unit = null;
    } else if ((tag.local === 'segment' || tag.local === 'ignorable') && part) {
      part = null;
    }
  });
  const whereUnit = () => (unit ? `unit ${unit.id || '(no id)'} (line ${unit.line})` : `line ${parser.line}`);

  try {
    for (const chunk of inChunks(text)) {
      parser.write(chunk);
      // Other requests are answered between chunks: a large file never holds the server up for long.
      await setImmediate();
    }
    parser.close();
  } catch (error) {
    if (error instanceof XliffLimitError) problems.file(error.message);
    else {
      const message =
        error instanceof XmlNamespaceError
          ? `${error.message} (at ${where()})`
          : (xmlError ?? (error instanceof Error ? error.message : String(error)));
      problems.file(`is not well-formed XML: ${message}`);
    }
    problems.fail();
  }

  const rootTag = root as XmlElement | null;
  if (rootTag?.local !== 'xliff' || rootTag.uri !== xliffNamespace) {
    problems.file(
      rootTag?.local === 'xliff'
        ? `is XLIFF in the namespace ${rootTag.uri || '(none)'}: Letterset reads XLIFF 2.0 (${xliffNamespace})`
        : 'is not an XLIFF 2.0 document (its root element must be <xliff>)',
    );
    problems.fail();
  }
  const version = rootTag.attributes.version ?? '';
  if (!/^2\.\d+$/.test(version)) {
    problems.file(`has version "${version}": Letterset reads XLIFF 2.0 and 2.1`);
  }
  const sourceLanguage = rootTag.attributes.srcLang ?? '';
  const targetLanguage = rootTag.attributes.trgLang ?? '';
  if (sourceLanguage.toLowerCase() !== locales.defaultLocale.toLowerCase()) {
    problems.at(
      'srcLang',
      `is ${sourceLanguage || 'missing'}, but the email's default locale is ${locales.defaultLocale}`,
    );
  }
  let targetLocale = '';
  if (targetLanguage === '') {
    problems.at('trgLang', 'is missing: it names the locale the file translates into');
  } else {
    const column = localeColumn(targetLanguage, locales);
    if (column.kind === 'problem') problems.at('trgLang', column.message);
    else if (column.kind === 'source') {
      problems.at(
        'trgLang',
        `is ${locales.defaultLocale}, the email's default locale: its texts are the source`,
      );
    } else targetLocale = column.locale;
  }
  problems.throwIfAny();

  const entries: ImportedTranslations['entries'] = [];
  let skipped = 0;
  const lineOfUnit = new Map<string, number>();
  for (const reading of units) {
    const where = `unit ${reading.id || '(no id)'} (line ${reading.line})`;
    if (reading.id === '') {
      problems.at(where, 'has no id: the id names the value it translates');
      continue;
    }
    const earlier = lineOfUnit.get(reading.id);
    if (earlier !== undefined) {
      problems.at(where, `is also the id of the unit on line ${earlier}: each value has one unit`);
      continue;
    }
    lineOfUnit.set(reading.id, reading.line);
    const segments = reading.parts.filter((candidate) => candidate.kind === 'segment');
    const translated = segments.filter((segment) => segment.target !== null);
    if (translated.length === 0) {
      skipped += 1;
      entries.push({ key: reading.id, where, texts: [] });
      continue;
    }
    if (translated.length < segments.length) {
      problems.at(where, 'has segments without a <target>: translate every segment of the unit');
      continue;
    }
    // An ignorable without a target keeps its source (white space between segments).
    const joined = reading.parts.map((candidate) => candidate.target ?? candidate.source).join('');
    if (joined === '') {
      skipped += 1;
      entries.push({ key: reading.id, where, texts: [] });
      continue;
    }
    entries.push({ key: reading.id, where, texts: [{ locale: targetLocale, text: joined, where }] });
  }
  return { locales: [targetLocale], entries, skipped: { [targetLocale]: skipped }, problems };
}
