/**
 * Field error wording, matching the API's 422 messages ("is required", "can't be blank",
 * "must be at most N characters") so the editor and the API say the same thing.
 */
export const messages = {
  required: 'is required',
  blank: "can't be blank",
  mustBeString: 'must be a string',
  mustBeNumber: 'must be a number',
  mustBeBoolean: 'must be a boolean',
  mustBeObject: 'must be an object',
  mustBeArray: 'must be an array',
  mustChangeDefault: 'must be changed from the default',
  notKnownField: 'is not a known field',
  taken: 'has already been taken',
  atLeastCharacters: (n: number) => `must be at least ${n} character${n === 1 ? '' : 's'}`,
  atMostCharacters: (n: number) => `must be at most ${n} character${n === 1 ? '' : 's'}`,
  atLeast: (n: number) => `must be greater than or equal to ${n}`,
  atMost: (n: number) => `must be less than or equal to ${n}`,
  oneOf: (values: readonly string[]) => `must be one of: ${values.join(', ')}`,
} as const;

export function isBlank(value: string): boolean {
  return value.trim() === '';
}
