import type { Page } from './topups-types.js';

/** The page size the iterators ask for when the query gives none. */
export const DEFAULT_ITERATION_SIZE = 200;

/**
 * Every item of a list served as bare arrays (`page`, `size`), page after page, from `firstPage`
 * on. It stops at the first page shorter than `size` (or longer: a server that does not page).
 *
 * @example
 * for await (const p of iterateArrayPages((page, size) => giftcards.products({ page, size }), 50)) ...
 */
export async function* iterateArrayPages<T>(
  fetchPage: (page: number, size: number) => Promise<T[]>,
  size: number = DEFAULT_ITERATION_SIZE,
  firstPage = 1,
): AsyncGenerator<T, void, undefined> {
  for (let page = firstPage; ; page++) {
    const items = await fetchPage(page, size);
    yield* items;
    if (items.length !== size) return;
  }
}

/** Every item of a list served in the top-up spec's paged wrapper, until the page marked `last`. */
export async function* iterateWrappedPages<T>(
  fetchPage: (page: number, size: number) => Promise<Page<T>>,
  size: number = DEFAULT_ITERATION_SIZE,
  firstPage = 1,
): AsyncGenerator<T, void, undefined> {
  for (let page = firstPage; ; page++) {
    const answer = await fetchPage(page, size);
    yield* answer.content;
    if (answer.last || answer.content.length === 0 || page >= answer.totalPages) return;
  }
}

/** Collects an async iterable into an array (for lists you know are small). */
export async function toArray<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}
