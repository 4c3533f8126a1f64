import { compile } from 'css-select';
import { type ChildNode, type Document, type Element, isTag, isText } from 'domhandler';
import { parseDocument } from 'htmlparser2';
import juice from 'juice';
import postcss, { type Declaration as CssDeclaration } from 'postcss';
import safeParser from 'postcss-safe-parser';
import selectorParser from 'postcss-selector-parser';
import { LruCache } from './lru-cache.ts';
import { serializeHtml } from './serialize-html.ts';

/**
 * Moves `<style>` rules into `style` attributes for clients that ignore style blocks. Media
 * queries (responsive and dark-mode rules) stay in a `<style>` block, because they cannot be
 * inlined; `!important` survives, so mobile rules can still win over inlined ones.
 *
 * The answer is exactly what juice gives with `juiceOptions` (equivalence tests hold the two
 * together), but computed without juice's per-call costs: the style sheets are parsed once per
 * distinct text, each selector is compiled once, and each `style` attribute text is parsed once,
 * all kept in bounded caches; a document then costs one parse, one matching pass per rule and one
 * serialization. Anything this path does not reproduce exactly (nested CSS, CSS variables, juice's
 * control comments and attributes, jQuery-style positional selectors) goes through juice itself.
 */
export function inlineCss(html: string): string {
  return inlineCssKeepingDocument(html).html;
}

/**
 * `inlineCss`, and the parsed document the answer was serialized from, for work that would
 * otherwise parse it again (the plain-text version); null when there is none to give (juice did
 * the work, or template code was set aside from the parser).
 */
export function inlineCssKeepingDocument(html: string): { html: string; document: Document | null } {
  try {
    return inlineFast(html);
  } catch (error) {
    if (error instanceof NeedsJuice) return { html: inlineCssWithJuice(html), document: null };
    throw error;
  }
}

/** The options Letterset has always inlined with. */
const juiceOptions = {
  preserveMediaQueries: true,
  preserveFontFaces: true,
  preserveImportant: true,
  removeStyleTags: true,
  applyWidthAttributes: false,
  applyHeightAttributes: false,
  insertPreservedExtraCss: true,
};

/** juice itself: the reference the fast path is held to, and its fall-back. */
export function inlineCssWithJuice(html: string): string {
  return juice(html, juiceOptions);
}

/** Thrown when a document uses something only juice handles exactly. */
class NeedsJuice extends Error {}

// juice's own lists (lib/inline.js), for the options above.
const ignoredPseudos = new Set([
  'hover',
  'active',
  'focus',
  'visited',
  'link',
  'first-letter',
  'first-line',
  'marker',
  'selection',
  'placeholder',
]);
const nonVisualElements = new Set(['head', 'title', 'base', 'link', 'style', 'meta', 'script', 'noscript']);
const tableElements = new Set([
  'table',
  'th',
  'tr',
  'td',
  'caption',
  'colgroup',
  'col',
  'thead',
  'tbody',
  'tfoot',
]);
const styleToAttribute: Record<string, string> = {
  'background-color': 'bgcolor',
  'background-image': 'background',
  'text-align': 'align',
  'vertical-align': 'valign',
};
const pseudoElements = new Set([':before', '::before', ':after', '::after']);
/** Selectors only cheerio-select understands (jQuery positionals). */
const positionalPseudo = /:(?:first|last|eq|nth|gt|lt|even|odd)(?![\w-])/i;
/** juice resolves `var()` against custom properties up the tree; that stays with juice. */
const cssVariableUse = /var\s*\(/i;

interface Declaration {
  name: string;
  value: string;
  /** `[line, column]` of the declaration in its style sheet: later wins among equals. */
  line: number;
  column: number;
}

/** A declaration as it ranks where it applies: `[specificity + importance…, line, column]`. */
interface RankedDeclaration extends Declaration {
  rank: readonly number[];
}

/** One selector of a rule (`a, b {}` is two), with the rule's declarations. */
interface InlineRule extends CompiledSelector {
  declarations: RankedDeclaration[];
}

/** A declaration as applied to one element (juice's `Property`). */
interface AppliedProperty {
  name: string;
  value: string;
  /** What the declaration came from: a rule, or the element's own `style` attribute. */
  source: object;
  rank: readonly number[];
  /** Another declaration of the same property by the same source, kept alongside (juice does). */
  next: AppliedProperty | undefined;
}

interface ElementStyle {
  element: Element;
  properties: Map<string, AppliedProperty>;
  /** A `style` attribute that is not valid CSS, kept as written after the inlined declarations. */
  rawStyle: string | undefined;
}

// The same kind of cache juice keeps none of: keyed by text, so a changed design system simply
// misses and the old entry ages out.
/** Parsed style sheets by their text; `'juice'` for those only juice inlines exactly. */
const styleSheets = new LruCache<string, StyleSheet | 'juice'>(
  200,
  (css) => 1 + Math.ceil(css.length / 4096),
);
const preservedStyles = new LruCache<string, string | null>(500);
const styleAttributes = new LruCache<string, RankedDeclaration[] | null>(5000);
const compiledSelectors = new LruCache<string, CompiledSelector | null>(5000);

interface CompiledSelector {
  matches: (element: Element) => boolean;
  specificity: readonly [number, number, number, number];
  /**
   * What any element it matches must have, from the selector's last compound (`#id`, `.class` or
   * a tag name): only the document's elements with it are tested. Null: every element is.
   */
  candidates: string | null;
}

function inlineFast(html: string): { html: string; document: Document | null } {
  if (html.includes('data-juice-')) throw new NeedsJuice();
  const codeBlocks: string[] = [];
  const document = parseDocument(protectCodeBlocks(html, codeBlocks), { decodeEntities: false });

  const elements = elementsOf(document);
  const cssTexts: string[] = [];
  for (const style of elements) {
    if (style.name !== 'style') continue;
    if (style.attribs['data-embed'] !== undefined) throw new NeedsJuice();
    const only = style.children.length === 1 ? style.children[0] : undefined;
    if (!only || !isText(only)) {
      removeNode(style);
      continue;
    }
    cssTexts.push(only.data);
    const preserved = preservedCss(only.data);
    if (preserved === null) removeNode(style);
    else only.data = preserved;
  }

  // The removed <style> elements stay in `elements`: like every <style>, they are never styled.
  const { rules, candidateKeys } = styleSheetRules(`${cssTexts.join('\n')}\n`);
  const index = candidateIndex(elements, candidateKeys);
  const styled = new Map<Element, ElementStyle>();
  for (const rule of rules) {
    const candidates = rule.candidates === null ? elements : (index.get(rule.candidates) ?? []);
    for (const element of candidates) {
      if (nonVisualElements.has(element.name.toLowerCase()) || !rule.matches(element)) continue;
      let style = styled.get(element);
      if (!style) {
        style = styleOf(element);
        styled.set(element, style);
      }
      applyDeclarations(style, rule.declarations, rule);
    }
  }
  for (const style of styled.values()) writeStyle(style);

  const inlined = serializeHtml(document.children);
  if (codeBlocks.length > 0) return { html: restoreCodeBlocks(inlined, codeBlocks), document: null };
  return { html: inlined, document };
}

const usualCodeBlockStarts = new Set(['<%', '{{', '<#', '</#', '<@', '</@']);
const usualCodeBlockStart = /<[%#@]|<\/[#@]|\{\{/;

/** juice hides template code (`{{ }}`, `<% %>`, …) from the HTML parser and puts it back after. */
function protectCodeBlocks(html: string, blocks: string[]): string {
  const definitions = Object.values(juice.codeBlocks);
  // One scan for juice's usual openers (`<%`, `{{`, `<#`, `</#`, `<@`, `</@`) rules most documents out.
  if (definitions.every(({ start }) => usualCodeBlockStarts.has(start)) && !usualCodeBlockStart.test(html)) {
    return html;
  }
  let protectedHtml = html;
  for (const { start, end } of definitions) {
    if (!protectedHtml.includes(start)) continue;
    protectedHtml = protectedHtml.replace(new RegExp(`${start}([\\S\\s]*?)${end}`, 'g'), (block) => {
      blocks.push(block);
      return `JUICE_CODE_BLOCK_${blocks.length - 1}_`;
    });
  }
  return protectedHtml;
}

function restoreCodeBlocks(html: string, blocks: readonly string[]): string {
  let restored = html;
  blocks.forEach((block, index) => {
    restored = restored.replace(new RegExp(`JUICE_CODE_BLOCK_${index}_(="")?`, 'gi'), () => block);
  });
  return restored;
}

/** The elements, in document order. */
function elementsOf(document: Document): Element[] {
  const found: Element[] = [];
  const visit = (nodes: ChildNode[]) => {
    for (const node of nodes) {
      if (!isTag(node)) continue;
      found.push(node);
      visit(node.children);
    }
  };
  visit(document.children);
  return found;
}

/**
 * The elements by the tag names, classes and ids the rules look for (`CompiledSelector.candidates`),
 * each list in document order.
 */
function candidateIndex(elements: readonly Element[], keys: ReadonlySet<string>): Map<string, Element[]> {
  const index = new Map<string, Element[]>();
  if (keys.size === 0) return index;
  const add = (key: string, element: Element) => {
    if (!keys.has(key)) return;
    const list = index.get(key);
    if (!list) index.set(key, [element]);
    else if (list[list.length - 1] !== element) list.push(element);
  };
  for (const element of elements) {
    add(`<${element.name}`, element);
    const { class: classes, id } = element.attribs;
    if (id !== undefined) add(`#${id}`, element);
    if (classes) for (const name of classes.split(/\s+/)) if (name) add(`.${name}`, element);
  }
  return index;
}

/** The candidates key of a selector: its last compound's id, else a class, else its tag name. */
function candidatesKey(selector: selectorParser.Selector): string | null {
  let id: string | null = null;
  let className: string | null = null;
  let tag: string | null = null;
  for (const node of selector.nodes) {
    if (node.type === 'combinator') {
      id = className = tag = null;
    } else if (node.type === 'id') id ??= `#${node.value}`;
    else if (node.type === 'class') className ??= `.${node.value}`;
    else if (node.type === 'tag' && node.value !== '*' && !node.namespace)
      tag = `<${node.value.toLowerCase()}`;
  }
  return id ?? className ?? tag;
}

function removeNode(node: ChildNode): void {
  const siblings = node.parent?.children;
  if (!siblings) return;
  const index = siblings.indexOf(node);
  const previous = node.prev;
  const next = node.next;
  if (previous) previous.next = next;
  if (next) next.prev = previous;
  siblings.splice(index, 1);
  node.parent = null;
  node.prev = null;
  node.next = null;
}

/**
 * What stays of a `<style>` block (media queries, font faces, rules with pseudo-classes), or null
 * when nothing does. Computed by juice itself on the block alone, once per distinct text.
 */
function preservedCss(css: string): string | null {
  const cached = preservedStyles.get(css);
  if (cached !== undefined) return cached;
  const output = inlineCssWithJuice(`<style>${css}</style>`);
  const match = /^<style>([\s\S]*)<\/style>$/.exec(output);
  if (!match && output !== '') throw new NeedsJuice();
  const preserved = match ? (match[1] as string) : null;
  preservedStyles.set(css, preserved);
  return preserved;
}

interface StyleSheet {
  rules: InlineRule[];
  /** Every `candidates` key of the rules. */
  candidateKeys: Set<string>;
}

/** The inlinable rules of a document's style sheets, as juice reads them (`utils.parseCSS`). */
function styleSheetRules(css: string): StyleSheet {
  const cached = styleSheets.get(css);
  if (cached === 'juice') throw new NeedsJuice();
  if (cached) return cached;
  try {
    const sheet = parsedStyleSheet(css);
    styleSheets.set(css, sheet);
    return sheet;
  } catch (error) {
    // Remembered, so that the next document with these style sheets goes to juice at once.
    if (error instanceof NeedsJuice) styleSheets.set(css, 'juice');
    throw error;
  }
}

function parsedStyleSheet(css: string): StyleSheet {
  const rules: InlineRule[] = [];
  const root = safeParser(css);
  root.walkComments((comment) => {
    // juice's `juice ignore` directives.
    if (/^\s*juice\b/.test(comment.text)) throw new NeedsJuice();
  });
  for (const node of root.nodes) {
    if (node.type !== 'rule') continue;
    const declarations: Declaration[] = [];
    for (const child of node.nodes) {
      // Nested rules are flattened by juice's nesting plugin.
      if (child.type === 'rule' || child.type === 'atrule') throw new NeedsJuice();
      if (child.type === 'decl' && child.value.trim()) declarations.push(declarationOf(child));
    }
    if (declarations.length === 0) continue;
    for (const selector of node.selectors) {
      const compiled = compiledSelector(selector);
      if (compiled) rules.push({ ...compiled, declarations: ranked(declarations, compiled.specificity) });
    }
  }
  return {
    rules,
    candidateKeys: new Set(rules.flatMap((rule) => (rule.candidates === null ? [] : [rule.candidates]))),
  };
}

/** juice's `Property` priority: `!important` adds 2 to the first place, then the position decides ties. */
function ranked(
  declarations: readonly Declaration[],
  specificity: Readonly<Specificity>,
): RankedDeclaration[] {
  return declarations.map((declaration) => {
    const important = declaration.value.endsWith('!important');
    const [styleAttribute, ids, classes, types] = specificity;
    const first = styleAttribute + (important ? 2 : 0);
    return { ...declaration, rank: [first, ids, classes, types, declaration.line, declaration.column] };
  });
}

function declarationOf(declaration: CssDeclaration): Declaration {
  const value = declaration.value + (declaration.important ? ' !important' : '');
  if (cssVariableUse.test(value)) throw new NeedsJuice();
  const start = declaration.source?.start;
  return { name: declaration.prop, value, line: start?.line ?? 1, column: start?.column ?? 1 };
}

const selectorProcessor = selectorParser();

/** A selector as juice uses it, or null for one juice skips (ignored pseudos, pseudo-elements, invalid). */
function compiledSelector(selector: string): CompiledSelector | null {
  const cached = compiledSelectors.get(selector);
  if (cached !== undefined) return cached;
  if (selector.includes('&') || positionalPseudo.test(selector)) throw new NeedsJuice();
  let compiled: CompiledSelector | null = null;
  const parsed = parsedSelector(selector);
  const first = parsed?.nodes[0];
  if (first) {
    let skipped = false;
    first.walkPseudos((pseudo) => {
      // Rules for ignored pseudo-classes stay in <style>; pseudo-element rules are not written
      // into the document unless juice is asked to create the elements (it is not).
      if (ignoredPseudos.has(pseudo.value.replace(/^:+/, '')) || pseudoElements.has(pseudo.value)) {
        skipped = true;
      }
    });
    if (!skipped) {
      try {
        compiled = {
          matches: compile<ChildNode, Element>(selector),
          specificity: specificityOf(first, false),
          candidates: candidatesKey(first),
        };
      } catch {
        compiled = null;
      }
    }
  }
  compiledSelectors.set(selector, compiled);
  return compiled;
}

function parsedSelector(selector: string): selectorParser.Root | null {
  try {
    return selectorProcessor.astSync(selector);
  } catch {
    return null;
  }
}

type Specificity = [number, number, number, number];

/** juice's specificity (lib/selector.js): `[style attribute, ids, classes, types]`. */
function specificityOf(selector: selectorParser.Selector, styleAttribute: boolean): Specificity {
  const specificity: Specificity = [styleAttribute ? 1 : 0, 0, 0, 0];
  selector.each((node) => {
    if (node.type === 'id') specificity[1] += 1;
    else if (node.type === 'class' || node.type === 'attribute') specificity[2] += 1;
    else if (node.type === 'tag') {
      if (node.value !== '*') specificity[3] += 1;
    } else if (node.type === 'pseudo') {
      const name = node.value.toLowerCase();
      if (name === ':where') return;
      if ((name === ':is' || name === ':has' || name === ':not') && node.nodes.length > 0) {
        let highest: Specificity | null = null;
        for (const inner of node.nodes) {
          const candidate = specificityOf(inner, false);
          if (!highest || compareRanks(candidate, highest) > 0) highest = candidate;
        }
        const [styleFlag, ids, classes, types] = highest ?? [0, 0, 0, 0];
        specificity[0] += styleFlag;
        specificity[1] += ids;
        specificity[2] += classes;
        specificity[3] += types;
      } else {
        specificity[3] += 1;
      }
    }
  });
  return specificity;
}

/** juice's `utils.compareFunc`: element by element, then the longer wins. */
function compareRanks(left: readonly number[], right: readonly number[]): number {
  const length = Math.min(left.length, right.length);
  for (let index = 0; index < length; index += 1) {
    if (left[index] === right[index]) continue;
    return (left[index] as number) > (right[index] as number) ? 1 : -1;
  }
  return left.length - right.length;
}

const styleAttributeSpecificity: Specificity = [1, 0, 0, 0];

/** An element's own `style` declarations come first, ranked above any rule (juice's fake selector). */
function styleOf(element: Element): ElementStyle {
  const style: ElementStyle = { element, properties: new Map(), rawStyle: undefined };
  const attribute = element.attribs.style;
  if (attribute) {
    const declarations = styleAttributeDeclarations(attribute);
    if (declarations === null) style.rawStyle = attribute.trim();
    else applyDeclarations(style, declarations, {});
  }
  return style;
}

/** A `style` attribute's declarations, or null when it is not valid CSS (juice then keeps it raw). */
function styleAttributeDeclarations(attribute: string): RankedDeclaration[] | null {
  const cached = styleAttributes.get(attribute);
  if (cached !== undefined) return cached;
  if (/[{}]/.test(attribute) || /juice/.test(attribute)) throw new NeedsJuice();
  let declarations: RankedDeclaration[] | null = null;
  try {
    const rule = postcss.parse(`* { ${attribute} } `).first;
    if (rule?.type === 'rule') {
      const found: Declaration[] = [];
      for (const child of rule.nodes) {
        if (child.type === 'decl' && child.value.trim()) found.push(declarationOf(child));
      }
      declarations = found.length > 0 ? ranked(found, styleAttributeSpecificity) : null;
    }
  } catch {
    declarations = null;
  }
  styleAttributes.set(attribute, declarations);
  return declarations;
}

/** juice's `addProps`: a declaration replaces the one it outranks (or ties), same source kept together. */
function applyDeclarations(
  style: ElementStyle,
  declarations: readonly RankedDeclaration[],
  source: object,
): void {
  for (const declaration of declarations) {
    const existing = style.properties.get(declaration.name);
    if (existing && compareRanks(existing.rank, declaration.rank) === 1) continue;
    const property: AppliedProperty = {
      name: declaration.name,
      value: declaration.value,
      source,
      rank: declaration.rank,
      next: undefined,
    };
    if (existing && existing.source !== source) style.properties.delete(declaration.name);
    else if (existing) property.next = existing;
    style.properties.set(declaration.name, property);
  }
}

/** juice's `setStyleAttrs` and `setAttributesOnTableElements`. */
function writeStyle({ element, properties, rawStyle }: ElementStyle): void {
  const applied: AppliedProperty[] = [];
  for (const head of properties.values()) {
    for (let property: AppliedProperty | undefined = head; property; property = property.next) {
      applied.push(property);
    }
  }
  applied.sort((left, right) => compareRanks(left.rank, right.rank));
  let text = '';
  for (const property of applied) {
    if (property.name.startsWith('--') || property.name === 'content') continue;
    text += `${text ? ' ' : ''}${property.name}: ${property.value.replaceAll('"', "'")};`;
  }
  if (text && rawStyle) text += ` ${rawStyle}`;
  if (text) element.attribs.style = text;

  if (!tableElements.has(element.name.toLowerCase())) return;
  for (const [name, property] of properties) {
    const attribute = styleToAttribute[name];
    if (!attribute) continue;
    let value = property.value.replace(/\s*!important$/, '');
    if (attribute === 'background' && value.startsWith('url(')) {
      value = value.replace(/^url\((["'])?([^"']+)\1\)$/, '$2');
    }
    if (/(linear|radial)-gradient\(/i.test(value)) continue;
    element.attribs[attribute] = value;
  }
}
