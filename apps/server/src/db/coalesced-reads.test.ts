import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { CoalescedReads } from './coalesced-reads.ts';

function countingLoader() {
  const started: string[] = [];
  return {
    started,
    load: (answer: string) => async () => {
      started.push(answer);
      return answer;
    },
  };
}

describe('CoalescedReads', () => {
  it('answers identical reads of one turn with a single load, started after all of them were asked', async () => {
    const reads = new CoalescedReads<string>();
    const loader = countingLoader();
    const first = reads.read('email:1', loader.load('first'));
    const second = reads.read('email:1', loader.load('second'));
    expect(loader.started).toEqual([]);
    expect(await Promise.all([first, second])).toEqual(['first', 'first']);
    expect(loader.started).toEqual(['first']);
  });

  it('loads different keys separately', async () => {
    const reads = new CoalescedReads<string>();
    const loader = countingLoader();
    const answers = await Promise.all([
      reads.read('email:1', loader.load('one')),
      reads.read('email:2', loader.load('two')),
    ]);
    expect(answers).toEqual(['one', 'two']);
    expect(loader.started).toEqual(['one', 'two']);
  });

  it('never joins a read under way', async () => {
    const reads = new CoalescedReads<string>();
    const started: string[] = [];
    let finishFirstRead: (value: string) => void = () => {};
    const first = reads.read('email:1', () => {
      started.push('first');
      return new Promise<string>((resolve) => {
        finishFirstRead = resolve;
      });
    });
    await nextTurn();
    expect(started).toEqual(['first']);

    const later = reads.read('email:1', async () => {
      started.push('later');
      return 'later';
    });
    expect(await later).toBe('later');
    expect(started).toEqual(['first', 'later']);
    finishFirstRead('first');
    expect(await first).toBe('first');
  });

  it('reads again once the key is quiet', async () => {
    const reads = new CoalescedReads<string>();
    const loader = countingLoader();
    expect(await reads.read('email:1', loader.load('before'))).toBe('before');
    expect(await reads.read('email:1', loader.load('after'))).toBe('after');
    expect(loader.started).toEqual(['before', 'after']);
  });

  it('gives every caller of a failed read the error', async () => {
    const reads = new CoalescedReads<string>();
    const failing = () => Promise.reject(new Error('connection lost'));
    const results = await Promise.allSettled([
      reads.read('email:1', failing),
      reads.read('email:1', failing),
    ]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
  });
});
