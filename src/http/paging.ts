import { Type } from 'typebox';

/**
 * Paging everywhere (decisions §4): `page` is 1-based (default 1), `size` defaults to the endpoint's
 * figure (200 where the spec gives none) and is at most 1000. A page past the end is empty.
 *
 * @example
 * const q = pagingQuery(100);             // schema for ?page=&size=
 * toLimitOffset({ page: 3, size: 50 })    // { limit: 50, offset: 100 }
 */
export const MAX_PAGE_SIZE = 1000;

export function pagingQuery(defaultSize = 200) {
  return {
    page: Type.Optional(Type.Integer({ minimum: 1, default: 1, description: '1-based page number' })),
    size: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: defaultSize })),
  };
}

export interface PageRequest {
  page: number;
  size: number;
}

export function toLimitOffset(p: Partial<PageRequest>, defaultSize = 200) {
  const page = p.page ?? 1;
  const size = p.size ?? defaultSize;
  return { limit: size, offset: (page - 1) * size, page, size };
}

/**
 * The top-up spec's paged wrapper; `number` and `pageable.pageNumber` are 0-based (page=1 -> 0).
 */
export function pagedWrapper<T>(content: T[], p: { page: number; size: number }, totalElements: number) {
  const totalPages = Math.ceil(totalElements / p.size);
  const number = p.page - 1;
  const sort = { unsorted: true, sorted: false, empty: true };
  return {
    content,
    pageable: {
      sort,
      pageNumber: number,
      pageSize: p.size,
      offset: number * p.size,
      paged: true,
      unpaged: false,
    },
    totalElements,
    totalPages,
    last: p.page >= totalPages,
    first: number === 0,
    sort,
    number,
    numberOfElements: content.length,
    size: p.size,
    empty: content.length === 0,
  };
}

const SortState = Type.Object({ unsorted: Type.Boolean(), sorted: Type.Boolean(), empty: Type.Boolean() });

/** The schema of `pagedWrapper`'s answer around `item`. */
export function Paged<T extends Parameters<typeof Type.Array>[0]>(item: T) {
  return Type.Object({
    content: Type.Array(item),
    pageable: Type.Object({
      sort: SortState,
      pageNumber: Type.Integer(),
      pageSize: Type.Integer(),
      offset: Type.Integer(),
      paged: Type.Boolean(),
      unpaged: Type.Boolean(),
    }),
    totalElements: Type.Integer(),
    totalPages: Type.Integer(),
    last: Type.Boolean(),
    first: Type.Boolean(),
    sort: SortState,
    number: Type.Integer(),
    numberOfElements: Type.Integer(),
    size: Type.Integer(),
    empty: Type.Boolean(),
  });
}
