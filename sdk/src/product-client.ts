import { type ClientOptions, type RequestOptions, type ResolvedBases, resolveBases } from './options.js';
import {
  arrayPage,
  DEFAULT_PAGE_SIZE,
  type Page,
  type PagePromise,
  type PageWrapper,
  pagePromise,
  wrappedPage,
} from './page.js';
import { type WithRequestId, withRequestId } from './request-id.js';
import { TokenProvider, type TokenResponse } from './token-provider.js';
import { type Call, type Query, Transport } from './transport.js';

/**
 * What GiftCards and Topups share: the resolved bases, the token service client and the product
 * base's transport, plus placing an order so that a retried one is never placed twice.
 */
export class ProductClient {
  readonly bases: ResolvedBases;
  protected readonly http: Transport;
  private readonly tokens: TokenProvider;

  protected constructor(options: ClientOptions, product: 'giftcards' | 'topups') {
    if (!options.clientId || !options.clientSecret)
      throw new TypeError('clientId and clientSecret are required');
    this.bases = resolveBases(options, product);
    const now = options.now ?? Date.now;
    const common = {
      fetch: options.fetch,
      retry: options.retry,
      onRequest: options.onRequest,
      timeoutMs: options.timeoutMs,
      headers: options.headers,
      now,
    };
    const auth = new Transport({ ...common, baseUrl: this.bases.authUrl, accept: 'application/json' });
    this.tokens = new TokenProvider(auth, options, this.bases.audience, now);
    this.http = new Transport({
      ...common,
      baseUrl: this.bases.baseUrl,
      accept: `application/com.airgift.${product}-v1+json`,
      auth: this.tokens,
    });
  }

  /** The current token answer (fetched on first use, then cached until shortly before it expires). */
  accessToken(): Promise<TokenResponse> {
    return this.tokens.response();
  }

  /** `GET` of one resource. */
  protected get<T>(path: string, query?: Query, options?: RequestOptions): Promise<WithRequestId<T>> {
    return this.http.json<T>({ method: 'GET', path, query, options });
  }

  /**
   * A list paged by `page`/`size` (the gift card lists): served as bare arrays, or in the top-up
   * wrapper to an account with the service's shapes; the Page is the same either way. `item` gives
   * each item the one shape this SDK types.
   */
  protected arrayList<T>(
    path: string,
    query: Query & { page?: number; size?: number },
    options?: RequestOptions,
    item: (value: T) => T = (value) => value,
  ): PagePromise<T> {
    const size = query.size ?? DEFAULT_PAGE_SIZE;
    const load = async (page: number): Promise<Page<T>> => {
      const answer = await this.get<T[] | PageWrapper<T>>(path, { ...query, page, size }, options);
      if (!Array.isArray(answer)) {
        return wrappedPage(
          withRequestId({ ...answer, content: answer.content.map(item) }, answer.requestId),
          load,
        );
      }
      return arrayPage(withRequestId(answer.map(item), answer.requestId), page, size, load);
    };
    return pagePromise(load, query.page ?? 1);
  }

  /** A list served in the top-up wrapper (`content`, `last`, `totalPages`, ...). */
  protected wrappedList<T>(
    path: string,
    query: Query & { page?: number; size?: number },
    options?: RequestOptions,
  ): PagePromise<T> {
    const load = async (page: number): Promise<Page<T>> =>
      wrappedPage(await this.get<PageWrapper<T>>(path, { ...query, page }, options), load);
    return pagePromise(load, query.page ?? 1);
  }

  /**
   * Places an order (POST). Without a customIdentifier it is sent once: a lost answer is reported,
   * never repeated. With one it may be retried; when a retry is refused (the identifier already used,
   * say) and `lookup` finds a transaction with that identifier, the earlier attempt did land, and that
   * transaction is returned instead of an error.
   */
  protected async placeOrder<T>(
    path: string,
    body: { customIdentifier?: string },
    lookup: (customIdentifier: string) => Promise<T | undefined>,
    options?: RequestOptions,
  ): Promise<WithRequestId<T>> {
    const call: Call = { method: 'POST', path, body, retryable: Boolean(body.customIdentifier), options };
    const answer = await this.http.send(call);
    if (answer.status >= 200 && answer.status < 300) return this.http.parse<T>(answer, call);
    // A refused retry may be refused because the first attempt landed: as a duplicate
    // customIdentifier, or by a rule the first order now trips (a top-up's PHONE_RECENTLY_RECHARGED).
    // If a transaction with this customIdentifier exists, that is the order placed.
    const refused =
      answer.status >= 400 && answer.status < 500 && answer.status !== 401 && answer.status !== 429;
    if (answer.attempts > 1 && refused && body.customIdentifier) {
      const placed = await lookup(body.customIdentifier);
      if (placed !== undefined) return placed as WithRequestId<T>;
    }
    throw this.http.error(answer, call);
  }
}
