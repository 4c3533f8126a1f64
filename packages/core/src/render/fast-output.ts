import {
  type Context,
  Drop,
  defaultOperators,
  type Emitter,
  evalToken,
  type Output,
  TokenKind,
  toValue,
  toValueSync,
  type Value,
} from 'liquidjs';

/**
 * Synchronous evaluation of LiquidJS values: `{{ path.to.value | filters }}`, tag conditions
 * (`{% if subheadline != blank %}`) and assignments.
 *
 * LiquidJS evaluates every value through nested generators (value → expression → token →
 * property → scope, and every filter and operator), which is most of the time an email render
 * takes. Here a value's expression is planned once (cached on the parsed template) and evaluated
 * with plain calls: literals are taken as they are and plain paths (`headline`,
 * `render_context.design_tokens.colors.text`, `text.size` on a string) are looked up directly.
 * The result is identical: anything the direct lookup does not handle exactly as LiquidJS does
 * (drops, `toLiquid`, functions, `size` / `first` / `last` on anything but a string's size,
 * array indexes, computed keys, ranges) is evaluated by LiquidJS's own `evalToken`, operators
 * and filters are LiquidJS's own functions, and with strict variables or without
 * `ownPropertyOnly` the whole value goes through LiquidJS. Only synchronous renders use this.
 */

const notHandled = Symbol('notHandled');
const planKey = Symbol('lettersetValuePlan');
const thisKey = Symbol('lettersetFilterThis');

interface TokenLike {
  kind: number;
  [planKey]?: Operand;
  content?: unknown;
  variable?: unknown;
  props?: unknown[];
  operator?: string;
}

type Operand =
  | { kind: 'literal'; value: unknown }
  | { kind: 'path'; keys: string[]; token: TokenLike }
  | { kind: 'token'; token: TokenLike };

type Step = Operand | { kind: 'operator'; operator: string; unary: boolean };

type Argument = Operand | [string, Operand];

/** What a filter handler gets as `this` (LiquidJS's FilterImpl). */
interface FilterThis {
  context: Context | null;
  token: unknown;
  liquid: unknown;
}

interface FilterInternals {
  handler: (this: FilterThis, value: unknown, ...args: unknown[]) => unknown;
  args: (TokenLike | [string, TokenLike])[];
  token: unknown;
  liquid: unknown;
  [planKey]?: Argument[];
  [thisKey]?: FilterThis;
}

interface ValueInternals {
  initial: { postfix: TokenLike[] };
  filters: FilterInternals[];
  [planKey]?: Step[];
}

interface ContextInternals {
  strictVariables: boolean;
  ownPropertyOnly: boolean;
  opts: { lenientIf?: boolean; operators: Record<string, (...operands: unknown[]) => unknown> };
  findScope(key: string): unknown;
}

/** LiquidJS's operators; `not` is its only unary one, custom operators are binary. */
const knownOperators = new Set(['==', '!=', '>', '<', '>=', '<=', 'contains', 'not', 'and', 'or']);

function stepFor(token: TokenLike): Step {
  if (token.kind === TokenKind.Operator && typeof token.operator === 'string') {
    return { kind: 'operator', operator: token.operator, unary: token.operator === 'not' };
  }
  return operandFor(token);
}

function operandFor(token: TokenLike): Operand {
  // LiquidJS's evalToken returns `content` whenever a token has one (literals, quotes, numbers).
  if ('content' in token && !('props' in token)) return { kind: 'literal', value: token.content };
  if (token.kind !== TokenKind.PropertyAccess || token.variable || !Array.isArray(token.props)) {
    return { kind: 'token', token };
  }
  const keys: string[] = [];
  for (const prop of token.props as TokenLike[]) {
    if (!('content' in prop) || typeof prop.content !== 'string') return { kind: 'token', token };
    keys.push(prop.content);
  }
  return keys.length === 0 ? { kind: 'token', token } : { kind: 'path', keys, token };
}

function planFor(value: ValueInternals): Step[] {
  const steps = value.initial.postfix.map(stepFor);
  // An operator LiquidJS may treat differently (a custom unary one) sends the value to LiquidJS.
  const unknown = steps.some((step) => step.kind === 'operator' && !knownOperators.has(step.operator));
  return unknown ? [] : steps;
}

function argumentsFor(filter: FilterInternals): Argument[] {
  return filter.args.map((argument) =>
    Array.isArray(argument) ? [argument[0], operandFor(argument[1])] : operandFor(argument),
  );
}

const hasOwn = Object.prototype.hasOwnProperty;

function isPlainData(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || value instanceof Drop)
    return false;
  return typeof (value as { toLiquid?: unknown }).toLiquid !== 'function';
}

/** A plain path, read as LiquidJS reads it with `ownPropertyOnly`; `notHandled` when unsure. */
function lookUp(context: ContextInternals, keys: readonly string[]): unknown {
  let value: unknown = context.findScope(keys[0] as string);
  for (const key of keys) {
    if (value === null || value === undefined) return value;
    if (key === 'size' || key === 'first' || key === 'last') {
      if (key === 'size' && typeof value === 'string') {
        value = value.length;
        continue;
      }
      return notHandled;
    }
    if (!isPlainData(value)) return notHandled;
    value = hasOwn.call(value, key) ? value[key] : undefined;
    if (typeof value === 'function') return notHandled;
  }
  return value;
}

function evaluateOperand(operand: Operand, context: Context, lenient: boolean): unknown {
  if (operand.kind === 'literal') return operand.value;
  if (operand.kind === 'path') {
    const value = lookUp(context as unknown as ContextInternals, operand.keys);
    if (value !== notHandled) return value;
  }
  return toValueSync(evalToken(operand.token as never, context, lenient));
}

/** LiquidJS's `Expression.evaluate`, without generators. */
function evaluateExpression(steps: readonly Step[], context: Context, lenient: boolean): unknown {
  const only = steps.length === 1 ? (steps[0] as Step) : null;
  if (only && only.kind !== 'operator') return evaluateOperand(only, context, lenient);
  const operators = (context as unknown as ContextInternals).opts.operators;
  const operands: unknown[] = [];
  for (const step of steps) {
    if (step.kind !== 'operator') {
      operands.push(evaluateOperand(step, context, lenient));
      continue;
    }
    const operator = operators[step.operator] as (...operands: unknown[]) => unknown;
    const right = operands.pop();
    if (step.unary) {
      operands.push(toValueSync(operator(right, context)));
      continue;
    }
    const left = operands.pop();
    if (operator === defaultEquals) operands.push(equalsSync(left, right));
    else if (operator === defaultNotEquals) operands.push(!equalsSync(left, right));
    else operands.push(toValueSync(operator(left, right, context)));
  }
  return operands[0];
}

/**
 * LiquidJS's `Filter.render`, without generators. The handler's `this` is kept on the filter and
 * holds the context for the duration of one call (filters run to completion synchronously;
 * generator filters are driven to the end inside `toValueSync`), which saves an object per output.
 */
function applyFilter(filter: FilterInternals, value: unknown, context: Context): unknown {
  filter[planKey] ??= argumentsFor(filter);
  const planned = filter[planKey];
  let argv: [unknown, ...unknown[]] | null = null;
  if (planned.length > 0) {
    argv = [value];
    for (const argument of planned) {
      argv.push(
        Array.isArray(argument)
          ? [argument[0], evaluateOperand(argument[1], context, false)]
          : evaluateOperand(argument, context, false),
      );
    }
  }
  filter[thisKey] ??= { context: null, token: filter.token, liquid: filter.liquid };
  const self = filter[thisKey];
  self.context = context;
  try {
    return toValueSync(argv ? filter.handler.apply(self, argv) : filter.handler.call(self, value));
  } finally {
    // A parsed template outlives the render; it must not keep the render's values alive.
    self.context = null;
  }
}

interface Comparable {
  equals(other: unknown): unknown;
}

/** LiquidJS's `isComparable`: drops such as `blank`, `empty` and `nil` compare themselves. */
function isComparable(value: unknown): value is Comparable {
  if (!value) return false;
  const candidate = value as Record<string, unknown>;
  return (
    typeof candidate.equals === 'function' &&
    typeof candidate.gt === 'function' &&
    typeof candidate.geq === 'function' &&
    typeof candidate.lt === 'function' &&
    typeof candidate.leq === 'function'
  );
}

const defaultEquals = defaultOperators['=='] as (left: unknown, right: unknown) => unknown;
const defaultNotEquals = defaultOperators['!='];

/** LiquidJS's `equals` (behind `==`, `!=` and `when`), without a generator for plain values. */
export function equalsSync(left: unknown, right: unknown): unknown {
  if (isComparable(left)) return toValueSync(left.equals(right));
  if (isComparable(right)) return toValueSync(right.equals(left));
  const leftValue = toValueSync(toValue(left));
  const rightValue = toValueSync(toValue(right));
  // Arrays compare item by item, drops and all: LiquidJS's own code does that.
  if (Array.isArray(leftValue))
    return Array.isArray(rightValue) && toValueSync(defaultEquals(leftValue, rightValue));
  return leftValue === rightValue;
}

/** What `yield value.value(context, lenient)` gives in a synchronous LiquidJS render. */
export function evaluateValueSync(candidate: Value, context: Context, lenient: boolean): unknown {
  const internals = context as unknown as ContextInternals;
  const value = candidate as unknown as ValueInternals;
  value[planKey] ??= planFor(value);
  const steps = value[planKey];
  if (steps.length === 0 || internals.strictVariables || !internals.ownPropertyOnly) {
    return toValueSync(candidate.value(context, lenient));
  }
  const firstFilter = value.filters[0] as { name?: string } | undefined;
  const lenientValue = lenient || (internals.opts.lenientIf === true && firstFilter?.name === 'default');
  let result = evaluateExpression(steps, context, lenientValue);
  for (const filter of value.filters) result = applyFilter(filter, result, context);
  return result;
}

/** What `yield evalToken(token, context, lenient)` gives in a synchronous LiquidJS render. */
export function evaluateTokenSync(token: unknown, context: Context, lenient: boolean): unknown {
  const internals = context as unknown as ContextInternals;
  if (internals.strictVariables || !internals.ownPropertyOnly) {
    return toValueSync(evalToken(token as never, context, lenient));
  }
  const operand = token as TokenLike;
  operand[planKey] ??= operandFor(operand);
  return evaluateOperand(operand[planKey], context, lenient);
}

/** LiquidJS's `Output.render` for a synchronous render, without generators. */
export function renderOutputSync(output: Output, context: Context, emitter: Emitter): void {
  const value = evaluateValueSync((output as unknown as { value: Value }).value, context, false);
  emitter.write(toValueSync(toValue(value)));
}
