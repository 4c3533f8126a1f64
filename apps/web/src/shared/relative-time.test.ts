import { describe, expect, it } from 'vitest';
import { relativeTime } from './relative-time.ts';

describe('relativeTime', () => {
  const now = new Date('2026-11-25T12:00:00.000Z');
  it.each([
    ['2026-11-25T11:59:30.000Z', 'just now'],
    ['2026-11-25T12:00:05.000Z', 'just now'],
    ['2026-11-25T11:55:00.000Z', '5 minutes ago'],
    ['2026-11-25T09:00:00.000Z', '3 hours ago'],
    ['2026-11-24T12:00:00.000Z', 'yesterday'],
    ['2026-11-23T12:00:00.000Z', '2 days ago'],
    ['2026-11-11T12:00:00.000Z', '2 weeks ago'],
    ['2026-09-25T12:00:00.000Z', '2 months ago'],
  ])('says %s was %s', (iso, expected) => {
    expect(relativeTime(iso, now)).toBe(expected);
  });
});
