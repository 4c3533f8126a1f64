import fc from 'fast-check';
import { Drop, Liquid, LiquidError, type Template } from 'liquidjs';
import { describe, expect, it } from 'vitest';
import { diagnosticFromLiquidError } from './diagnostics.ts';
import { defaultRenderLimits, HtmlValue, liquid, parseTemplate, plainTextLiquid } from './liquid-engine.ts';

/*
 * The fast path (sync-render.ts, fast-output.ts) copies LiquidJS's render loop, its `if`, `case`
 * and `assign` tags and its value evaluation. Here generated templates and data render through
 * the core's engines and through stock LiquidJS built with the same options; the output, or the
 * error as the core reports it (kind, message, line, column), must be the same. A LiquidJS
 * upgrade that changes what the copied code does makes this fail.
 *
 * Left out on purpose, because they are not deterministic: the `sample` filter and `date` with
 * "now" (random and clock), and the render time limit (the fast loop checks the clock in fewer
 * places; the limit is set high so it never trips).
 */

// Stock LiquidJS with the core engines' options (liquid-engine.ts), including the HTML engine's
// output escaping and its `capture` tag, which are Letterset's and not part of the fast path.
function stockTwin(engine: Liquid, escapes: boolean): Liquid {
  const twin = new Liquid({
    strictFilters: true,
    strictVariables: false,
    ownPropertyOnly: true,
    ...(escapes ? { outputEscape: engine.options.outputEscape } : {}),
    parseLimit: engine.options.parseLimit,
    renderLimit: engine.options.renderLimit,
    memoryLimit: engine.options.memoryLimit,
    cache: false,
  });
  if (escapes) twin.registerTag('capture', engine.tags.capture as never);
  return twin;
}

const engines = {
  html: { fast: liquid, stock: stockTwin(liquid, true) },
  plaintext: { fast: plainTextLiquid, stock: stockTwin(plainTextLiquid, false) },
} as const;

// ---------------------------------------------------------------------------------------------
// Data

class Greeting extends Drop {
  override liquidMethodMissing(key: string | number): unknown {
    return `hello ${key}`;
  }
}

class Exploding extends Drop {
  override liquidMethodMissing(key: string | number): unknown {
    throw new Error(`no ${key} here`);
  }
}

const text = fc.oneof(
  fc.constantFrom(
    'Fish & chips',
    '<b>bold</b>',
    '',
    '  ',
    'a,b,c',
    '"quoted"',
    "it's",
    'x',
    'Zebra',
    'apple',
    'name',
    '10',
    '3.5',
    'line\nbreak',
    'a b  c ',
  ),
  fc.string({ unit: fc.constantFrom('a', 'B', ' ', '<', '>', '&', '"', "'", ',', '1', '\n'), maxLength: 8 }),
);
const number = fc.oneof(fc.integer({ min: -20, max: 20 }), fc.constantFrom(0.5, -2.5, 7.25, 1e21, 12.5));
const scalar = fc.oneof(text, number, fc.boolean(), fc.constant(null));
const item = fc.record({ name: text, n: number, tags: fc.array(text, { maxLength: 3 }) });

/** Plain data (printable in a failure message); `scopeOf` builds a fresh scope from it per render. */
const dataArbitrary = fc.record({
  s: text,
  n: number,
  f: fc.boolean(),
  arr: fc.array(scalar, { maxLength: 4 }),
  obj: fc.record(
    { a: scalar, b: fc.record({ c: scalar }), list: fc.array(number, { maxLength: 3 }), size: scalar },
    { requiredKeys: ['a', 'b', 'list'] },
  ),
  items: fc.array(item, { maxLength: 4 }),
  html: text,
  k: fc.constantFrom('a', 'b', 'name', 'size', 'missing'),
});

type Data = typeof dataArbitrary extends fc.Arbitrary<infer T> ? T : never;

function scopeOf(data: Data): Record<string, unknown> {
  const copy = structuredClone(data);
  return {
    ...copy,
    z: null,
    html: new HtmlValue(copy.html),
    greet: new Greeting(),
    boom: new Exploding(),
  };
}

// ---------------------------------------------------------------------------------------------
// Templates. Delimiters are written plain and whitespace control is applied afterwards (see
// `withTrims`); text and string literals never contain braces, so that is safe.

const variableNames = [
  's',
  'n',
  'f',
  'z',
  'arr',
  'obj',
  'items',
  'html',
  'k',
  'greet',
  'boom',
  'missing',
  'v1',
  'v2',
  'item',
  'forloop',
] as const;
const properties = [
  '.a',
  '.b',
  '.c',
  '.name',
  '.n',
  '.tags',
  '.list',
  '.size',
  '.first',
  '.last',
  '.index',
  '.index0',
  '.rindex',
  '.length',
  '.parentloop',
  '.constructor',
  '.__proto__',
  '[0]',
  '[-1]',
  '["a"]',
  '[k]',
] as const;

const path = fc
  .tuple(fc.constantFrom(...variableNames), fc.array(fc.constantFrom(...properties), { maxLength: 2 }))
  .map(([name, props]) => name + props.join(''));
const literal = fc.constantFrom(
  '"a<b"',
  "'x'",
  '""',
  '"Fish & chips"',
  '0',
  '1',
  '2.5',
  '-1',
  'true',
  'false',
  'nil',
  'empty',
  'blank',
  '(1..3)',
  '(n..2)',
);
const operand = fc.oneof({ weight: 3, arbitrary: path }, { weight: 2, arbitrary: literal });
// Operands of comparisons, `case` and `when` come from a small pool half the time, so that values
// often compare equal (several `when`s match, `blank == s`, `arr == obj.list`).
const caseOperand = fc.oneof(
  fc.constantFrom(
    '1',
    '"a"',
    '""',
    'nil',
    'empty',
    'blank',
    's',
    'n',
    'z',
    'k',
    'arr',
    'obj.list',
    'item',
    'v1',
  ),
  operand,
);
const smallNumber = fc.constantFrom('0', '1', '2', '-1', '2.5', 'n');
const quoted = fc.constantFrom('", "', '","', '"a"', '"<"', '" "', '"name"', '"n"', '""');

const filter = fc.oneof(
  fc.constantFrom(
    'upcase',
    'downcase',
    'capitalize',
    'size',
    'first',
    'last',
    'escape',
    'escape_once',
    'strip_html',
    'strip',
    'squish',
    'newline_to_br',
    'url_encode',
    'json',
    'reverse',
    'sort',
    'uniq',
    'compact',
    'sum',
    'abs',
    'ceil',
    'floor',
    'round',
    'to_integer',
    'number_of_words',
    'raw',
    'nonesuch',
  ),
  fc
    .tuple(
      fc.constantFrom('append', 'prepend', 'default', 'push', 'concat', 'where', 'join', 'split', 'remove'),
      operand,
    )
    .map(([name, argument]) => `${name}: ${argument}`),
  fc
    .tuple(
      fc.constantFrom(
        'plus',
        'minus',
        'times',
        'divided_by',
        'modulo',
        'at_least',
        'at_most',
        'round',
        'truncate',
        'truncatewords',
        'slice',
      ),
      smallNumber,
    )
    .map(([name, argument]) => `${name}: ${argument}`),
  fc
    .tuple(fc.constantFrom('join', 'split', 'remove', 'map', 'sort', 'where'), quoted)
    .map(([name, a]) => `${name}: ${a}`),
  fc.tuple(quoted, quoted).map(([a, b]) => `replace: ${a}, ${b}`),
  fc.tuple(smallNumber, smallNumber).map(([a, b]) => `slice: ${a}, ${b}`),
  fc.tuple(quoted, operand).map(([a, b]) => `where: ${a}, ${b}`),
  operand.map((a) => `default: ${a}, allow_false: true`),
);

const value = fc
  .tuple(operand, fc.array(filter, { maxLength: 3 }))
  .map(([first, filters]) => [first, ...filters].join(' | '));

const comparison = fc.oneof(
  operand,
  operand.map((a) => `not ${a}`),
  fc
    .tuple(caseOperand, fc.constantFrom('==', '!=', '>', '<', '>=', '<=', 'contains'), caseOperand)
    .map((parts) => parts.join(' ')),
);
const condition = fc
  .tuple(comparison, fc.array(fc.tuple(fc.constantFrom('and', 'or'), comparison), { maxLength: 2 }))
  .map(([first, rest]) => [first, ...rest.flat()].join(' '));

const textPiece = fc.constantFrom('', ' ', '\n', 'x', '<p>', '&amp;', ' a b ', '\n  ', '"q"', "'", 'y\n');
const assignable = fc.constantFrom('v1', 'v2', 's', 'item');
const collection = fc.constantFrom(
  'arr',
  'items',
  'obj',
  'obj.list',
  's',
  'missing',
  'z',
  'html',
  '(1..3)',
  '(n..2)',
  'v1',
  'item.tags',
);
const loopOptions = fc
  .tuple(fc.option(smallNumber, { nil: undefined }), fc.option(smallNumber, { nil: undefined }), fc.boolean())
  .map(([limit, offset, reversed]) =>
    [limit && `limit:${limit}`, offset && `offset:${offset}`, reversed && 'reversed']
      .filter(Boolean)
      .join(' '),
  );

/** Broken templates: LiquidJS's parse and render errors. */
const broken = fc.constantFrom(
  '{% nonesuch %}',
  '{% if s %}unclosed',
  '{% endif %}',
  '{% else %}',
  '{{ s | }}',
  '{{ s | nonesuch }}',
  '{% if %}x{% endif %}',
  '{% for %}{% endfor %}',
  '{% for x of arr %}{% endfor %}',
  '{{ s ',
  '{% assign = 1 %}',
  '{% case %}{% endcase %}',
  '{% when 1 %}',
  '{% capture %}x{% endcapture %}',
  '{% for i in arr %}unclosed',
  '{% unless f %}x{% endif %}',
  '{{ boom.x }}',
  '{% if boom.y %}{% endif %}',
  '{{ "unterminated }}',
  '{% raw %}never closed',
);

const { block } = fc.letrec<{ block: string; node: string }>((tie) => {
  const body = tie('block');
  return {
    block: fc.array(tie('node'), { maxLength: 4 }).map((nodes) => nodes.join('')),
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      { weight: 4, arbitrary: textPiece },
      { weight: 5, arbitrary: value.map((v) => `{{ ${v} }}`) },
      {
        weight: 2,
        arbitrary: fc
          .tuple(condition, body, fc.array(fc.tuple(condition, body), { maxLength: 2 }), fc.option(body))
          .map(
            ([first, then, elsifs, otherwise]) =>
              `{% if ${first} %}${then}${elsifs.map(([c, b]) => `{% elsif ${c} %}${b}`).join('')}${
                otherwise === null ? '' : `{% else %}${otherwise}`
              }{% endif %}`,
          ),
      },
      {
        weight: 1,
        arbitrary: fc
          .tuple(condition, body, fc.option(body))
          .map(
            ([c, then, otherwise]) =>
              `{% unless ${c} %}${then}${otherwise === null ? '' : `{% else %}${otherwise}`}{% endunless %}`,
          ),
      },
      {
        weight: 1,
        arbitrary: fc
          .tuple(
            caseOperand,
            fc.array(
              fc.tuple(
                fc.array(caseOperand, { minLength: 1, maxLength: 3 }),
                fc.constantFrom(', ', ' or '),
                body,
              ),
              { maxLength: 3 },
            ),
            fc.option(body),
          )
          .map(
            ([target, whens, otherwise]) =>
              `{% case ${target} %}${whens.map(([values, separator, b]) => `{% when ${values.join(separator)} %}${b}`).join('')}${
                otherwise === null ? '' : `{% else %}${otherwise}`
              }{% endcase %}`,
          ),
      },
      {
        weight: 2,
        arbitrary: fc
          .tuple(fc.constantFrom('item', 'v1'), collection, loopOptions, body, fc.option(body))
          .map(
            ([variable, over, options, b, otherwise]) =>
              `{% for ${variable} in ${over} ${options} %}${b}${otherwise === null ? '' : `{% else %}${otherwise}`}{% endfor %}`,
          ),
      },
      { weight: 1, arbitrary: fc.constantFrom('{% break %}', '{% continue %}') },
      { weight: 2, arbitrary: fc.tuple(assignable, value).map(([name, v]) => `{% assign ${name} = ${v} %}`) },
      {
        weight: 1,
        arbitrary: fc.tuple(assignable, body).map(([name, b]) => `{% capture ${name} %}${b}{% endcapture %}`),
      },
      {
        weight: 1,
        arbitrary: fc.oneof(
          value.map((v) => `{% echo ${v} %}`),
          fc.constant('{% raw %}{{ s }}{% endraw %}'),
          body.map((b) => `{% comment %}${b}{% endcomment %}`),
          fc.constant('{% cycle "a", "b" %}'),
          fc.constant('{% increment counter %}'),
          fc
            .tuple(collection, body)
            .map(([over, b]) => `{% tablerow item in ${over} cols:2 %}${b}{% endtablerow %}`),
          fc.tuple(assignable, value).map(([name, v]) => `{% liquid assign ${name} = ${v}\necho ${name} %}`),
        ),
      },
      { weight: 1, arbitrary: broken },
    ),
  };
});

/** Turns the delimiters whose position `trims` marks into their whitespace-controlling forms. */
function withTrims(template: string, trims: readonly boolean[]): string {
  let index = 0;
  return template.replace(/\{\{|\{%|%\}|\}\}/g, (delimiter) => {
    if (!trims[index++]) return delimiter;
    return delimiter.startsWith('{') ? `${delimiter}-` : `-${delimiter}`;
  });
}

const templateArbitrary = fc
  .tuple(block, fc.array(fc.boolean(), { maxLength: 40 }))
  .map(([template, trims]) => withTrims(template, trims));

// ---------------------------------------------------------------------------------------------
// The comparison

type Outcome = { output: string } | { parseError: unknown } | { renderError: unknown } | { thrown: string };

/** An error as the core reports it (diagnostics.ts), with LiquidJS's own name and message. */
function reported(error: unknown): unknown {
  if (!(error instanceof LiquidError)) return { notLiquid: String(error) };
  return { name: error.name, fullMessage: error.message, ...diagnosticFromLiquidError(error, 'error') };
}

function outcome(
  engine: Liquid,
  parse: (template: string) => Template[],
  template: string,
  data: Data,
  memoryLimit: number,
): Outcome[] {
  let parsed: Template[];
  try {
    parsed = parse(template);
  } catch (error) {
    return [{ parseError: reported(error) }];
  }
  // Twice over the same parse: the fast path caches its plans on the parsed template.
  return [0, 1].map(() => {
    try {
      return { output: engine.renderSync(parsed, scopeOf(data), { renderLimit: 60_000, memoryLimit }) };
    } catch (error) {
      return { renderError: reported(error) };
    }
  });
}

// FAST_LIQUID_SEED=<seed> replays a run; FAST_LIQUID_RUNS=<n> searches longer locally.
const seed = process.env.FAST_LIQUID_SEED ? Number(process.env.FAST_LIQUID_SEED) : undefined;
const numRuns = process.env.FAST_LIQUID_RUNS ? Number(process.env.FAST_LIQUID_RUNS) : 1000;

describe('the fast Liquid path', () => {
  it('renders generated templates and data exactly as stock LiquidJS, errors included', {
    timeout: Math.max(30_000, numRuns * 20),
  }, () => {
    fc.assert(
      fc.property(
        fc.constantFrom('html', 'plaintext'),
        templateArbitrary,
        dataArbitrary,
        fc.constantFrom(defaultRenderLimits.memoryLimit, 60, 300),
        (kind, template, data, memoryLimit) => {
          const { fast, stock } = engines[kind];
          const actual = outcome(fast, (t) => parseTemplate(t, fast), template, data, memoryLimit);
          const expected = outcome(stock, (t) => stock.parse(t), template, data, memoryLimit);
          expect(
            actual,
            `${kind} engine, memory limit ${memoryLimit}\ntemplate:\n${template}\ndata:\n${JSON.stringify(data)}`,
          ).toEqual(expected);
        },
      ),
      { numRuns, ...(seed === undefined ? {} : { seed }) },
    );
  });

  // Found by the property above: LiquidJS renders every matching `when`, and a `break` in the
  // first ends the second after its first template, literal text included.
  it('stops after one template of a later `when` once an earlier one called break', () => {
    const template = '{% case z %}{% when blank %}{% break %}{% when nil, 1 %} a b {{ "a<b" }}{% endcase %}';
    const data = { z: null };
    expect(liquid.parseAndRenderSync(template, data)).toBe(' a b ');
    expect(liquid.parseAndRenderSync(template, data)).toBe(
      engines.html.stock.parseAndRenderSync(template, data),
    );
  });
});
