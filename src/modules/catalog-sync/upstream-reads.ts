import { AppError } from '../../errors/error-codes.ts';
import type { UpstreamClient } from '../upstream/index.ts';

/**
 * The GETs a catalogue sync makes at the upstream: a 200 answer's body, else a 503 naming what
 * failed (nothing of the live catalogue is changed by a sync that failed anywhere).
 *
 * @example
 * const categories = await readUpstream<Category[]>(client, '/product-categories');
 */
export async function readUpstream<T>(
  client: UpstreamClient,
  path: string,
  query?: Record<string, string | number>,
): Promise<T> {
  const answer = await client.call('GET', path, { query });
  if (answer.kind !== 'answered') {
    throw new AppError(
      'SERVICE_UNAVAILABLE',
      `Catalogue sync: GET ${path} at the upstream: ${answer.reason}`,
    );
  }
  if (answer.status !== 200) {
    const why = `HTTP ${answer.status} ${answer.errorCode ?? ''} ${answer.message ?? ''}`.trim();
    throw new AppError('SERVICE_UNAVAILABLE', `Catalogue sync: GET ${path} at the upstream: ${why}`);
  }
  return answer.body as T;
}

/**
 * Every page of a list the upstream pages with `page` (1-based) and `size`: plain arrays (gift
 * cards) or the paged wrapper's `content` (top-ups), until a short page. Bounded at `maxPages`.
 *
 * @example
 * const products = await readAllPages<Product>(client, '/products', { includeRange: 'true' });
 */
export async function readAllPages<T>(
  client: UpstreamClient,
  path: string,
  query: Record<string, string | number> = {},
  size = 1000,
  maxPages = 200,
): Promise<T[]> {
  const all: T[] = [];
  for (let page = 1; page <= maxPages; page++) {
    const body = await readUpstream<T[] | { content: T[] }>(client, path, { ...query, page, size });
    const items = Array.isArray(body) ? body : (body?.content ?? []);
    all.push(...items);
    if (items.length < size) return all;
  }
  throw new AppError('SERVICE_UNAVAILABLE', `Catalogue sync: ${path} has more than ${maxPages} pages`);
}
