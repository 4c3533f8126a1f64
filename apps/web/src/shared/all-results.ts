/** The most results the API answers on one page. */
export const largestPage = 100;

export interface ResultsPage<Item> {
  results: Item[];
  pagination: { total: number };
}

/**
 * Every result of a paginated list, fetched 100 at a time (the pages after the first together):
 * for pickers that must offer all of them, such as workspaces and teams, which organizations count
 * in tens or hundreds. Lists that can grow without bound should search instead.
 */
export async function allResults<Item>(
  fetchPage: (page: { page: number; per: number }) => Promise<ResultsPage<Item>>,
): Promise<Item[]> {
  const first = await fetchPage({ page: 1, per: largestPage });
  const pageCount = Math.ceil(first.pagination.total / largestPage);
  const rest = await Promise.all(
    Array.from({ length: Math.max(0, pageCount - 1) }, (_, index) =>
      fetchPage({ page: index + 2, per: largestPage }),
    ),
  );
  return [first, ...rest].flatMap((page) => page.results);
}
