import { type Context, Drop, type Emitter, Output } from 'liquidjs';

/**
 * A faster `{{ path.to.value | filters }}` for LiquidJS.
 *
 * LiquidJS evaluates every output through nested generators (expression → token → property →
 * scope), which is most of the time an email render takes. Outputs that read a plain path
 * (`{{ headline }}`, `{{ render_context.design_tokens.colors.text }}`) are the bulk of an email
 * template, so for those the path is looked up directly. The result is identical: anything the
 * direct lookup does not handle exactly as LiquidJS does (drops, `toLiquid`, functions, `size` /
 * `first` / `last`, array indexes, string properties, strict variables, computed keys) falls back
 * to LiquidJS's own evaluation, and filters still run through LiquidJS. `filterFastPaths` lets
 * a filter with a plain synchronous handler (the output escape) skip the generator as well.
 */

const notHandled = Symbol('notHandled');
const planKey = Symbol('lettersetOutputPlan');

type Plan = { kind: 'literal'; value: unknown } | { kind: 'path'; keys: string[] } | { kind: 'slow' };

interface FilterLike {
  handler: (this: unknown, value: unknown, ...args: unknown[]) => unknown;
  args: unknown[];
  token: unknown;
  liquid: unknown;
  render(value: unknown, context: Context): Generator<unknown, unknown, unknown>;
}

interface OutputInternals {
  value: { initial: { postfix?: unknown[] }; filters: FilterLike[] };
  [planKey]?: Plan;
}

/** Filter handlers known to be synchronous and argument-free, called without a generator. */
export const filterFastPaths = new Set<FilterLike['handler']>();

function planFor(output: OutputInternals): Plan {
  const postfix = output.value.initial.postfix;
  if (!Array.isArray(postfix) || postfix.length !== 1) return { kind: 'slow' };
  const token = postfix[0] as { content?: unknown; variable?: unknown; props?: unknown[] };
  if ('content' in token && !('props' in token)) return { kind: 'literal', value: token.content };
  if (token.variable || !Array.isArray(token.props) || token.props.length === 0) return { kind: 'slow' };
  const keys: string[] = [];
  for (const prop of token.props as { content?: unknown }[]) {
    if (!('content' in prop) || typeof prop.content !== 'string') return { kind: 'slow' };
    if (prop.content === 'size' || prop.content === 'first' || prop.content === 'last')
      return { kind: 'slow' };
    keys.push(prop.content);
  }
  return { kind: 'path', keys };
}

const hasOwn = Object.prototype.hasOwnProperty;

function isPlainData(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || value instanceof Drop)
    return false;
  return typeof (value as { toLiquid?: unknown }).toLiquid !== 'function';
}

function lookUp(context: Context, keys: readonly string[]): unknown {
  const [first, ...rest] = keys as [string, ...string[]];
  const scope = (context as unknown as { findScope(key: string): unknown }).findScope(first);
  if (!isPlainData(scope)) return notHandled;
  let value: unknown = scope;
  for (const key of [first, ...rest]) {
    if (value === null || value === undefined) return value;
    if (!isPlainData(value)) return notHandled;
    value = hasOwn.call(value, key) ? value[key] : undefined;
    if (typeof value === 'function') return notHandled;
  }
  return value;
}

/**
 * Writes an output without any generator when its value is a plain path or literal and its
 * filters are all fast-path filters; returns false (having written nothing) otherwise.
 */
export function renderOutputSync(candidate: Output, context: Context, emitter: Emitter): boolean {
  if ((context as unknown as { strictVariables: boolean }).strictVariables) return false;
  const output = candidate as unknown as OutputInternals;
  output[planKey] ??= planFor(output);
  const plan = output[planKey];
  if (plan.kind === 'slow') return false;
  const filters = output.value.filters;
  for (const filter of filters) {
    if (filter.args.length > 0 || !filterFastPaths.has(filter.handler)) return false;
  }
  let value = plan.kind === 'literal' ? plan.value : lookUp(context, plan.keys);
  if (value === notHandled) return false;
  for (const filter of filters) {
    value = filter.handler.call({ context, token: filter.token, liquid: filter.liquid }, value);
  }
  emitter.write(value instanceof Drop ? value.valueOf() : value);
  return true;
}

let installed = false;

/** Installs the fast path on LiquidJS's Output (once; it is shared by every engine). */
export function installFastOutput(): void {
  if (installed) return;
  installed = true;
  const slowRender = Output.prototype.render;
  Output.prototype.render = function* render(
    this: Output,
    context: Context,
    emitter: Emitter,
  ): Generator<unknown, void, unknown> {
    const output = this as unknown as OutputInternals;
    output[planKey] ??= planFor(output);
    const plan = output[planKey];
    if (plan.kind === 'slow' || (context as unknown as { strictVariables: boolean }).strictVariables) {
      return yield* slowRender.call(this, context, emitter) as Generator<unknown, void, unknown>;
    }
    let value = plan.kind === 'literal' ? plan.value : lookUp(context, plan.keys);
    if (value === notHandled)
      return yield* slowRender.call(this, context, emitter) as Generator<unknown, void, unknown>;
    for (const filter of output.value.filters) {
      if (filter.args.length === 0 && filterFastPaths.has(filter.handler)) {
        value = filter.handler.call({ context, token: filter.token, liquid: filter.liquid }, value);
      } else {
        value = yield filter.render(value, context);
      }
    }
    const plain = value instanceof Drop ? value.valueOf() : value;
    emitter.write(plain);
  };
}
