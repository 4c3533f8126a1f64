import { type TranslationRow, textDirectionOf } from '@letterset/core';
import { SaxesParser, type SaxesTagNS } from 'saxes';
import {
  type ImportedTranslations,
  type ImportLocales,
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
 * The texts of an XLIFF 2.0 translation file for the email: its trgLang must be a locale of the
 * email other than the default one (srcLang, when given, the default one), unit ids are the keys,
 * and a unit's text is the concatenation of its segments' targets. Units without a target change
 * nothing. Inline markup (<ph>, <pc>, …) is refused: Letterset writes HTML as text to translate.
 * Parsed by saxes, a conforming XML parser: no DTD, no entity other than XML's own.
 */
export function readTranslationsXliff(bytes: Buffer, locales: ImportLocales): ImportedTranslations {
  const problems: TranslationFileProblems = new TranslationFileProblems('xliff_file');
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    problems.file('is not UTF-8 text: XLIFF files must be saved as UTF-8');
    problems.fail();
  }

  const parser = new SaxesParser({ xmlns: true, position: true });
  const units: UnitReading[] = [];
  let root: SaxesTagNS | null = null;
  let xmlError: string | null = null;
  /** Elements open right now, outermost first. */
  const stack: SaxesTagNS[] = [];
  let unit: UnitReading | null = null;
  let part: UnitReading['parts'][number] | null = null;
  /** Collecting the text of a <source> or <target> of the current part. */
  let collecting: 'source' | 'target' | null = null;
  let collected = '';

  parser.on('error', (error) => {
    xmlError ??= error.message;
    throw error;
  });
  parser.on('doctype', () => {
    xmlError ??= 'declares a DOCTYPE, which XLIFF files do not have';
    throw new Error(xmlError);
  });
  parser.on('opentag', (tag) => {
    const inXliff = tag.uri === xliffNamespace;
    if (stack.length === 0) root = tag;
    const parent = stack.at(-1);
    stack.push(tag);
    if (collecting) {
      if (inXliff && tag.local === 'cp') {
        const hex = tag.attributes.hex?.value ?? '';
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
      unit = { id: tag.attributes.id?.value ?? '', line: parser.line, parts: [] };
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
    if (collecting) collected += chunk;
  });
  parser.on('closetag', (tag) => {
    stack.pop();
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
    parser.write(text).close();
  } catch (error) {
    problems.file(
      `is not well-formed XML: ${xmlError ?? (error instanceof Error ? error.message : String(error))}`,
    );
    problems.fail();
  }

  const rootTag = root as SaxesTagNS | null;
  if (rootTag?.local !== 'xliff' || rootTag.uri !== xliffNamespace) {
    problems.file(
      rootTag?.local === 'xliff'
        ? `is XLIFF in the namespace ${rootTag.uri || '(none)'}: Letterset reads XLIFF 2.0 (${xliffNamespace})`
        : 'is not an XLIFF 2.0 document (its root element must be <xliff>)',
    );
    problems.fail();
  }
  const version = rootTag.attributes.version?.value ?? '';
  if (!/^2\.\d+$/.test(version)) {
    problems.file(`has version "${version}": Letterset reads XLIFF 2.0 and 2.1`);
  }
  const sourceLanguage = rootTag.attributes.srcLang?.value ?? '';
  const targetLanguage = rootTag.attributes.trgLang?.value ?? '';
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
