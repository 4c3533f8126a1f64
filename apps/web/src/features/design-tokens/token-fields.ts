import { isHexColor } from '@letterset/core';

/** How a design token is edited: a colour picker, a font stack, a size in pixels, or plain text. */
export type TokenFieldKind = 'color' | 'font' | 'size' | 'text';

export interface TokenField {
  /** Keys from the top of the tokens, e.g. ['colors', 'dark', 'primary']. */
  path: string[];
  label: string;
  kind: TokenFieldKind;
  /** The design system's value, shown when the brand does not override it. */
  baseValue: string | number;
}

export interface TokenFieldGroup {
  /** The group's path joined with dots, e.g. 'colors.dark'. */
  key: string;
  label: string;
  fields: TokenField[];
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function words(key: string): string {
  const spaced = key.replace(/[_-]+/g, ' ').trim();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

/**
 * Tokens carry no declared types (templates read free-form JSON), so the field follows the value:
 * a hex colour gets a colour picker, a number is a size in pixels (templates append `px`), a
 * string under a font group or named like a font is a font family, and any other string is text.
 */
export function tokenFieldKind(path: readonly string[], value: string | number): TokenFieldKind {
  if (typeof value === 'number') return 'size';
  if (isHexColor(value)) return 'color';
  if (path.some((key) => /font/i.test(key))) return 'font';
  return 'text';
}

/**
 * The design system's tokens as form fields, one group per object holding values (so
 * `colors.dark` is a group of its own); arrays, booleans and nulls are left to the JSON tab.
 */
export function tokenFieldGroups(baseTokens: Record<string, unknown>): TokenFieldGroup[] {
  const groups: TokenFieldGroup[] = [];
  const visit = (node: Record<string, unknown>, path: string[]) => {
    const fields: TokenField[] = [];
    const nested: [string, Record<string, unknown>][] = [];
    for (const [key, value] of Object.entries(node)) {
      if (typeof value === 'string' || typeof value === 'number') {
        const fieldPath = [...path, key];
        fields.push({
          path: fieldPath,
          label: words(fieldPath.slice(1).join(' ') || key),
          kind: tokenFieldKind(fieldPath, value),
          baseValue: value,
        });
      } else if (isPlainObject(value)) {
        nested.push([key, value]);
      }
    }
    if (fields.length > 0) {
      groups.push({ key: path.join('.'), label: path.map(words).join(' › ') || 'Tokens', fields });
    }
    for (const [key, value] of nested) visit(value, [...path, key]);
  };
  visit(baseTokens, []);
  return groups;
}

/** The value at a path of a tokens object, if there is one. */
export function tokenAt(tokens: Record<string, unknown>, path: readonly string[]): unknown {
  let node: unknown = tokens;
  for (const key of path) {
    if (!isPlainObject(node)) return undefined;
    node = node[key];
  }
  return node;
}

/**
 * The overrides with one value set, or removed when `value` is undefined (objects left empty by
 * the removal go too, so clearing every field leaves `{}`). The input is not modified.
 */
export function withTokenOverride(
  overrides: Record<string, unknown>,
  path: readonly string[],
  value: string | number | undefined,
): Record<string, unknown> {
  const [key, ...rest] = path;
  if (key === undefined) return overrides;
  const copy = { ...overrides };
  if (rest.length === 0) {
    if (value === undefined) delete copy[key];
    else copy[key] = value;
    return copy;
  }
  const child = isPlainObject(copy[key]) ? copy[key] : {};
  const updated = withTokenOverride(child, rest, value);
  if (Object.keys(updated).length === 0) delete copy[key];
  else copy[key] = updated;
  return copy;
}

function channels(hex: string): [number, number, number] {
  const digits = hex.slice(1);
  const full = digits.length <= 4 ? [...digits].map((digit) => digit + digit).join('') : digits;
  return [0, 2, 4].map((start) => Number.parseInt(full.slice(start, start + 2), 16)) as [
    number,
    number,
    number,
  ];
}

function relativeLuminance(hex: string): number {
  const [red, green, blue] = channels(hex).map((channel) => {
    const value = channel / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * red + 0.7152 * green + 0.0722 * blue;
}

/** WCAG 2.1 contrast ratio of two hex colours (alpha ignored), from 1 to 21. */
export function contrastRatio(first: string, second: string): number {
  const [lighter, darker] = [relativeLuminance(first), relativeLuminance(second)].sort((a, b) => b - a) as [
    number,
    number,
  ];
  return (lighter + 0.05) / (darker + 0.05);
}

/** WCAG AA's minimum for body text. */
export const minimumTextContrast = 4.5;

/**
 * The colour a colour token is read against: `on_X` against its sibling `X` (text on a button),
 * any other colour against its group's `background`; none for the background itself.
 */
export function contrastPartnerPath(path: readonly string[]): string[] | undefined {
  const key = path.at(-1);
  if (key === undefined) return undefined;
  const parent = path.slice(0, -1);
  if (key.startsWith('on_') && key.length > 3) return [...parent, key.slice(3)];
  if (key === 'background') return undefined;
  return [...parent, 'background'];
}

/** A colour token's contrast against its partner in the merged tokens, when both are hex colours. */
export function tokenContrast(
  mergedTokens: Record<string, unknown>,
  path: readonly string[],
): { against: string[]; ratio: number } | undefined {
  const against = contrastPartnerPath(path);
  if (!against) return undefined;
  const colour = tokenAt(mergedTokens, path);
  const partner = tokenAt(mergedTokens, against);
  if (!isHexColor(colour) || !isHexColor(partner)) return undefined;
  return { against, ratio: contrastRatio(colour as string, partner as string) };
}
