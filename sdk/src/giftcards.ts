import type {
  Balance,
  BrandRedeemInstruction,
  Category,
  Country,
  Discount,
  GiftCardFxRate,
  GiftCardTransaction,
  GiftCardTransactionsQuery,
  OrderRequest,
  PageQuery,
  Product,
  ProductRedeemInstruction,
  ProductsQuery,
  RedeemCode,
} from './giftcards-types.js';
import { parseWithExactNumbers } from './lossless-json.js';
import type { ClientOptions } from './options.js';
import { DEFAULT_ITERATION_SIZE, iterateArrayPages } from './paging.js';
import { ProductClient } from './product-client.js';
import type { Query } from './transport.js';

const enc = encodeURIComponent;

/**
 * The gift card service. Lists are bare arrays paged by `page`/`size`; each has an `iterate…`
 * twin that walks every page for you.
 *
 * @example
 * const giftcards = new GiftCards({ clientId, clientSecret, environment: 'sandbox' });
 * const product = await giftcards.product(11);
 * const order = await giftcards.order({
 *   productId: 11, quantity: 1, unitPrice: 10, senderName: 'Acme', customIdentifier: 'order-42',
 * });
 * const [card] = await giftcards.cards(order.transactionId); // card.cardNumber: exact digits, a string
 */
export class GiftCards extends ProductClient {
  constructor(options: ClientOptions) {
    super(options, 'giftcards');
  }

  /** `GET /accounts/balance`: the account's balance, shared with the top-up service. */
  balance(): Promise<Balance> {
    return this.get('/accounts/balance');
  }

  /** `GET /product-categories`. */
  categories(): Promise<Category[]> {
    return this.get('/product-categories');
  }

  /** `GET /countries`. */
  countries(): Promise<Country[]> {
    return this.get('/countries');
  }

  /** `GET /countries/{countryCode}`. */
  country(countryCode: string): Promise<Country> {
    return this.get(`/countries/${enc(countryCode)}`);
  }

  /** `GET /products`: one page of products, filtered. */
  products(query: ProductsQuery = {}): Promise<Product[]> {
    return this.get('/products', { ...query });
  }

  /** Every product matching the filters, across pages (`size` per request, default 200). */
  iterateProducts(query: ProductsQuery = {}): AsyncGenerator<Product, void, undefined> {
    return this.iterate(query, (q) => this.products(q));
  }

  /** `GET /products/{productId}`. */
  product(productId: number): Promise<Product> {
    return this.get(`/products/${enc(productId)}`);
  }

  /** `GET /countries/{countryCode}/products`: one page of the products available to a country. */
  countryProducts(countryCode: string, query: PageQuery = {}): Promise<Product[]> {
    return this.get(`/countries/${enc(countryCode)}/products`, { ...query });
  }

  /** Every product available to a country, across pages. */
  iterateCountryProducts(
    countryCode: string,
    query: PageQuery = {},
  ): AsyncGenerator<Product, void, undefined> {
    return this.iterate(query, (q) => this.countryProducts(countryCode, q));
  }

  /** `GET /redeem-instructions`: every brand's redeem instructions. */
  redeemInstructions(): Promise<BrandRedeemInstruction[]> {
    return this.get('/redeem-instructions');
  }

  /** `GET /products/{productId}/redeem-instructions`. */
  productRedeemInstructions(productId: number): Promise<ProductRedeemInstruction> {
    return this.get(`/products/${enc(productId)}/redeem-instructions`);
  }

  /** `GET /fx-rate`: what `amount` of recipient currency `currencyCode` costs in the account currency. */
  fxRate(currencyCode: string, amount: number | string): Promise<GiftCardFxRate> {
    return this.get('/fx-rate', { currencyCode, amount: String(amount) });
  }

  /** `GET /discounts`: one page of discounts. */
  discounts(query: PageQuery = {}): Promise<Discount[]> {
    return this.get('/discounts', { ...query });
  }

  /** Every discount, across pages. */
  iterateDiscounts(query: PageQuery = {}): AsyncGenerator<Discount, void, undefined> {
    return this.iterate(query, (q) => this.discounts(q));
  }

  /** `GET /products/{productId}/discounts`. */
  productDiscount(productId: number): Promise<Discount> {
    return this.get(`/products/${enc(productId)}/discounts`);
  }

  /** `GET /reports/transactions`: one page of the account's purchases. */
  transactions(query: GiftCardTransactionsQuery = {}): Promise<GiftCardTransaction[]> {
    return this.get('/reports/transactions', { ...query });
  }

  /**
   * Every purchase matching the query, across pages.
   *
   * @example
   * for await (const t of giftcards.iterateTransactions({ startDate: '2026-11-01 00:00:00', endDate: '2026-11-30 23:59:59' }))
   *   console.log(t.transactionId, t.amount);
   */
  iterateTransactions(
    query: GiftCardTransactionsQuery = {},
  ): AsyncGenerator<GiftCardTransaction, void, undefined> {
    return this.iterate(query, (q) => this.transactions(q));
  }

  /** `GET /reports/transactions/{transactionId}`. */
  transaction(transactionId: number | string): Promise<GiftCardTransaction> {
    return this.get(`/reports/transactions/${enc(transactionId)}`);
  }

  /**
   * `POST /orders`. Retried on 429, 503 and network errors only when `customIdentifier` is given;
   * if a retry learns the first attempt did land, that transaction is returned (placed once).
   */
  order(request: OrderRequest): Promise<GiftCardTransaction> {
    return this.placeOrder('/orders', request, async (customIdentifier) => {
      const found = await this.transactions({ customIdentifier, size: 10 });
      return found.find((t) => t.customIdentifier === customIdentifier);
    });
  }

  /**
   * `GET /orders/transactions/{transactionId}/cards`: the redeem codes of a successful purchase,
   * one per card, with `cardNumber` and `pinCode` as strings holding every digit the server sent.
   */
  async cards(transactionId: number | string): Promise<RedeemCode[]> {
    const path = `/orders/transactions/${enc(transactionId)}/cards`;
    const parsed = await this.http.json<unknown>({ method: 'GET', path }, (text) =>
      parseWithExactNumbers(text, ['cardNumber', 'pinCode']),
    );
    const list = (Array.isArray(parsed) ? parsed : [parsed]) as Array<Record<string, unknown>>;
    return list.map((card) => ({
      ...card,
      cardNumber: card.cardNumber == null ? '' : String(card.cardNumber),
      pinCode: card.pinCode == null ? '' : String(card.pinCode),
    }));
  }

  private get<T>(path: string, query?: Query): Promise<T> {
    return this.http.json<T>({ method: 'GET', path, query });
  }

  private iterate<T, Q extends PageQuery>(query: Q, fetchPage: (q: Q) => Promise<T[]>) {
    return iterateArrayPages(
      (page, size) => fetchPage({ ...query, page, size }),
      query.size ?? DEFAULT_ITERATION_SIZE,
      query.page ?? 1,
    );
  }
}
