import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../test/harness.ts';
import { ListResponse, listBody, PaginationQuery, pageRequest } from './pagination.ts';

const letters = 'abcdefghijklmnopqrstuvwxyz'.split('');

describe('pagination', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await buildTestApp({
      routes: async (routes) => {
        routes.get(
          '/test/letters',
          { schema: { querystring: PaginationQuery, response: { 200: ListResponse(Type.String()) } } },
          async (request) => {
            const page = pageRequest(request.query);
            return listBody(letters.slice(page.offset, page.offset + page.limit), letters.length, page);
          },
        );
      },
    });
  });
  afterAll(() => app.close());

  const list = (query: string) => app.inject({ method: 'GET', url: `/test/letters${query}` });

  it('defaults to 10 per page, page 1, with the total', async () => {
    const response = await list('');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      results: letters.slice(0, 10),
      pagination: { per: 10, page: 1, total: 26 },
    });
  });

  it('pages through with per and page, read from the query string as numbers', async () => {
    const response = await list('?per=4&page=3');
    expect(response.json()).toEqual({
      results: ['i', 'j', 'k', 'l'],
      pagination: { per: 4, page: 3, total: 26 },
    });
  });

  it('answers a page past the end with no results and the true total', async () => {
    const response = await list('?per=100&page=2');
    expect(response.json()).toEqual({ results: [], pagination: { per: 100, page: 2, total: 26 } });
  });

  it.each([
    ['?per=101', { per: ['must be less than or equal to 100'] }],
    ['?per=0', { per: ['must be greater than or equal to 1'] }],
    ['?page=0', { page: ['must be greater than or equal to 1'] }],
    ['?per=ten', { per: ['must be an integer'] }],
    ['?per=2.5&page=-1', { per: ['must be an integer'], page: ['must be greater than or equal to 1'] }],
  ])('refuses %s with a 422 naming the parameter', async (query, errors) => {
    const response = await list(query);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ code: 'validation_failed', message: 'Failed to save', errors });
  });
});

describe('pageRequest', () => {
  it('turns per and page into limit and offset', () => {
    expect(pageRequest({ per: 25, page: 4 })).toEqual({ per: 25, page: 4, limit: 25, offset: 75 });
    expect(pageRequest({})).toEqual({ per: 10, page: 1, limit: 10, offset: 0 });
  });
});
