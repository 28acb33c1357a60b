import type { WithRequestId } from './request-id.js';

/** The page size asked for when a list call gives none and the list has no wrapper to say it. */
export const DEFAULT_PAGE_SIZE = 200;

/** Fetches page `page` (1-based) of a list. */
export type PageLoader<T> = (page: number) => Promise<Page<T>>;

/**
 * One page of any paged list, gift card or top-up alike. `page` is 1-based; `totalElements` and
 * `totalPages` are null where the API does not tell them (the gift card lists in the documented shapes). Iterating a page
 * with `for await` yields its items and those of every page after it.
 *
 * @example
 * const page = await airgift.topups.operators.list({ size: 50 });
 * console.log(page.content.length, page.totalElements, page.last);
 * const next = await page.nextPage(); // null after the last page
 */
export class Page<T> implements AsyncIterable<T> {
  readonly content: T[];
  readonly page: number;
  readonly size: number;
  readonly first: boolean;
  readonly last: boolean;
  readonly totalElements: number | null;
  readonly totalPages: number | null;
  /** The `X-Request-Id` of the answer this page came in. */
  readonly requestId: string | null;
  readonly #load: PageLoader<T>;

  constructor(init: Omit<Page<T>, 'nextPage' | typeof Symbol.asyncIterator>, load: PageLoader<T>) {
    this.content = init.content;
    this.page = init.page;
    this.size = init.size;
    this.first = init.first;
    this.last = init.last;
    this.totalElements = init.totalElements;
    this.totalPages = init.totalPages;
    this.requestId = init.requestId;
    this.#load = load;
  }

  /** The page after this one, or null when this is the last. */
  async nextPage(): Promise<Page<T> | null> {
    return this.last ? null : this.#load(this.page + 1);
  }

  /** This page's items, then every later page's, fetched as they are reached. */
  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    let current: Page<T> | null = this;
    while (current) {
      yield* current.content;
      current = await current.nextPage();
    }
  }
}

/**
 * What a list method returns: await it for the first page, or iterate it with `for await` for every
 * item across pages (fetching the next page only when the loop reaches it; `break` fetches no more).
 *
 * @example
 * for await (const product of airgift.giftcards.products.list({ countryCode: 'US' })) console.log(product.productName);
 */
export type PagePromise<T> = Promise<Page<T>> & AsyncIterable<T>;

/** Starts loading `firstPage` at once and returns it as a PagePromise. */
export function pagePromise<T>(load: PageLoader<T>, firstPage: number): PagePromise<T> {
  const first = load(firstPage);
  const iterable: AsyncIterable<T> = {
    async *[Symbol.asyncIterator]() {
      yield* await first;
    },
  };
  return Object.assign(first, iterable);
}

/**
 * A page of a list served as a bare array (the gift card lists): it is the last when it holds fewer
 * than `size` items (a page past the end is empty).
 */
export function arrayPage<T>(
  items: WithRequestId<T[]>,
  page: number,
  size: number,
  load: PageLoader<T>,
): Page<T> {
  return new Page(
    {
      content: [...items],
      page,
      size,
      first: page === 1,
      last: items.length < size,
      totalElements: null,
      totalPages: null,
      requestId: items.requestId ?? null,
    },
    load,
  );
}

/** The top-up API's paged wrapper as it arrives (`number` is 0-based). */
export interface PageWrapper<T> {
  content: T[];
  first: boolean;
  last: boolean;
  number: number;
  size: number;
  totalElements: number;
  totalPages: number;
}

/** A page of a list served in the top-up wrapper. */
export function wrappedPage<T>(wrapper: WithRequestId<PageWrapper<T>>, load: PageLoader<T>): Page<T> {
  return new Page(
    {
      content: wrapper.content,
      page: wrapper.number + 1,
      size: wrapper.size,
      first: wrapper.first,
      // An empty page is the end even if a server forgot to say so.
      last: wrapper.last || wrapper.content.length === 0,
      totalElements: wrapper.totalElements,
      totalPages: wrapper.totalPages,
      requestId: wrapper.requestId ?? null,
    },
    load,
  );
}

/** Collects an async iterable into an array (for lists you know are small). */
export async function toArray<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}
