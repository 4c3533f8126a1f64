import { CaptureTag, type Context, Drop, Liquid, type Template } from 'liquidjs';
import { LruCache } from './lru-cache.ts';
import { installSyncRender, stringify } from './sync-render.ts';

/**
 * Markup that `{{ }}` prints as-is: rich_text values (already sanitised), code values and the
 * container's `children`. Everything else is HTML-escaped on output (see `escapeOutput`).
 * Filters and operators see the plain string (LiquidJS unwraps drops through `valueOf`).
 */
export class HtmlValue extends Drop {
  readonly html: string;
  constructor(html: string) {
    super();
    this.html = html;
  }
  override valueOf(): string {
    return this.html;
  }
  override toString(): string {
    return this.html;
  }
  // `{{ body.size }}` and friends behave as on a string.
  override liquidMethodMissing(key: string | number): unknown {
    if (key === 'size') return this.html.length;
    if (key === 'first') return this.html[0];
    if (key === 'last') return this.html[this.html.length - 1];
    return undefined;
  }
}

/**
 * The escaping decision. Every `{{ }}` output is HTML-escaped (`&`, `<`, `>`, `"`, `'`), after its
 * filters ran, unless the value is an `HtmlValue` (rich_text, code, `children`) or the output
 * ends with `| raw`. So "Fish & Chips" in a text field prints as `Fish &amp; Chips`, a URL's `&`
 * becomes `&amp;` inside `href` (which browsers read back as `&`), and `{{ utm | url_encode }}`
 * still encodes the unescaped value. Use `| raw` to print a value into a `<style>` block, where
 * entities are not decoded (a font stack with quotes, say).
 */
function escapeOutput(this: FilterThis, value: unknown): string {
  if (value instanceof HtmlValue) return value.html;
  // LiquidJS's `escape` filter, byte for byte (`"` becomes `&#34;`), with its memory accounting,
  // minus the replace call for the many values that have nothing to escape.
  const text = typeof value === 'string' ? value : stringify(value);
  this.context.memoryLimit.use(text.length);
  return escapableCharacter.test(text) ? text.replace(escapableCharacters, escapeCharacter) : text;
}

interface FilterThis {
  context: { memoryLimit: { use(count: number): void } };
}

const escapableCharacter = /[&<>"']/;
const escapableCharacters = /[&<>"']/g;
const liquidEscapes: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&#34;',
  "'": '&#39;',
};
const escapeCharacter = (character: string) => liquidEscapes[character] ?? character;

/**
 * `{% capture %}` collects template output, which is markup already escaped where needed; it is
 * kept as `HtmlValue` so printing the captured variable does not escape it a second time.
 */
class HtmlCaptureTag extends CaptureTag {
  override *render(context: Context): Generator<unknown, void, string> {
    yield* super.render(context);
    const scope = context.bottom() as Record<string, unknown>;
    const captured = scope[this.variable];
    if (typeof captured === 'string') scope[this.variable] = new HtmlValue(captured);
  }
}

/** Defaults against runaway templates; a render may lower or raise them (`RenderInput.limits`). */
export const defaultRenderLimits = {
  /** Wall time one template may take to render. */
  renderLimitMs: 1000,
  /** LiquidJS's allocation budget: characters produced by filters plus items of ranges. */
  memoryLimit: 10_000_000,
} as const;

/** Template text longer than this is refused at parse time (about 1 MB). */
const parseLimit = 1_000_000;

function createEngine(escapeOutputs: boolean): Liquid {
  const engine = new Liquid({
    strictFilters: true,
    strictVariables: false,
    ownPropertyOnly: true,
    ...(escapeOutputs ? { outputEscape: escapeOutput } : {}),
    parseLimit,
    renderLimit: defaultRenderLimits.renderLimitMs,
    memoryLimit: defaultRenderLimits.memoryLimit,
    // Parsed templates are cached below by their text; LiquidJS's own cache is for files.
    cache: false,
  });
  if (escapeOutputs) engine.registerTag('capture', HtmlCaptureTag);
  installSyncRender(engine);
  return engine;
}

/** The engine for HTML output: `{{ }}` escapes. */
export const liquid = createEngine(true);
/**
 * The engine for `output_format: "plaintext"`: text is not HTML there, so `{{ }}` prints values
 * as they are (an `&` stays an `&`).
 */
export const plainTextLiquid = createEngine(false);

/**
 * Parsed templates by engine and template text. The text is the key, not a component id, so an
 * edited template (in place or as a new definition) is parsed afresh, and two design systems
 * share a parse only when their templates are the same text, which renders the same. Editing a
 * template in the builder produces many versions of its text; the least recently used go first.
 */
const maxCachedTemplates = 1000;
const parsedTemplates = new Map<Liquid, LruCache<string, Template[]>>([
  [liquid, new LruCache(maxCachedTemplates)],
  [plainTextLiquid, new LruCache(maxCachedTemplates)],
]);

/** Parses a template once per distinct text; throws LiquidJS's errors for broken templates. */
export function parseTemplate(template: string, engine: Liquid = liquid): Template[] {
  let cache = parsedTemplates.get(engine);
  if (!cache) {
    cache = new LruCache(maxCachedTemplates);
    parsedTemplates.set(engine, cache);
  }
  const cached = cache.get(template);
  if (cached) return cached;
  const parsed = engine.parse(template);
  cache.set(template, parsed);
  return parsed;
}
