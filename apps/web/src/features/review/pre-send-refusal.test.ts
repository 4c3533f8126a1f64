import { describe, expect, it } from 'vitest';
import { ApiError } from '../../shared/api-error.ts';
import type { PreSendProblem } from '../exports/exports-api.ts';
import { acknowledgedCodes, checksRefusalOf } from './pre-send-refusal.ts';

const problem = (code: PreSendProblem['code'], severity: PreSendProblem['severity']): PreSendProblem => ({
  code,
  severity,
  locale: 'de-DE',
  branch: 'null_branch',
  component_instance_id: 'a6f1c0de-0000-4000-8000-000000000001',
  message: 'A link has no target',
});

describe('checksRefusalOf', () => {
  it('reads the blocking problems of a 422 pre_send_checks_failed', () => {
    const error = new ApiError(422, {
      message: 'The email cannot be approved',
      code: 'pre_send_checks_failed',
      errors: { 'checks.de-DE': ['A link has no target'] },
      problems: [problem('empty_link', 'blocking')],
    });
    expect(checksRefusalOf(error, 'approve')).toEqual({
      step: 'approve',
      message: 'The email cannot be approved',
      problems: [problem('empty_link', 'blocking')],
    });
  });

  it('reads the current problems of a force publish’s 409 pre_send_checks_changed', () => {
    const error = new ApiError(409, {
      message: 'The blocking problems changed',
      code: 'pre_send_checks_changed',
      problems: [problem('invalid_content', 'blocking')],
    });
    expect(checksRefusalOf(error, 'force_publish')?.problems).toHaveLength(1);
  });

  it('is null for other refusals: a plain 422, a stale write, a network failure', () => {
    expect(
      checksRefusalOf(new ApiError(422, { message: 'Failed to save', errors: {} }), 'submit'),
    ).toBeNull();
    expect(checksRefusalOf(new ApiError(409, { message: 'stale', lock_version: 3 }), 'submit')).toBeNull();
    expect(checksRefusalOf(new TypeError('fetch failed'), 'publish')).toBeNull();
  });
});

describe('acknowledgedCodes', () => {
  it('names each blocking problem once, leaving warnings out', () => {
    expect(
      acknowledgedCodes([
        problem('empty_link', 'blocking'),
        problem('empty_link', 'blocking'),
        problem('missing_alt_text', 'warning'),
      ]),
    ).toEqual(['empty_link', 'empty_link']);
  });
});
