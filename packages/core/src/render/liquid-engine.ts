import {
  CaptureTag,
  type Context,
  Drop,
  type Emitter,
  filters,
  Liquid,
  LiquidError,
  Output,
  RenderError,
  type Template,
  TokenKind,
  toValue,
} from 'liquidjs';
import { filterFastPaths, installFastOutput, renderOutputSync } from './fast-output.ts';

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
function escapeOutput(this: unknown, value: unknown): string {
  if (value instanceof HtmlValue) return value.html;
  return (filters.escape as (this: unknown, value: unknown) => string).call(this, value);
}

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

installFastOutput();
filterFastPaths.add(escapeOutput as (this: unknown, value: unknown) => unknown);

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
  installFastRenderLoop(engine);
  return engine;
}

function stringify(value: unknown): string {
  const plain = toValue(value);
  if (typeof plain === 'string') return plain;
  if (plain === null || plain === undefined) return '';
  if (Array.isArray(plain)) return plain.map(stringify).join('');
  return String(plain);
}

interface RenderLimiter {
  check(now: number): void;
}

/**
 * LiquidJS's render loop, minus a generator per node for the two commonest nodes: literal HTML
 * and plain-path outputs (`renderOutputSync`). Tags still render through LiquidJS. The time
 * limit is checked when a block starts and before each tag, so every loop iteration is still
 * checked. Errors are wrapped exactly as LiquidJS wraps them (these engines never collect them).
 */
function installFastRenderLoop(engine: Liquid): void {
  const renderer = engine.renderer as unknown as {
    renderTemplates(
      templates: Template[],
      context: Context,
      emitter?: Emitter,
    ): Generator<unknown, string, unknown>;
  };
  renderer.renderTemplates = function* renderTemplates(templates, context, givenEmitter) {
    const emitter =
      givenEmitter ??
      ({
        buffer: '',
        write(html: unknown) {
          this.buffer += stringify(html);
        },
      } as Emitter & { buffer: string });
    const limiter = (context as unknown as { renderLimit: RenderLimiter }).renderLimit;
    limiter.check(performance.now());
    for (const template of templates) {
      try {
        const node = template as Template & { token: { kind: number }; str?: string };
        if (node.token.kind === TokenKind.HTML && typeof node.str === 'string') {
          emitter.write(node.str);
          continue;
        }
        if (template instanceof Output && renderOutputSync(template, context, emitter)) continue;
        limiter.check(performance.now());
        const html = yield template.render(context, emitter);
        if (html) emitter.write(html);
        const flow = context as unknown as { breakCalled: boolean; continueCalled: boolean };
        if (flow.breakCalled || flow.continueCalled) break;
      } catch (error) {
        throw LiquidError.is(error) ? error : new RenderError(error as Error, template);
      }
    }
    return (emitter as Emitter & { buffer: string }).buffer;
  };
}

/** The engine for HTML output: `{{ }}` escapes. */
export const liquid = createEngine(true);
/**
 * The engine for `output_format: "plaintext"`: text is not HTML there, so `{{ }}` prints values
 * as they are (an `&` stays an `&`).
 */
export const plainTextLiquid = createEngine(false);

const maxCachedTemplates = 1000;
const parsedTemplates = new Map<Liquid, Map<string, Template[]>>([
  [liquid, new Map()],
  [plainTextLiquid, new Map()],
]);

/** Parses a template once per distinct text; throws LiquidJS's errors for broken templates. */
export function parseTemplate(template: string, engine: Liquid = liquid): Template[] {
  const cache = parsedTemplates.get(engine) ?? new Map<string, Template[]>();
  const cached = cache.get(template);
  if (cached) return cached;
  const parsed = engine.parse(template);
  // A simple bound: editing a template in the builder produces many versions of its text.
  if (cache.size >= maxCachedTemplates) cache.clear();
  cache.set(template, parsed);
  parsedTemplates.set(engine, cache);
  return parsed;
}
