import { type Static, type TSchema, Type } from 'typebox';
import { limits, PaginationSchema, ref } from './schemas.ts';

export const maxPerPage = 100;
export const defaultPerPage = 10;

/** `per` (1–100, default 10) and `page` (from 1, default 1); out-of-range values are a 422. */
export const PaginationQuery = Type.Object({
  per: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: maxPerPage,
      default: defaultPerPage,
      description: 'Records per page (at most 100)',
    }),
  ),
  page: Type.Optional(
    Type.Integer({ minimum: 1, maximum: limits.largestId, default: 1, description: 'Page number, from 1' }),
  ),
});
export type PaginationQuery = Static<typeof PaginationQuery>;

export interface PageRequest {
  per: number;
  page: number;
  limit: number;
  offset: number;
}

export function pageRequest(query: PaginationQuery): PageRequest {
  const per = query.per ?? defaultPerPage;
  const page = query.page ?? 1;
  return { per, page, limit: per, offset: (page - 1) * per };
}

/** The list envelope every list call answers with. */
export function ListResponse<T extends TSchema>(item: T) {
  return Type.Object({ results: Type.Array(item), pagination: ref(PaginationSchema) });
}

export function listBody<T>(results: T[], total: number, request: PageRequest) {
  return { results, pagination: { per: request.per, page: request.page, total } };
}
