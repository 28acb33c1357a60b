import type {
  Balance,
  BrandRedeemInstruction,
  Category,
  Country,
  Deliveries,
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
  ResendRequest,
} from './giftcards-types.js';
import { parseWithExactNumbers } from './lossless-json.js';
import type { ClientOptions, RequestOptions } from './options.js';
import type { PagePromise } from './page.js';
import { ProductClient } from './product-client.js';
import { type WithRequestId, withRequestId } from './request-id.js';

const enc = encodeURIComponent;
type R<T> = Promise<WithRequestId<T>>;

/**
 * The gift card service, by resource. Paged lists return a PagePromise: `await` it for one page,
 * or `for await` it for every item across pages. Every method takes RequestOptions last.
 *
 * @example
 * const giftcards = new GiftCards({ clientId, clientSecret, environment: 'sandbox' });
 * const product = await giftcards.products.get(11);
 * const order = await giftcards.orders.create({
 *   productId: 11, quantity: 1, unitPrice: 10, senderName: 'Acme', customIdentifier: 'order-42',
 * });
 * const [card] = await giftcards.orders.cards(order.transactionId); // card.cardNumber: exact digits, a string
 */
/**
 * A product as this SDK types it, whichever shapes the account answers (docs/compatibility.md): the
 * service's shapes send `fixedRecipientToSenderDenominationsMap` as one object, read here as the
 * documented one-key objects, in the same order.
 */
function documentedProduct(product: Product): Product {
  const map: unknown = product.fixedRecipientToSenderDenominationsMap;
  if (Array.isArray(map) || map === null || typeof map !== 'object') return product;
  return {
    ...product,
    fixedRecipientToSenderDenominationsMap: Object.entries(map as Record<string, number>).map(
      ([recipient, sender]) => ({ [recipient]: sender }),
    ),
  };
}

export class GiftCards extends ProductClient {
  constructor(options: ClientOptions) {
    super(options, 'giftcards');
  }

  readonly balance = {
    /** `GET /accounts/balance`: the account's balance, shared with the top-up service. */
    get: (options?: RequestOptions): R<Balance> => this.get('/accounts/balance', undefined, options),
  };

  readonly categories = {
    /** `GET /product-categories`. */
    list: (options?: RequestOptions): R<Category[]> => this.get('/product-categories', undefined, options),
  };

  readonly countries = {
    /** `GET /countries`. */
    list: (options?: RequestOptions): R<Country[]> => this.get('/countries', undefined, options),
    /** `GET /countries/{countryCode}`. */
    get: (countryCode: string, options?: RequestOptions): R<Country> =>
      this.get(`/countries/${enc(countryCode)}`, undefined, options),
    /** `GET /countries/{countryCode}/products`: the products available to a country, paged. */
    products: (countryCode: string, query: PageQuery = {}, options?: RequestOptions): PagePromise<Product> =>
      this.arrayList(`/countries/${enc(countryCode)}/products`, { ...query }, options, documentedProduct),
  };

  readonly products = {
    /** `GET /products`: products, filtered and paged. */
    list: (query: ProductsQuery = {}, options?: RequestOptions): PagePromise<Product> =>
      this.arrayList('/products', { ...query }, options, documentedProduct),
    /** `GET /products/{productId}`. */
    get: async (productId: number, options?: RequestOptions): R<Product> => {
      const product = await this.get<Product>(`/products/${enc(productId)}`, undefined, options);
      return withRequestId(documentedProduct(product), product.requestId);
    },
    /** `GET /products/{productId}/redeem-instructions`. */
    redeemInstructions: (productId: number, options?: RequestOptions): R<ProductRedeemInstruction> =>
      this.get(`/products/${enc(productId)}/redeem-instructions`, undefined, options),
    /** `GET /products/{productId}/discounts`: the product's discount. */
    discount: (productId: number, options?: RequestOptions): R<Discount> =>
      this.get(`/products/${enc(productId)}/discounts`, undefined, options),
  };

  readonly redeemInstructions = {
    /** `GET /redeem-instructions`: every brand's redeem instructions. */
    list: (options?: RequestOptions): R<BrandRedeemInstruction[]> =>
      this.get('/redeem-instructions', undefined, options),
    /** `GET /brands/{brandId}/redeem-instructions`: one brand's. */
    forBrand: (brandId: number, options?: RequestOptions): R<BrandRedeemInstruction> =>
      this.get(`/brands/${enc(brandId)}/redeem-instructions`, undefined, options),
    /** `GET /products/{productId}/redeem-instructions`: one product's. */
    forProduct: (productId: number, options?: RequestOptions): R<ProductRedeemInstruction> =>
      this.get(`/products/${enc(productId)}/redeem-instructions`, undefined, options),
  };

  readonly discounts = {
    /** `GET /discounts`: every discounted product, paged. */
    list: (query: PageQuery = {}, options?: RequestOptions): PagePromise<Discount> =>
      this.arrayList('/discounts', { ...query }, options),
    /** `GET /products/{productId}/discounts`. */
    forProduct: (productId: number, options?: RequestOptions): R<Discount> =>
      this.get(`/products/${enc(productId)}/discounts`, undefined, options),
  };

  readonly fx = {
    /** `GET /fx-rate`: what `amount` of recipient currency `currencyCode` costs in the account currency. */
    rate: (currencyCode: string, amount: number | string, options?: RequestOptions): R<GiftCardFxRate> =>
      this.get('/fx-rate', { currencyCode, amount: String(amount) }, options),
  };

  readonly orders = {
    /**
     * `POST /orders`. Retried on 429, 503 and network errors only when `customIdentifier` is given;
     * if a retry learns the first attempt did land, that transaction is returned (placed once).
     */
    create: (request: OrderRequest, options?: RequestOptions): R<GiftCardTransaction> =>
      this.placeOrder(
        '/orders',
        request,
        async (customIdentifier) => {
          const page = await this.transactions.list({ customIdentifier, size: 10 }, options);
          const found = page.content.find((t) => t.customIdentifier === customIdentifier);
          return found && withRequestId(found, page.requestId);
        },
        options,
      ),
    /**
     * `GET /orders/transactions/{transactionId}/cards`: the redeem codes of a successful purchase,
     * one per card, with `cardNumber` and `pinCode` as strings holding every digit the server sent.
     */
    cards: async (transactionId: number | string, options?: RequestOptions): R<RedeemCode[]> => {
      const path = `/orders/transactions/${enc(transactionId)}/cards`;
      const parsed = await this.http.json<unknown>({ method: 'GET', path, options }, (text) =>
        parseWithExactNumbers(text, ['cardNumber', 'pinCode']),
      );
      const list = (Array.isArray(parsed) ? parsed : [parsed]) as Array<Record<string, unknown>>;
      const cards = list.map((card) => ({
        ...card,
        cardNumber: card.cardNumber == null ? '' : String(card.cardNumber),
        pinCode: card.pinCode == null ? '' : String(card.pinCode),
      }));
      return withRequestId(cards, parsed.requestId);
    },
  };

  readonly deliveries = {
    /** `GET /orders/transactions/{transactionId}/deliveries`: what went to the recipient, and the reveals. */
    list: (transactionId: number | string, options?: RequestOptions): R<Deliveries> =>
      this.get(`/orders/transactions/${enc(transactionId)}/deliveries`, undefined, options),
    /**
     * `POST /orders/transactions/{transactionId}/deliveries`: sends the recipient's message again with a
     * new link (the older ones stop working), optionally to a corrected address; once per 30 s per order.
     *
     * @example
     * await giftcards.deliveries.resend(order.transactionId, { recipientEmail: 'grace@example.org' });
     */
    resend: (
      transactionId: number | string,
      request: ResendRequest = {},
      options?: RequestOptions,
    ): R<Deliveries> =>
      this.http.json<Deliveries>({
        method: 'POST',
        path: `/orders/transactions/${enc(transactionId)}/deliveries`,
        body: request,
        options,
      }),
  };

  readonly transactions = {
    /**
     * `GET /reports/transactions`: the account's purchases, paged.
     *
     * @example
     * for await (const t of giftcards.transactions.list({ startDate: '2026-11-01 00:00:00', endDate: '2026-11-30 23:59:59' }))
     *   console.log(t.transactionId, t.amount);
     */
    list: (
      query: GiftCardTransactionsQuery = {},
      options?: RequestOptions,
    ): PagePromise<GiftCardTransaction> => this.arrayList('/reports/transactions', { ...query }, options),
    /** `GET /reports/transactions/{transactionId}`. */
    get: (transactionId: number | string, options?: RequestOptions): R<GiftCardTransaction> =>
      this.get(`/reports/transactions/${enc(transactionId)}`, undefined, options),
  };
}
