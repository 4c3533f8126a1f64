import { ApiError, errorMessage } from './api-error.ts';

interface ErrorTarget {
  setErrors(errors: Record<string, string>): void;
}

/**
 * Puts a 422's messages on the inputs with the same path (these forms are shaped like the request
 * body, so `parameters.1.parameter` is an input's path) and returns, for the alert above the form,
 * any message whose path starts with none of `shownPrefixes`, and any other failure's message.
 */
export function showNestedApiErrors(
  form: ErrorTarget,
  error: unknown,
  shownPrefixes: readonly string[],
): string[] {
  if (!(error instanceof ApiError) || error.status !== 422 || Object.keys(error.fieldErrors).length === 0) {
    return [errorMessage(error)];
  }
  const onInputs: Record<string, string> = {};
  const elsewhere: string[] = [];
  for (const [path, messages] of Object.entries(error.fieldErrors)) {
    const sentence = messages.join('; ');
    if (shownPrefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}.`)))
      onInputs[path] = sentence;
    else elsewhere.push(path ? `${path} ${sentence}` : sentence);
  }
  form.setErrors(onInputs);
  return elsewhere;
}
