import { ApiError, errorMessage } from '../../shared/api-error.ts';

/**
 * What to tell the user when an action outside a form fails. A 422's general message ("Failed to
 * save") says nothing, so its field messages are shown instead; `base` ones are whole sentences.
 */
export function failureMessage(error: unknown): string {
  if (!(error instanceof ApiError) || error.status !== 422) return errorMessage(error);
  const sentences = Object.entries(error.fieldErrors).flatMap(([field, messages]) =>
    messages.map((message) =>
      field === 'base' || field === '' ? message : `${field.replaceAll('_', ' ')} ${message}`,
    ),
  );
  return sentences.length > 0 ? sentences.join(' ') : error.message;
}
