/** Inputs that hold code (Liquid, CSS, JSON paths): the typed value in monospace, the label as usual. */
export const monospaceInput = { input: { fontFamily: 'var(--mantine-font-family-monospace)' } } as const;
