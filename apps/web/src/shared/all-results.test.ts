import { describe, expect, it, vi } from 'vitest';
import { allResults, largestPage } from './all-results.ts';

/** A list of `total` numbers served the way the API pages them. */
function pagedList(total: number) {
  const items = Array.from({ length: total }, (_, index) => index + 1);
  return vi.fn(async ({ page, per }: { page: number; per: number }) => ({
    results: items.slice((page - 1) * per, page * per),
    pagination: { total },
  }));
}

describe('allResults', () => {
  it('fetches every page, in order, 100 at a time', async () => {
    const fetchPage = pagedList(250);
    const results = await allResults(fetchPage);
    expect(results).toEqual(Array.from({ length: 250 }, (_, index) => index + 1));
    expect(fetchPage.mock.calls.map(([page]) => page)).toEqual([
      { page: 1, per: largestPage },
      { page: 2, per: largestPage },
      { page: 3, per: largestPage },
    ]);
  });

  it('asks once for a list that fits one page, or is empty', async () => {
    for (const total of [0, 100]) {
      const fetchPage = pagedList(total);
      expect(await allResults(fetchPage)).toHaveLength(total);
      expect(fetchPage).toHaveBeenCalledTimes(1);
    }
  });
});
