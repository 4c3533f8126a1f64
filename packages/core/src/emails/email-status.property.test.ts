import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PermissionKey } from '../permissions.ts';
import {
  type EmailMove,
  type EmailStatus,
  emailMovePermission,
  emailMoves,
  emailStatusAfter,
} from './email-status.ts';

/*
 * Any sequence of moves by someone holding any of the moves' keys: a move needs its key, then a
 * status it may start from; a refused move leaves the status as it was. Without the force key,
 * nothing is published that was not approved since it was last a draft, and nothing is approved
 * that was not submitted since; without the key to convert to draft, a published email stays so.
 */

const moveKeys = [...new Set(emailMoves.map(emailMovePermission))];

const sessions = fc.record({
  keys: fc.subarray(moveKeys),
  moves: fc.array(fc.constantFrom(...emailMoves), { maxLength: 40 }),
});

function attempt(keys: readonly PermissionKey[], current: EmailStatus, move: EmailMove): EmailStatus {
  if (!keys.includes(emailMovePermission(move))) return current;
  return emailStatusAfter(current, move) ?? current;
}

describe('sequences of email moves', () => {
  it('publish only what was approved, and approve only what was submitted, unless forced', () => {
    fc.assert(
      fc.property(sessions, ({ keys, moves }) => {
        let status: EmailStatus = 'draft';
        let submittedSinceDraft = false;
        let approvedSinceDraft = false;
        for (const move of moves) {
          const next = attempt(keys, status, move);
          if (next !== status) {
            if (next === 'draft') {
              submittedSinceDraft = false;
              approvedSinceDraft = false;
            }
            if (next === 'in_review') submittedSinceDraft = true;
            if (next === 'approved') {
              expect(submittedSinceDraft).toBe(true);
              approvedSinceDraft = true;
            }
            if (next === 'published' && !keys.includes('force_publish_emails')) {
              expect(approvedSinceDraft).toBe(true);
            }
          }
          status = next;
        }
      }),
    );
  });

  it('keep a published email published without the key to convert it to draft', () => {
    fc.assert(
      fc.property(sessions, ({ keys, moves }) => {
        fc.pre(!keys.includes('convert_emails_to_draft'));
        let status: EmailStatus = 'published';
        for (const move of moves) status = attempt(keys, status, move);
        expect(status).toBe('published');
      }),
    );
  });

  it('never end a move where it started', () => {
    fc.assert(
      fc.property(sessions, ({ keys, moves }) => {
        let status: EmailStatus = 'draft';
        for (const move of moves) {
          const next = emailStatusAfter(status, move);
          if (next !== undefined) expect(next).not.toBe(status);
          status = attempt(keys, status, move);
        }
      }),
    );
  });
});
