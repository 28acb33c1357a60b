import type { ClientOptions } from './options.js';
import { DEFAULT_ITERATION_SIZE, iterateWrappedPages } from './paging.js';
import { ProductClient } from './product-client.js';
import type {
  AmountOptions,
  AutoDetectQuery,
  Balance,
  Commission,
  Operator,
  OperatorsByCountryQuery,
  OperatorsQuery,
  Page,
  Promotion,
  TopupCountry,
  TopupFxRate,
  TopupPageQuery,
  TopupRequest,
  TopupTransaction,
  TopupTransactionsQuery,
} from './topups-types.js';
import type { Query } from './transport.js';

const enc = encodeURIComponent;

/**
 * The mobile top-up service. Paged lists answer the spec's wrapper (`content`, `last`,
 * `totalPages`, ...); each has an `iterate…` twin that yields every item across pages.
 *
 * @example
 * const topups = new Topups({ clientId, clientSecret, environment: 'sandbox' });
 * const operator = await topups.autoDetect('+2348031234567', 'NG');
 * const sent = await topups.topup({
 *   operatorId: operator.operatorId, amount: 5, customIdentifier: 'topup-42',
 *   recipientPhone: { countryCode: 'NG', number: '+2348031234567' },
 * });
 */
export class Topups extends ProductClient {
  constructor(options: ClientOptions) {
    super(options, 'topups');
  }

  /**
   * `POST /topups`. Retried on 429, 503 and network errors only when `customIdentifier` is given;
   * if a retry learns the first attempt did land, that transaction is returned (sent once).
   */
  topup(request: TopupRequest): Promise<TopupTransaction> {
    return this.placeOrder('/topups', request, async (customIdentifier) => {
      const found = await this.transactions({ customIdentifier, size: 10 });
      return found.content.find((t) => t.customIdentifier === customIdentifier);
    });
  }

  /** `GET /accounts/balance`: the account's balance, shared with the gift card service. */
  balance(): Promise<Balance> {
    return this.get('/accounts/balance');
  }

  /** `GET /operators/commissions`: one page of every operator's commission. */
  commissions(query: TopupPageQuery = {}): Promise<Page<Commission>> {
    return this.get('/operators/commissions', { ...query });
  }

  /** Every operator's commission, across pages. */
  iterateCommissions(query: TopupPageQuery = {}): AsyncGenerator<Commission, void, undefined> {
    return this.iterate(query, (q) => this.commissions(q));
  }

  /** `GET /operators/{operatorId}/commissions`. */
  operatorCommission(operatorId: number): Promise<Commission> {
    return this.get(`/operators/${enc(operatorId)}/commissions`);
  }

  /** `POST /operators/fx-rate`: what `amount` (account currency) delivers with the operator. */
  fxRate(operatorId: number, amount: number): Promise<TopupFxRate> {
    // A POST that only reads, so it is as safe to retry as a GET.
    return this.http.json({
      method: 'POST',
      path: '/operators/fx-rate',
      body: { operatorId, amount },
      retryable: true,
    });
  }

  /** `GET /countries`. */
  countries(): Promise<TopupCountry[]> {
    return this.get('/countries');
  }

  /** `GET /countries/{countryIsoCode}`. */
  country(countryIsoCode: string): Promise<TopupCountry> {
    return this.get(`/countries/${enc(countryIsoCode)}`);
  }

  /** `GET /operators`: one page of operators. */
  operators(query: OperatorsQuery = {}): Promise<Page<Operator>> {
    return this.get('/operators', { ...query });
  }

  /** Every operator matching the query, across pages. */
  iterateOperators(query: OperatorsQuery = {}): AsyncGenerator<Operator, void, undefined> {
    return this.iterate(query, (q) => this.operators(q));
  }

  /** `GET /operators/{operatorId}`. */
  operator(operatorId: number, query: AmountOptions = {}): Promise<Operator> {
    return this.get(`/operators/${enc(operatorId)}`, { ...query });
  }

  /**
   * `GET /operators/auto-detect/phone/{phone}/countries/{iso}`: the operator serving a number
   * (given with or without its country prefix).
   */
  autoDetect(phone: string, countryIsoCode: string, query: AutoDetectQuery = {}): Promise<Operator> {
    return this.get(`/operators/auto-detect/phone/${enc(phone)}/countries/${enc(countryIsoCode)}`, {
      ...query,
    });
  }

  /** `GET /operators/countries/{countryIsoCode}`: every operator of a country. */
  operatorsByCountry(countryIsoCode: string, query: OperatorsByCountryQuery = {}): Promise<Operator[]> {
    return this.get(`/operators/countries/${enc(countryIsoCode)}`, { ...query });
  }

  /** `GET /promotions`: one page of current promotions. */
  promotions(query: TopupPageQuery = {}): Promise<Page<Promotion>> {
    return this.get('/promotions', { ...query });
  }

  /** Every promotion, across pages. */
  iteratePromotions(query: TopupPageQuery = {}): AsyncGenerator<Promotion, void, undefined> {
    return this.iterate(query, (q) => this.promotions(q));
  }

  /** `GET /promotions/{promotionId}`. */
  promotion(promotionId: number): Promise<Promotion> {
    return this.get(`/promotions/${enc(promotionId)}`);
  }

  /** `GET /promotions/country-codes/{countryCode}`. */
  promotionsByCountry(countryCode: string): Promise<Promotion[]> {
    return this.get(`/promotions/country-codes/${enc(countryCode)}`);
  }

  /** `GET /promotions/operators/{operatorId}`. */
  promotionsByOperator(operatorId: number): Promise<Promotion[]> {
    return this.get(`/promotions/operators/${enc(operatorId)}`);
  }

  /** `GET /topups/reports/transactions`: one page of the account's top-ups (newest first). */
  transactions(query: TopupTransactionsQuery = {}): Promise<Page<TopupTransaction>> {
    return this.get('/topups/reports/transactions', { ...query });
  }

  /** Every top-up matching the query, across pages. */
  iterateTransactions(query: TopupTransactionsQuery = {}): AsyncGenerator<TopupTransaction, void, undefined> {
    return this.iterate(query, (q) => this.transactions(q));
  }

  /** `GET /topups/reports/transactions/{transactionId}`. */
  transaction(transactionId: number | string): Promise<TopupTransaction> {
    return this.get(`/topups/reports/transactions/${enc(transactionId)}`);
  }

  private get<T>(path: string, query?: Query): Promise<T> {
    return this.http.json<T>({ method: 'GET', path, query });
  }

  private iterate<T, Q extends TopupPageQuery>(query: Q, fetchPage: (q: Q) => Promise<Page<T>>) {
    return iterateWrappedPages(
      (page, size) => fetchPage({ ...query, page, size }),
      query.size ?? DEFAULT_ITERATION_SIZE,
      query.page ?? 1,
    );
  }
}
