import { useEffect } from 'react';

/**
 * The value to fill in when a required choice has exactly one option and nothing is chosen yet
 * (the only workspace, team, project or design system), or null when the person must choose.
 */
export function onlyChoice(
  options: readonly { value: string }[] | undefined,
  current: string | null | undefined,
): string | null {
  if (current) return null;
  if (options?.length !== 1) return null;
  return options[0]?.value ?? null;
}

/**
 * Preselects the only option of a select once its options arrive, so a dialog never asks a
 * question that has one answer. `choose` receives it; a value already chosen is left alone.
 */
export function useOnlyChoice(
  options: readonly { value: string }[] | undefined,
  current: string | null | undefined,
  choose: (value: string) => void,
): void {
  const value = onlyChoice(options, current);
  // `choose` is usually a fresh closure each render; the value decides whether to act.
  // biome-ignore lint/correctness/useExhaustiveDependencies: acting once per value is the point
  useEffect(() => {
    if (value !== null) choose(value);
  }, [value]);
}
