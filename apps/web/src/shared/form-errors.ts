import { ApiError } from './api-error.ts';

/** The part of a Mantine form that shows errors. */
interface ErrorTarget {
  setErrors(errors: Record<string, string>): void;
}

/**
 * Puts a 422's messages on the form fields they name (API paths are dot-separated, as Mantine's
 * are) and returns the messages for fields the form does not have, so the caller can show them
 * above the form. Any other error comes back as one message.
 */
export function showApiErrors(form: ErrorTarget, error: unknown, formFields: readonly string[]): string[] {
  if (!(error instanceof ApiError) || error.status !== 422 || Object.keys(error.fieldErrors).length === 0) {
    return [error instanceof Error ? error.message : String(error)];
  }
  const onFields: Record<string, string> = {};
  const elsewhere: string[] = [];
  for (const [path, messages] of Object.entries(error.fieldErrors)) {
    const field = formFields.find((name) => path === name || path.startsWith(`${name}.`));
    const sentence = messages.join('; ');
    if (field) onFields[field] = onFields[field] ? `${onFields[field]}; ${sentence}` : sentence;
    else elsewhere.push(path ? `${path} ${sentence}` : sentence);
  }
  form.setErrors(onFields);
  return elsewhere;
}
