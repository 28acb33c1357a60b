import type { ClientOptions, RequestOptions } from './options.js';
import type { PagePromise } from './page.js';
import { ProductClient } from './product-client.js';
import { type WithRequestId, withRequestId } from './request-id.js';
import type {
  AmountOptions,
  AutoDetectQuery,
  Balance,
  Commission,
  Operator,
  OperatorsByCountryQuery,
  OperatorsQuery,
  Promotion,
  TopupCountry,
  TopupFxRate,
  TopupPageQuery,
  TopupRequest,
  TopupTransaction,
  TopupTransactionsQuery,
} from './topups-types.js';

const enc = encodeURIComponent;
type R<T> = Promise<WithRequestId<T>>;

/**
 * The mobile top-up service, by resource. Paged lists return a PagePromise: `await` it for one
 * page, or `for await` it for every item across pages. Every method takes RequestOptions last.
 *
 * @example
 * const topups = new Topups({ clientId, clientSecret, environment: 'sandbox' });
 * const operator = await topups.operators.autoDetect('+2348031234567', 'NG');
 * const sent = await topups.orders.create({
 *   operatorId: operator.operatorId, amount: 5, customIdentifier: 'topup-42',
 *   recipientPhone: { countryCode: 'NG', number: '+2348031234567' },
 * });
 */
export class Topups extends ProductClient {
  constructor(options: ClientOptions) {
    super(options, 'topups');
  }

  readonly orders = {
    /**
     * `POST /topups`: sends a top-up. Retried on 429, 503 and network errors only when
     * `customIdentifier` is given; if a retry learns the first attempt did land, that transaction is
     * returned (sent once).
     */
    create: (request: TopupRequest, options?: RequestOptions): R<TopupTransaction> =>
      this.placeOrder(
        '/topups',
        request,
        async (customIdentifier) => {
          const page = await this.transactions.list({ customIdentifier, size: 10 }, options);
          const found = page.content.find((t) => t.customIdentifier === customIdentifier);
          return found && withRequestId(found, page.requestId);
        },
        options,
      ),
  };

  readonly balance = {
    /** `GET /accounts/balance`: the account's balance, shared with the gift card service. */
    get: (options?: RequestOptions): R<Balance> => this.get('/accounts/balance', undefined, options),
  };

  readonly countries = {
    /** `GET /countries`. */
    list: (options?: RequestOptions): R<TopupCountry[]> => this.get('/countries', undefined, options),
    /** `GET /countries/{countryIsoCode}`. */
    get: (countryIsoCode: string, options?: RequestOptions): R<TopupCountry> =>
      this.get(`/countries/${enc(countryIsoCode)}`, undefined, options),
  };

  readonly operators = {
    /** `GET /operators`: operators, filtered and paged. */
    list: (query: OperatorsQuery = {}, options?: RequestOptions): PagePromise<Operator> =>
      this.wrappedList('/operators', { ...query }, options),
    /** `GET /operators/{operatorId}`. */
    get: (operatorId: number, query: AmountOptions = {}, options?: RequestOptions): R<Operator> =>
      this.get(`/operators/${enc(operatorId)}`, { ...query }, options),
    /**
     * `GET /operators/auto-detect/phone/{phone}/countries/{iso}`: the operator serving a number
     * (given with or without its country prefix).
     */
    autoDetect: (
      phone: string,
      countryIsoCode: string,
      query: AutoDetectQuery = {},
      options?: RequestOptions,
    ): R<Operator> =>
      this.get(
        `/operators/auto-detect/phone/${enc(phone)}/countries/${enc(countryIsoCode)}`,
        { ...query },
        options,
      ),
    /** `GET /operators/countries/{countryIsoCode}`: every operator of a country. */
    byCountry: (
      countryIsoCode: string,
      query: OperatorsByCountryQuery = {},
      options?: RequestOptions,
    ): R<Operator[]> => this.get(`/operators/countries/${enc(countryIsoCode)}`, { ...query }, options),
    /**
     * `POST /operators/fx-rate`: what `amount` (account currency) delivers with the operator, in its
     * destination currency. (`POST /operators/{operatorId}/fx-rate` answers the same.)
     */
    fxRate: (operatorId: number, amount: number, options?: RequestOptions): R<TopupFxRate> =>
      // A POST that only reads, so it is as safe to retry as a GET.
      this.http.json({
        method: 'POST',
        path: '/operators/fx-rate',
        body: { operatorId, amount },
        retryable: true,
        options,
      }),
  };

  readonly commissions = {
    /** `GET /operators/commissions`: every operator's commission, paged. */
    list: (query: TopupPageQuery = {}, options?: RequestOptions): PagePromise<Commission> =>
      this.wrappedList('/operators/commissions', { ...query }, options),
    /** `GET /operators/{operatorId}/commissions`. */
    forOperator: (operatorId: number, options?: RequestOptions): R<Commission> =>
      this.get(`/operators/${enc(operatorId)}/commissions`, undefined, options),
  };

  readonly promotions = {
    /** `GET /promotions`: current promotions, paged. */
    list: (query: TopupPageQuery = {}, options?: RequestOptions): PagePromise<Promotion> =>
      this.wrappedList('/promotions', { ...query }, options),
    /** `GET /promotions/{promotionId}`. */
    get: (promotionId: number, options?: RequestOptions): R<Promotion> =>
      this.get(`/promotions/${enc(promotionId)}`, undefined, options),
    /** `GET /promotions/country-codes/{countryCode}`: a country's promotions. */
    byCountry: (countryCode: string, options?: RequestOptions): R<Promotion[]> =>
      this.get(`/promotions/country-codes/${enc(countryCode)}`, undefined, options),
    /** `GET /promotions/operators/{operatorId}`: an operator's promotions. */
    byOperator: (operatorId: number, options?: RequestOptions): R<Promotion[]> =>
      this.get(`/promotions/operators/${enc(operatorId)}`, undefined, options),
  };

  readonly transactions = {
    /** `GET /topups/reports/transactions`: the account's top-ups (newest first), paged. */
    list: (query: TopupTransactionsQuery = {}, options?: RequestOptions): PagePromise<TopupTransaction> =>
      this.wrappedList('/topups/reports/transactions', { ...query }, options),
    /** `GET /topups/reports/transactions/{transactionId}`. */
    get: (transactionId: number | string, options?: RequestOptions): R<TopupTransaction> =>
      this.get(`/topups/reports/transactions/${enc(transactionId)}`, undefined, options),
  };
}
