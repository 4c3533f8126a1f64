import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { BatchedReads } from './batched-reads.ts';

/** A loader answering `${group}:${key}` for every key but 'missing', recording each batch it gets. */
function recordingLoader(group: string, batches: string[][]) {
  return async (keys: string[]) => {
    batches.push(keys);
    return new Map(keys.filter((key) => key !== 'missing').map((key) => [key, `${group}:${key}`]));
  };
}

describe('BatchedReads', () => {
  it('answers the reads of one turn and group with one load, each key asked once', async () => {
    const reads = new BatchedReads<string, string>();
    const batches: string[][] = [];
    const load = recordingLoader('a', batches);
    const answers = Promise.all([
      reads.read('a', 'email 1', load),
      reads.read('a', 'email 2', load),
      reads.read('a', 'email 1', load),
      reads.read('a', 'missing', load),
    ]);
    expect(batches).toEqual([]);
    expect(await answers).toEqual(['a:email 1', 'a:email 2', 'a:email 1', undefined]);
    expect(batches).toEqual([['email 1', 'email 2', 'missing']]);
  });

  it('loads each group with its own loader', async () => {
    const reads = new BatchedReads<string, string>();
    const batches: string[][] = [];
    const answers = await Promise.all([
      reads.read('a', 'email 1', recordingLoader('a', batches)),
      reads.read('b', 'email 1', recordingLoader('b', batches)),
    ]);
    expect(answers).toEqual(['a:email 1', 'b:email 1']);
    expect(batches).toEqual([['email 1'], ['email 1']]);
  });

  it('never joins a batch under way', async () => {
    const reads = new BatchedReads<string, string>();
    const batches: string[][] = [];
    let finishFirstBatch: () => void = () => {};
    const first = reads.read('a', 'email 1', async (keys) => {
      batches.push(keys);
      await new Promise<void>((resolve) => {
        finishFirstBatch = resolve;
      });
      return new Map([['email 1', 'before']]);
    });
    await nextTurn();
    expect(batches).toEqual([['email 1']]);

    const later = reads.read('a', 'email 1', async (keys) => {
      batches.push(keys);
      return new Map([['email 1', 'after']]);
    });
    expect(await later).toBe('after');
    finishFirstBatch();
    expect(await first).toBe('before');
    expect(batches).toEqual([['email 1'], ['email 1']]);
  });

  it('gives every caller of a failed batch the error', async () => {
    const reads = new BatchedReads<string, string>();
    const failing = () => Promise.reject(new Error('connection lost'));
    const results = await Promise.allSettled([
      reads.read('a', 'email 1', failing),
      reads.read('a', 'email 2', failing),
    ]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
  });
});
