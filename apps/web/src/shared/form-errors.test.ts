import { describe, expect, it } from 'vitest';
import { ApiError } from './api-error.ts';
import { showApiErrors } from './form-errors.ts';

function formSpy() {
  const shown: { errors: Record<string, string> } = { errors: {} };
  return {
    shown,
    form: {
      setErrors(errors: Record<string, string>) {
        shown.errors = errors;
      },
    },
  };
}

describe('showApiErrors', () => {
  it('puts 422 messages on the fields they name, nested paths on their top field', () => {
    const { form, shown } = formSpy();
    const rest = showApiErrors(
      form,
      new ApiError(422, {
        message: 'Failed to save',
        errors: { name: ['is required'], 'fields.0.label': ['is too long', 'is blank'] },
      }),
      ['name', 'fields'],
    );
    expect(shown.errors).toEqual({ name: 'is required', fields: 'is too long; is blank' });
    expect(rest).toEqual([]);
  });

  it('returns the messages of paths the form does not show, with their path', () => {
    const { form } = formSpy();
    const rest = showApiErrors(
      form,
      new ApiError(422, { message: 'Failed to save', errors: { template: ['has an unclosed tag'] } }),
      ['name'],
    );
    expect(rest).toEqual(['template has an unclosed tag']);
  });

  it('returns the message of any other failure', () => {
    const { form, shown } = formSpy();
    expect(
      showApiErrors(form, new ApiError(403, { message: 'Your role lacks update_roles' }), ['name']),
    ).toEqual(['Your role lacks update_roles']);
    expect(shown.errors).toEqual({});
  });
});
