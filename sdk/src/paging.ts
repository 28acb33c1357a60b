/** The page size the admin iterators ask for when the query gives none. */
export const DEFAULT_ITERATION_SIZE = 200;

/**
 * Every item of a list served as bare arrays (`page`, `size`), page after page, from `firstPage`
 * on. It stops at the first page shorter than `size` (or longer: a server that does not page).
 * The admin client's `iterate…` methods use it; the product clients' lists return a PagePromise.
 *
 * @example
 * for await (const a of iterateArrayPages((page, size) => admin.accounts.list({ page, size }).then((l) => l.items), 50)) ...
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

export { toArray } from './page.js';
