import { describe, expect, it } from 'vitest';
import { ApiError } from '../../shared/api-error.ts';
import { failureMessage } from './failure-message.ts';

describe('failureMessage', () => {
  it("shows a 422's field messages rather than its general message", () => {
    const error = new ApiError(422, {
      message: 'Failed to save',
      errors: {
        base: ['This workspace still has 1 team(s); move or delete them first'],
        user_id: ['does not exist'],
      },
    });
    expect(failureMessage(error)).toBe(
      'This workspace still has 1 team(s); move or delete them first user id does not exist',
    );
  });

  it('shows the message of other failures', () => {
    expect(failureMessage(new ApiError(400, { message: 'You cannot remove yourself' }))).toBe(
      'You cannot remove yourself',
    );
  });
});
