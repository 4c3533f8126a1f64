import { describe, expect, it } from 'vitest';
import { signInWaitMessage } from './sign-in-wait.ts';

describe('signInWaitMessage', () => {
  it('says in how many seconds to try again, from Retry-After', () => {
    expect(signInWaitMessage('8')).toBe(
      'Too many failed sign-ins from this address. Try again in 8 seconds.',
    );
    expect(signInWaitMessage('1')).toBe('Too many failed sign-ins from this address. Try again in 1 second.');
  });

  it('still asks to wait when the header is missing or unreadable', () => {
    for (const header of [null, '', 'soon', '-3'])
      expect(signInWaitMessage(header)).toBe(
        'Too many failed sign-ins from this address. Wait a little, then try again.',
      );
  });
});
