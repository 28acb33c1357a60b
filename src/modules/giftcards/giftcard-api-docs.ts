import type { ApiDocs } from '../../http/openapi.ts';
import { Balance } from '../../http/schemas.ts';
import { EMAIL_PATTERN, MAX_EMAIL_LENGTH } from '../../lib/email.ts';
import { BALANCE_TAG, balanceDocs } from '../accounts/index.ts';
import { DEBIT_REFUSALS } from '../orders/index.ts';
import * as C from './catalog/catalog-schemas.ts';
import * as D from './delivery/delivery-schemas.ts';
import { DATE_TIME_TEXT } from './orders/order-reports.ts';
import { MAX_SENDER_NAME } from './orders/order-request.ts';
import * as O from './orders/order-schemas.ts';

/** The report bounds' form, checked by the service (INVALID_REQUEST naming the parameter). */
const REPORT_DATES = {
  'query.startDate': { pattern: DATE_TIME_TEXT.source },
  'query.endDate': { pattern: DATE_TIME_TEXT.source },
};

/** Where an account's `shapes` setting changes an answer (docs/compatibility.md). */
const PAGED_FOR_SERVICE =
  ' An account with the service shapes gets the paged wrapper (`content`, `totalElements`, `totalPages`, ...) instead of the bare array.';
const MAP_FOR_SERVICE =
  ' An account with the service shapes gets `fixedRecipientToSenderDenominationsMap` as one object (`{"10.00": 10}`) instead of one-key objects.';

/**
 * What the gift card OpenAPI document says about each operation besides its schemas: summary,
 * description, tag and the error codes it answers beyond those every operation shares
 * (`http/openapi.ts` adds 401/403/406/429/500/503, and 400/404/413/415 where the route takes input).
 * Keyed by `METHOD path` as the document spells the path; `npm run lint:openapi` fails an operation
 * without a summary.
 */
export const GIFTCARD_API_DOCS: ApiDocs = {
  title: 'airgift gift card service',
  description:
    'Sell digital gift cards: browse the catalog (products, countries, categories, redeem instructions, discounts), ' +
    'price an amount in your account currency, order cards and read their codes, and look up past transactions. ' +
    'Every call needs an OAuth 2.0 access token whose audience is this base URL (see [Getting started](docs/getting-started)).',
  tags: [
    BALANCE_TAG,
    { name: 'Catalog', description: 'Products, countries and categories, priced in the account currency.' },
    { name: 'Redeem instructions', description: 'How a recipient redeems a card, per brand or per product.' },
    { name: 'Pricing', description: 'FX rates and discounts.' },
    { name: 'Orders', description: 'Ordering cards and reading their redeem codes.' },
    { name: 'Reports', description: 'Past transactions of the account.' },
    {
      name: 'Delivery',
      description: "What was sent to an order's recipient (e-mail, SMS), and resending it.",
    },
  ],
  scopes: { developer: 'Every gift card operation: catalog, orders, redeem codes and reports.' },
  schemas: {
    Product: C.Product,
    ServiceProduct: C.ServiceProduct,
    ProductPage: C.ProductPage,
    DiscountPage: C.DiscountPage,
    TransactionPage: O.TransactionPage,
    Category: C.Category,
    Country: C.Country,
    BrandRedeemInstruction: C.BrandRedeemInstruction,
    ProductRedeemInstruction: C.ProductRedeemInstruction,
    FxRate: C.FxRate,
    Discount: C.Discount,
    OrderRequest: O.OrderBody,
    Transaction: O.Transaction,
    RedeemCode: O.RedeemCodes.items,
    Delivery: D.Delivery,
    Deliveries: D.Deliveries,
    ResendRequest: D.ResendBody,
    Balance,
  },
  operations: {
    'GET /accounts/balance': balanceDocs('Orders are debited from it at the moment they are accepted.'),
    'GET /product-categories': {
      tag: 'Catalog',
      summary: 'List product categories',
      description:
        'Every category a product can belong to (the `productCategoryId` filter of `GET /products`).',
    },
    'GET /countries': {
      tag: 'Catalog',
      summary: 'List countries',
      description: 'The countries that have at least one gift card product, with their currency and flag.',
    },
    'GET /countries/{countrycode}': {
      tag: 'Catalog',
      summary: 'Get a country',
      description: 'One country by its ISO 3166-1 alpha-2 code (case-insensitive). An unknown code is a 404.',
    },
    'GET /countries/{countrycode}/products': {
      tag: 'Catalog',
      summary: 'List the products of a country',
      description:
        'The active products sold in one country, priced in the account currency; paged with `page` and `size`.' +
        MAP_FOR_SERVICE,
    },
    'GET /products': {
      tag: 'Catalog',
      summary: 'List products',
      description:
        'Every active product, priced in the account currency (`senderCurrencyCode`). Filter by name, country or category; ' +
        '`includeRange=false` leaves out RANGE products and `includeFixed=false` FIXED ones. Paged with `page` (1-based) and `size`.' +
        PAGED_FOR_SERVICE +
        MAP_FOR_SERVICE,
    },
    'GET /products/{productId}': {
      tag: 'Catalog',
      summary: 'Get a product',
      description:
        'One product with its denominations: a FIXED product lists the face values it sells (`fixedRecipientDenominations`, with the sender price of each), ' +
        'a RANGE product the interval `minRecipientDenomination`–`maxRecipientDenomination`. An inactive or unknown product is a 404.' +
        MAP_FOR_SERVICE,
    },
    'GET /redeem-instructions': {
      tag: 'Redeem instructions',
      summary: 'List redeem instructions of every brand',
      description: 'How a recipient redeems a card, per brand: a short and a long text.',
    },
    'GET /brands/{brandId}/redeem-instructions': {
      tag: 'Redeem instructions',
      summary: "Get a brand's redeem instructions",
      description: 'The redeem instructions of one brand. An unknown brand is a 404.',
    },
    'GET /products/{productId}/redeem-instructions': {
      tag: 'Redeem instructions',
      summary: "Get a product's redeem instructions",
      description: 'The redeem instructions of the brand of one product.',
    },
    'GET /fx-rate': {
      tag: 'Pricing',
      summary: 'Price an amount of another currency',
      description:
        'What `amount` of the recipient currency `currencyCode` costs in the account currency, at the rate orders use. ' +
        'An unknown currency is a 400.',
    },
    'GET /discounts': {
      tag: 'Pricing',
      summary: 'List discounts',
      description: `The discount percentage of every product that has one; paged.${PAGED_FOR_SERVICE}`,
    },
    'GET /products/{productId}/discounts': {
      tag: 'Pricing',
      summary: "Get a product's discount",
      description: 'The discount percentage of one product.',
    },
    'POST /orders': {
      tag: 'Orders',
      summary: 'Order gift cards',
      // Checked by order-request.ts after the schema, so each answers INVALID_REQUEST with every
      // broken field named at once, as giftcards.md's "incorrect body parameter" 400.
      limits: (settings) => ({
        'body.quantity': { maximum: settings.orderMaxQuantity },
        'body.senderName': { minLength: 1, maxLength: MAX_SENDER_NAME, pattern: '\\S' },
        'body.recipientEmail': { maxLength: MAX_EMAIL_LENGTH, pattern: EMAIL_PATTERN },
        'body.recipientPhoneDetails.countryCode': { pattern: '^[A-Za-z]{2}$' },
      }),
      description:
        'Buys `quantity` cards (1 to the `maximum` shown, the server setting ORDER_MAX_QUANTITY) of one product at `unitPrice`, a face value the product sells (FIXED) or an amount within its range with at most 2 decimals (RANGE), ' +
        "in the product's recipient currency. The account is debited the sender amount at once; the answer is the transaction with `balanceInfo`. " +
        'A `customIdentifier` can be used once per account: repeating it answers CUSTOM_IDENTIFIER_ALREADY_USED, so a retry after a timeout never buys twice. ' +
        'In the sandbox, nothing real is bought and some product ids answer fixed outcomes (see Getting started).',
      errors: [
        'CUSTOM_IDENTIFIER_ALREADY_USED',
        ...DEBIT_REFUSALS,
        'UNPROCCESSABLE_ENTITY',
        'TRANSACTION_CANNOT_BE_PROCESSED_AT_THE_MOMENT',
      ],
    },
    'GET /orders/transactions/{transactionId}/cards': {
      tag: 'Orders',
      summary: 'Get the redeem codes of an order',
      description:
        'The card numbers and PIN codes of a SUCCESSFUL transaction. Long digit strings are sent as strings so that no digit is lost. ' +
        'A transaction of another account is a 404; one that is not SUCCESSFUL yet is a 422.',
      errors: ['UNPROCCESSABLE_ENTITY'],
    },
    'GET /orders/transactions/{transactionId}/deliveries': {
      tag: 'Delivery',
      summary: "Get an order's deliveries",
      description:
        "Every message sent to the order's recipient: the e-mail with the link to the redeem page (when the order had `recipientEmail`), " +
        'the link by SMS (a phone and no e-mail), the one-time codes the redeem page texted; each with its status (`queued`, `sent`, `delivered`, `failed`, ' +
        'or `captured` in the sandbox, where nothing is sent), attempts and last error; and every reveal of the code on the redeem page (time, address). ' +
        'A transaction of another account is a 404.',
    },
    'POST /orders/transactions/{transactionId}/deliveries': {
      tag: 'Delivery',
      summary: "Resend an order's message to its recipient",
      description:
        "Sends the recipient's e-mail (or SMS) again with a new link to the redeem page; every older link of the order stops working. " +
        '`recipientEmail` or `recipientPhoneDetails` corrects the address first (a phone only on an order placed with one: its smsFee was paid). ' +
        'The order must be SUCCESSFUL; at most one resend per 30 seconds per order (DELIVERY_RESEND_TOO_SOON). Answers the deliveries, the new one queued.',
      errors: ['UNPROCCESSABLE_ENTITY', 'DELIVERY_RESEND_TOO_SOON', 'INACTIVE_ACCOUNT'],
    },
    'GET /reports/transactions': {
      tag: 'Reports',
      summary: 'List transactions',
      limits: REPORT_DATES,
      description:
        'The transactions of the account, newest first; filter by `customIdentifier`, dates (`yyyy-MM-dd HH:mm:ss`, UTC), status, product or brand. Paged.' +
        PAGED_FOR_SERVICE,
    },
    'GET /reports/transactions/{transactionId}': {
      tag: 'Reports',
      summary: 'Get a transaction',
      description: 'One transaction of the account by its id. A transaction of another account is a 404.',
    },
  },
};
