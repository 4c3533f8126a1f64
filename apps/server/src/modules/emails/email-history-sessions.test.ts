import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { firstSaveOf, groupIntoSessions, sessionGap, type VersionHeader } from './email-history-sessions.ts';

/** True about one time in six: most saves are a person's plain edits. */
const rarely = fc.integer({ min: 0, max: 5 }).map((roll) => roll === 0);

/**
 * Generated versions: who (two people), how long after the one before its first save was, over how
 * many minutes its later saves replaced it, whether AI wrote it, a restore, a name.
 */
const savesArbitrary = fc.array(
  fc.record({
    author: fc.constantFrom(1, 2),
    minutesAfter: fc.oneof(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 31, max: 600 })),
    heldMinutes: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 120 })),
    ai: rarely,
    restore: rarely,
    named: rarely,
  }),
  { maxLength: 40 },
);

type SavesOf<T> = T extends fc.Arbitrary<infer Value> ? Value : never;

function versionsOf(saves: SavesOf<typeof savesArbitrary>) {
  let time = Date.parse('2026-11-20T09:00:00.000Z');
  return saves.map((save, index): VersionHeader => {
    time += save.minutesAfter * 60_000;
    const firstSavedAt = new Date(time);
    time += save.heldMinutes * 60_000;
    return {
      id: index + 1,
      versionId: `v${index + 1}`,
      lastUpdatedById: save.author,
      aiFeature: save.ai ? 'translation' : null,
      name: save.named ? `Name ${index}` : null,
      restoredFromVersionId: save.restore && !save.ai ? 'v1' : null,
      saveCount: save.heldMinutes === 0 ? 1 : 2 + (save.heldMinutes % 5),
      firstSavedAt: save.heldMinutes === 0 ? null : firstSavedAt,
      createdAt: new Date(time),
    };
  });
}

describe('groupIntoSessions', () => {
  it('keeps every version once, in order, and groups only what the rules allow', () => {
    fc.assert(
      fc.property(savesArbitrary, (saves) => {
        const versions = versionsOf(saves);
        const sessions = groupIntoSessions(versions);
        expect(sessions.flatMap((session) => session.versions)).toEqual(versions);
        for (const [index, session] of sessions.entries()) {
          expect(session.versions.length).toBeGreaterThan(0);
          if (index === 0) expect(session.kind).toBe('created');
          if (session.kind !== 'editing_session') expect(session.versions).toHaveLength(1);
          // Inside a session: one person, no gap over 30 minutes, a name only on the last version.
          for (const [position, version] of session.versions.entries()) {
            const previous = session.versions[position - 1];
            if (previous) {
              expect(version.lastUpdatedById).toBe(previous.lastUpdatedById);
              expect(firstSaveOf(version).getTime() - previous.createdAt.getTime()).toBeLessThanOrEqual(
                sessionGap,
              );
              expect(previous.name).toBeNull();
            }
            if (session.kind === 'editing_session') {
              expect(version.aiFeature).toBeNull();
              expect(version.restoredFromVersionId).toBeNull();
            }
          }
        }
        // Between two editing sessions there is a reason to split: another person, a gap, or a name.
        for (const [index, session] of sessions.entries()) {
          const next = sessions[index + 1];
          if (session.kind !== 'editing_session' || next?.kind !== 'editing_session') continue;
          const last = session.versions.at(-1) as VersionHeader;
          const first = next.versions[0] as VersionHeader;
          const split =
            last.lastUpdatedById !== first.lastUpdatedById ||
            firstSaveOf(first).getTime() - last.createdAt.getTime() > sessionGap ||
            last.name !== null;
          expect(split).toBe(true);
        }
      }),
    );
  });
});
