import { describe, expect, it, vi } from 'vitest';
import { componentListQuery, everyComponent } from './component-builder-api.ts';

const apiCalls = vi.hoisted(() => ({ GET: vi.fn() }));
vi.mock('../../app/api.ts', () => ({ api: apiCalls }));

/** A design system of `total` components, answered a page at a time as the server does. */
function serveComponents(total: number) {
  apiCalls.GET.mockReset();
  apiCalls.GET.mockImplementation(
    (_path: string, options: { params: { query?: { per?: number; page?: number } } }) => {
      const per = options.params.query?.per ?? 10;
      const page = options.params.query?.page ?? 1;
      const results = Array.from({ length: total }, (_, index) => ({ id: index + 1 })).slice(
        (page - 1) * per,
        page * per,
      );
      return Promise.resolve({
        data: { results, pagination: { per, page, total } },
        error: undefined,
        response: { ok: true, status: 200 },
      });
    },
  );
}

describe('the components of a design system, for the editor and the builder', () => {
  it('pages through a design system of more components than one page holds', async () => {
    serveComponents(234);
    const components = await everyComponent(1, 2);
    expect(components.map((component) => component.id)).toEqual(
      Array.from({ length: 234 }, (_, index) => index + 1),
    );
    expect(apiCalls.GET).toHaveBeenCalledTimes(3);
    for (const [, options] of apiCalls.GET.mock.calls)
      expect(options.params.path).toEqual({ workspace_id: 1, email_design_system_id: 2 });
  });

  it('gives the builder’s list every component too', async () => {
    serveComponents(101);
    const query = componentListQuery(1, 2);
    const list = await (query.queryFn as unknown as () => Promise<{ results: unknown[] }>)();
    expect(list.results).toHaveLength(101);
  });
});
