/**
 * Template engine presets: how a condition built in the preset picker (attribute, operator,
 * value) is written in one sending platform's own syntax. A dynamic content profile names one
 * preset; a conditional's picker state for that profile compiles to `{closing, branch_values}`.
 */

export const templateEnginePresets = ['liquid', 'handlebars', 'ampscript'] as const;
export type TemplateEnginePreset = (typeof templateEnginePresets)[number];

export const conditionValueTypes = ['string', 'number', 'boolean'] as const;
export type ConditionValueType = (typeof conditionValueTypes)[number];

export const conditionJoiners = ['and', 'or'] as const;
export type ConditionJoiner = (typeof conditionJoiners)[number];

/** What the UI needs to build conditions without code. */
export interface TemplateEnginePresetSchema {
  joiners: ConditionJoiner[];
  operators_by_type: Record<ConditionValueType, { key: string; requires_value: boolean }[]>;
}

/** The opening syntax of each branch (by key) and the closing syntax after the last branch. */
export interface ConditionalSyntax {
  closing: string;
  branch_values: Record<string, string>;
}

export interface PickerCondition {
  attribute: string;
  type: ConditionValueType;
  operator: string;
  value?: string | number | boolean | null;
}

/** One branch in the picker: its conditions, combined with one joiner. */
export interface PickerBranch {
  conditions: PickerCondition[];
  joiner?: ConditionJoiner;
}

export interface PickerState {
  /** The conditional's last branch becomes the else branch (it takes no conditions). */
  include_else_branch: boolean;
  branches: Record<string, PickerBranch>;
}

const operatorsByType = {
  string: [
    ['equals', true],
    ['not_equals', true],
    ['contains', true],
    ['does_not_contain', true],
    ['is_empty', false],
    ['is_not_empty', false],
  ],
  number: [
    ['equals', true],
    ['not_equals', true],
    ['greater_than', true],
    ['greater_than_or_equal', true],
    ['less_than', true],
    ['less_than_or_equal', true],
  ],
  boolean: [
    ['is_true', false],
    ['is_false', false],
  ],
} as const satisfies Record<ConditionValueType, readonly (readonly [string, boolean])[]>;

export type ConditionOperator = (typeof operatorsByType)[ConditionValueType][number][0];

/** The schema of a preset (the same operators for every preset; each writes them its own way). */
export function templateEnginePresetSchema(
  preset: TemplateEnginePreset | null,
): TemplateEnginePresetSchema | null {
  if (preset === null) return null;
  const operators = {} as TemplateEnginePresetSchema['operators_by_type'];
  for (const type of conditionValueTypes) {
    operators[type] = operatorsByType[type].map(([key, requiresValue]) => ({
      key,
      requires_value: requiresValue,
    }));
  }
  return { joiners: [...conditionJoiners], operators_by_type: operators };
}

/** A written condition: a literal of the dialect plus the comparison. */
interface Dialect {
  string(value: string): string;
  attribute(attribute: string): string;
  comparison(operator: ConditionOperator, attribute: string, literal: string): string;
  join(joiner: ConditionJoiner, parts: string[]): string;
  opening(kind: 'first' | 'next', condition: string): string;
  otherwise: string;
  closing: string;
}

/** Comparisons Liquid and AMPscript both write infix, with the same symbols. */
const infixOperators: Partial<Record<ConditionOperator, string>> = {
  equals: '==',
  not_equals: '!=',
  greater_than: '>',
  greater_than_or_equal: '>=',
  less_than: '<',
  less_than_or_equal: '<=',
};

function infix(operator: ConditionOperator, attribute: string, literal: string): string | undefined {
  const symbol = infixOperators[operator];
  return symbol === undefined ? undefined : `${attribute} ${symbol} ${literal}`;
}

const liquid: Dialect = {
  // Liquid strings cannot escape their quote: pick the one the value does not contain.
  string: (value) => (value.includes('"') ? `'${value}'` : `"${value}"`),
  attribute: (attribute) => attribute,
  comparison(operator, attribute, literal) {
    const written = infix(operator, attribute, literal);
    if (written !== undefined) return written;
    switch (operator) {
      case 'contains':
        return `${attribute} contains ${literal}`;
      case 'does_not_contain':
        return `${attribute} contains ${literal} == false`;
      case 'is_empty':
        return `${attribute} == blank`;
      case 'is_not_empty':
        return `${attribute} != blank`;
      case 'is_true':
        return `${attribute} == true`;
      default:
        return `${attribute} == false`;
    }
  },
  join: (joiner, parts) => parts.join(` ${joiner} `),
  opening: (kind, condition) => (kind === 'first' ? `{% if ${condition} %}` : `{% elsif ${condition} %}`),
  otherwise: '{% else %}',
  closing: '{% endif %}',
};

const handlebars: Dialect = {
  string: (value) => `"${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`,
  attribute: (attribute) => attribute,
  comparison(operator, attribute, literal) {
    switch (operator) {
      case 'equals':
        return `(eq ${attribute} ${literal})`;
      case 'not_equals':
        return `(not (eq ${attribute} ${literal}))`;
      case 'contains':
        return `(contains ${attribute} ${literal})`;
      case 'does_not_contain':
        return `(not (contains ${attribute} ${literal}))`;
      case 'is_empty':
        return `(not ${attribute})`;
      case 'is_not_empty':
        return attribute;
      case 'greater_than':
        return `(gt ${attribute} ${literal})`;
      case 'greater_than_or_equal':
        return `(gte ${attribute} ${literal})`;
      case 'less_than':
        return `(lt ${attribute} ${literal})`;
      case 'less_than_or_equal':
        return `(lte ${attribute} ${literal})`;
      case 'is_true':
        return `(eq ${attribute} true)`;
      case 'is_false':
        return `(eq ${attribute} false)`;
    }
  },
  join: (joiner, parts) => (parts.length === 1 ? (parts[0] ?? '') : `(${joiner} ${parts.join(' ')})`),
  opening: (kind, condition) => (kind === 'first' ? `{{#if ${condition}}}` : `{{else if ${condition}}}`),
  otherwise: '{{else}}',
  closing: '{{/if}}',
};

const ampscript: Dialect = {
  // AMPscript escapes a quote by doubling it.
  string: (value) => `"${value.replaceAll('"', '""')}"`,
  // A bare name is an AMPscript variable (`tier` → `@tier`); `@var`, `[Name]` and calls are kept.
  attribute: (attribute) => (/^[A-Za-z_]\w*$/.test(attribute) ? `@${attribute}` : attribute),
  comparison(operator, attribute, literal) {
    const written = infix(operator, attribute, literal);
    if (written !== undefined) return written;
    switch (operator) {
      case 'contains':
        return `IndexOf(${attribute}, ${literal}) > 0`;
      case 'does_not_contain':
        return `IndexOf(${attribute}, ${literal}) == 0`;
      case 'is_empty':
        return `EMPTY(${attribute})`;
      case 'is_not_empty':
        return `NOT EMPTY(${attribute})`;
      case 'is_true':
        return `${attribute} == "true"`;
      default:
        return `${attribute} == "false"`;
    }
  },
  join: (joiner, parts) => parts.join(` ${joiner.toUpperCase()} `),
  opening: (kind, condition) =>
    kind === 'first' ? `%%[ IF ${condition} THEN ]%%` : `%%[ ELSEIF ${condition} THEN ]%%`,
  otherwise: '%%[ ELSE ]%%',
  closing: '%%[ ENDIF ]%%',
};

const dialects: Record<TemplateEnginePreset, Dialect> = { liquid, handlebars, ampscript };

export function isTemplateEnginePreset(value: unknown): value is TemplateEnginePreset {
  return typeof value === 'string' && (templateEnginePresets as readonly string[]).includes(value);
}

/** Field path (relative to the picker state) → messages. */
export type PickerProblems = Record<string, string[]>;

function conditionProblems(condition: PickerCondition, path: string, problems: PickerProblems): void {
  const add = (field: string, message: string) => {
    problems[`${path}.${field}`] = [...(problems[`${path}.${field}`] ?? []), message];
  };
  if (!/^\S.*$/.test(condition.attribute) || condition.attribute.trim() !== condition.attribute)
    add('attribute', 'must be a name without leading or trailing spaces');
  const operator = operatorsByType[condition.type]?.find(([key]) => key === condition.operator);
  if (!operator) {
    add(
      'operator',
      `must be one of ${(operatorsByType[condition.type] ?? []).map(([key]) => key).join(', ')}`,
    );
    return;
  }
  if (!operator[1]) return;
  const value = condition.value;
  if (value === undefined || value === null || value === '') add('value', 'is required for this operator');
  else if (condition.type === 'number' && !Number.isFinite(Number(value))) add('value', 'must be a number');
  else if (condition.type === 'string' && liquidUnquotable(String(value)))
    add('value', 'cannot contain both a single and a double quote');
}

function liquidUnquotable(value: string): boolean {
  return value.includes('"') && value.includes("'");
}

/**
 * Problems with a picker state for these branch keys (empty when it compiles). Every branch has
 * at least one condition, except the else branch (the last, when `include_else_branch`).
 */
export function pickerStateProblems(branchKeys: readonly string[], state: PickerState): PickerProblems {
  const problems: PickerProblems = {};
  const conditioned = state.include_else_branch ? branchKeys.slice(0, -1) : branchKeys;
  if (state.include_else_branch && branchKeys.length < 2)
    problems.include_else_branch = ['needs at least one branch before the else branch'];
  for (const key of Object.keys(state.branches ?? {})) {
    if (!branchKeys.includes(key)) problems[`branches.${key}`] = ['is not a branch key of this conditional'];
  }
  for (const key of conditioned) {
    const branch = state.branches?.[key];
    if (!branch || branch.conditions.length === 0) {
      problems[`branches.${key}.conditions`] = ['needs at least one condition'];
      continue;
    }
    branch.conditions.forEach((condition, index) => {
      conditionProblems(condition, `branches.${key}.conditions.${index}`, problems);
    });
  }
  return problems;
}

function literalOf(dialect: Dialect, condition: PickerCondition): string {
  if (condition.value === undefined || condition.value === null) return '';
  if (condition.type === 'number') return String(Number(condition.value));
  return dialect.string(String(condition.value));
}

/**
 * Compiles a picker state into the dialect's syntax: the first branch opens with `if`, the next
 * ones with `else if`, the else branch (if any) with `else`, then the closing. Throws when the
 * state has problems (check `pickerStateProblems` first).
 */
export function compilePickerState(
  preset: TemplateEnginePreset,
  branchKeys: readonly string[],
  state: PickerState,
): ConditionalSyntax {
  const problems = pickerStateProblems(branchKeys, state);
  if (Object.keys(problems).length > 0)
    throw new Error(`The picker state does not compile: ${JSON.stringify(problems)}`);
  const dialect = dialects[preset];
  const branchValues: Record<string, string> = {};
  branchKeys.forEach((key, index) => {
    if (state.include_else_branch && index === branchKeys.length - 1) {
      branchValues[key] = dialect.otherwise;
      return;
    }
    const branch = state.branches[key] as PickerBranch;
    const parts = branch.conditions.map((condition) =>
      dialect.comparison(
        condition.operator as ConditionOperator,
        dialect.attribute(condition.attribute),
        literalOf(dialect, condition),
      ),
    );
    branchValues[key] = dialect.opening(
      index === 0 ? 'first' : 'next',
      dialect.join(branch.joiner ?? 'and', parts),
    );
  });
  return { closing: dialect.closing, branch_values: branchValues };
}
