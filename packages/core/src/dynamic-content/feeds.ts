import { Liquid } from 'liquidjs';
import type { FieldDefinition } from '../fields/types.ts';
import { defaultRenderLimits, parseTemplate } from '../render/liquid-engine.ts';
import { installSyncRender } from '../render/sync-render.ts';

/**
 * Every `{{ }}` of a feed URL prints its value percent-encoded (`encodeURIComponent`), so what an
 * editor user types stays one value of its path segment or query parameter: `a&b=c/../x?y#z`
 * can add no parameter, climb no path and cut no fragment. `url_encode` (Liquid's, spaces as `+`)
 * is already encoded and is printed as it is; `raw` is an ordinary filter here, so nothing opts out.
 */
function createFeedUrlEngine(): Liquid {
  const engine = new Liquid({
    strictFilters: true,
    strictVariables: false,
    ownPropertyOnly: true,
    outputEscape: (value: unknown) => encodeURIComponent(stringOf(value)),
    renderLimit: defaultRenderLimits.renderLimitMs,
    memoryLimit: defaultRenderLimits.memoryLimit,
    cache: false,
  });
  engine.registerFilter('url_encode', {
    handler: (value: unknown) => encodeURIComponent(stringOf(value)).replace(/%20/g, '+'),
    raw: true,
  });
  engine.registerFilter('raw', (value: unknown) => value);
  installSyncRender(engine);
  return engine;
}

function stringOf(value: unknown): string {
  if (value === null || value === undefined) return '';
  return Array.isArray(value) ? value.map(stringOf).join('') : String(value);
}

const feedUrlLiquid = createFeedUrlEngine();

/**
 * A feed's URL is Liquid over `parameters` (the values the editor user typed), e.g.
 * `https://example.com/api/products/{{ parameters.product_id }}`; each printed value is
 * URL-encoded (see `createFeedUrlEngine`).
 */
export function renderFeedUrl(
  template: string,
  parameters: Record<string, string>,
  /** The time the template may take; the server gives the rest of its request's budget. */
  renderLimitMs: number = defaultRenderLimits.renderLimitMs,
): string {
  const url = feedUrlLiquid
    .renderSync(parseTemplate(template, feedUrlLiquid), { parameters }, { renderLimit: renderLimitMs })
    .trim();
  if (hasDotSegment(url)) {
    throw new Error('a path segment of the URL is "." or "..", which would move the address up its path');
  }
  return url;
}

/**
 * Whether the URL's path has a "." or ".." segment. URL parsers remove them, climbing the path,
 * even percent-encoded ("%2e%2e"), so encoding cannot keep a value of ".." in its place: such a
 * URL is refused instead.
 */
function hasDotSegment(url: string): boolean {
  const authorityStart = url.indexOf('//');
  const pathStart = authorityStart === -1 ? -1 : url.indexOf('/', authorityStart + 2);
  if (pathStart === -1) return false;
  const path = url.slice(pathStart).split(/[?#]/, 1)[0] ?? '';
  return path.split('/').some((segment) => {
    const decoded = segment.toLowerCase().replaceAll('%2e', '.');
    return decoded === '.' || decoded === '..';
  });
}

/**
 * Splits a JSON path into keys. Accepted forms: `$.product.name`, `product.name`,
 * `items[0].price`, `items.0.price`, `$['odd key'].value`. An empty path or `$` is the root.
 */
export function parseJsonPath(path: string): (string | number)[] | null {
  let rest = path.trim();
  if (rest.startsWith('$')) rest = rest.slice(1);
  const keys: (string | number)[] = [];
  const segment =
    /^(?:\.?([A-Za-z_$][\w$-]*|\d+)|\[(\d+)\]|\[\s*'((?:[^'\\]|\\.)*)'\s*\]|\[\s*"((?:[^"\\]|\\.)*)"\s*\])/;
  while (rest.length > 0) {
    const match = segment.exec(rest);
    if (!match) return null;
    const [whole, name, index, singleQuoted, doubleQuoted] = match;
    if (name !== undefined) keys.push(/^\d+$/.test(name) ? Number(name) : name);
    else if (index !== undefined) keys.push(Number(index));
    else keys.push((singleQuoted ?? doubleQuoted ?? '').replaceAll(/\\(.)/g, '$1'));
    rest = rest.slice(whole.length);
  }
  return keys;
}

const hasOwn = Object.prototype.hasOwnProperty;

/** The value at a JSON path, or undefined when the path is invalid or leads nowhere. */
export function extractJsonPath(data: unknown, path: string): unknown {
  const keys = parseJsonPath(path);
  if (keys === null) return undefined;
  let value: unknown = data;
  for (const key of keys) {
    if (value === null || typeof value !== 'object') return undefined;
    if (Array.isArray(value)) {
      if (typeof key !== 'number') return undefined;
      value = value[key];
    } else {
      const name = String(key);
      value = hasOwn.call(value, name) ? (value as Record<string, unknown>)[name] : undefined;
    }
  }
  return value;
}

/** A feed's fields (key → JSON path) read from a response body; missing values are null. */
export function extractFeedFields(
  data: unknown,
  fields: readonly { key: string; value: string }[],
): Record<string, unknown> {
  const extracted: Record<string, unknown> = {};
  for (const field of fields) extracted[field.key] = extractJsonPath(data, field.value) ?? null;
  return extracted;
}

/**
 * The values a component's fields take from a feed run: each field with a `feed_field_name`
 * gets that feed field's value (by liquid variable); fields without one, or whose feed field
 * is missing, are not in the result.
 */
export function feedFieldValues(
  definitions: readonly FieldDefinition[],
  extracted: Record<string, unknown>,
): Record<string, string | number | boolean> {
  const values: Record<string, string | number | boolean> = {};
  for (const definition of definitions) {
    const name = definition.feed_field_name;
    if (!name || !hasOwn.call(extracted, name)) continue;
    const value = extracted[name];
    if (value === null || value === undefined) continue;
    values[definition.liquid_variable] =
      typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
        ? value
        : JSON.stringify(value);
  }
  return values;
}
