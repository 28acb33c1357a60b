import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import type {
  Balance,
  Category,
  Commission,
  Country,
  Discount,
  GiftCardFxRate,
  GiftCards,
  GiftCardTransaction,
  Operator,
  Page,
  Product,
  ProductRedeemInstruction,
  Promotion,
  TopupCountry,
  TopupFxRate,
  Topups,
  TopupTransaction,
} from '../../sdk/src/index.ts';
import { assertFields } from '../harness/fields.ts';
import { type SdkServer, sdkClientsForSuite } from './helpers.ts';

/**
 * The SDK's response types against what the server really sends. Each key list below is checked by
 * the compiler to name exactly the interface's fields (`satisfies Record<keyof T, ...>`), and at run
 * time every field the type promises (`true`) must be in the answer. Fields the server sends beyond
 * the type (compatibility aliases) are allowed.
 */
type Fields<T> = Record<keyof T, boolean>;

/** Every field the type promises (`true`) is in the answer: the harness's one field check, kind `any`. */
function assertTypeFields(what: string, value: unknown, fields: Record<string, boolean>) {
  const promised = Object.entries(fields).filter(([, required]) => required);
  assertFields(value, Object.fromEntries(promised.map(([name]) => [name, 'any'])), what);
}

const balance = {
  balance: true,
  currencyCode: true,
  currencyName: true,
  updatedAt: true,
} satisfies Fields<Balance>;
const category = { id: true, name: true } satisfies Fields<Category>;
const country = {
  isoName: true,
  name: true,
  continent: true,
  currencyCode: true,
  currencyName: true,
  currencySymbol: true,
  flag: true,
  callingCodes: true,
} satisfies Fields<Country>;
const product = {
  productId: true,
  productName: true,
  global: true,
  supportsPreOrder: true,
  status: true,
  senderFee: true,
  senderFeePercentage: true,
  discountPercentage: true,
  denominationType: true,
  recipientCurrencyCode: true,
  minRecipientDenomination: true,
  maxrecipientDenomination: true,
  maxRecipientDenomination: true,
  senderCurrencyCode: true,
  minSenderDenomination: true,
  maxSenderDenomination: true,
  fixedRecipientDenominations: true,
  fixedSenderDenominations: true,
  fixedRecipientToSenderDenominationsMap: true,
  logoUrls: true,
  brand: true,
  category: true,
  country: true,
  redeemInstruction: true,
  additionalRequirements: true,
} satisfies Fields<Product>;
const productInstruction = {
  productId: true,
  productName: true,
  concise: true,
  verbose: true,
} satisfies Fields<ProductRedeemInstruction>;
const giftcardFx = {
  senderCurrency: true,
  senderAmount: true,
  recipientCurrency: true,
  recipientAmount: true,
} satisfies Fields<GiftCardFxRate>;
const discount = { product: true, discountPercentage: true } satisfies Fields<Discount>;
const giftcardTransaction = {
  transactionId: true,
  amount: true,
  discount: true,
  currencyCode: true,
  fee: true,
  customIdentifier: true,
  status: true,
  product: true,
  smsFee: true,
  totalFee: true,
  receipientPhone: true,
  recipientPhone: true,
  recipientEmail: true,
  transactionCreatedTime: true,
  preOrdered: true,
  balanceInfo: true,
} satisfies Fields<GiftCardTransaction>;
const topupCountry = {
  isoName: true,
  name: true,
  currencyCode: true,
  currencyName: true,
  currencySymbol: true,
  flag: true,
  callingCodes: true,
} satisfies Fields<TopupCountry>;
const operator = {
  operatorId: true,
  id: true,
  name: true,
  bundle: true,
  data: true,
  pin: true,
  supportsLocalAmounts: true,
  denominationType: true,
  senderCurrencyCode: true,
  senderCurrencySymbol: true,
  destinationCurrencyCode: true,
  destinationCurrencySymbol: true,
  commission: true,
  internationalDiscount: true,
  localDiscount: true,
  mostPopularAmount: true,
  mostPopularLocalAmount: false,
  minAmount: true,
  maxAmount: true,
  localMinAmount: false,
  localMaxAmount: false,
  country: true,
  fx: true,
  logoUrls: true,
  fixedAmounts: true,
  fixedAmountsDescriptions: true,
  localFixedAmounts: false,
  localFixedAmountsDescriptions: false,
  suggestedAmounts: false,
  suggestedAmountsMap: false,
  promotions: true,
} satisfies Fields<Operator>;
const commission = {
  operator: true,
  percentage: true,
  internationalPercentage: true,
  localPercentage: true,
  updatedAt: true,
} satisfies Fields<Commission>;
const topupFx = { id: true, name: true, fxRate: true, currencyCode: true } satisfies Fields<TopupFxRate>;
const promotion = {
  promotionId: true,
  id: true,
  operatorId: true,
  title: true,
  title2: true,
  description: true,
  startDate: true,
  endDate: true,
  denominations: true,
  localDenominations: true,
} satisfies Fields<Promotion>;
const topupTransaction = {
  transactionId: true,
  status: true,
  operatorTransactionId: true,
  customIdentifier: true,
  recipientPhone: true,
  recipientEmail: false,
  senderPhone: true,
  countryCode: true,
  operatorId: true,
  operatorName: true,
  discount: true,
  discountCurrencyCode: true,
  requestedAmount: true,
  requestedAmountCurrencyCode: true,
  deliveredAmount: true,
  deliveredAmountCurrencyCode: true,
  transactionDate: true,
  balanceInfo: true,
  pinDetail: true,
  links: false,
} satisfies Fields<TopupTransaction>;
const page = {
  content: true,
  page: true,
  size: true,
  first: true,
  last: true,
  totalElements: true,
  totalPages: true,
  requestId: true,
  nextPage: false,
  [Symbol.asyncIterator]: false,
} satisfies Fields<Page<unknown>>;

describe('SDK types match the server', () => {
  let s: SdkServer;
  let giftcards: GiftCards;
  let topups: Topups;

  sdkClientsForSuite((c) => ({ s, giftcards, topups } = c));

  test('gift card resources', async () => {
    assertTypeFields('Balance', await giftcards.balance.get(), balance);
    assertTypeFields('Category', (await giftcards.categories.list())[0], category);
    assertTypeFields('Country', await giftcards.countries.get('US'), country);
    for (const p of (await giftcards.products.list({ size: 50 })).content)
      assertTypeFields(`Product ${p.productId}`, p, product);
    assertTypeFields('Product (RANGE)', await giftcards.products.get(12), product);
    assertTypeFields(
      'ProductRedeemInstruction',
      await giftcards.redeemInstructions.forProduct(11),
      productInstruction,
    );
    assertTypeFields('GiftCardFxRate', await giftcards.fx.rate('EUR', 10), giftcardFx);
    assertTypeFields('Discount', (await giftcards.discounts.list({ size: 1 })).content[0], discount);
    const order = await giftcards.orders.create({
      productId: 11,
      quantity: 1,
      unitPrice: 10,
      senderName: 'shapes',
      customIdentifier: `shapes-${randomUUID()}`,
      recipientPhoneDetails: { countryCode: 'US', phoneNumber: '+12025550123' },
    });
    assertTypeFields('GiftCardTransaction (order)', order, giftcardTransaction);
    assertTypeFields(
      'GiftCardTransaction (report)',
      await giftcards.transactions.get(order.transactionId),
      giftcardTransaction,
    );
  });

  test('top-up resources', async () => {
    assertTypeFields('Balance', await topups.balance.get(), balance);
    assertTypeFields('TopupCountry', await topups.countries.get('NG'), topupCountry);
    const operators = await topups.operators.list({ size: 20 });
    assertTypeFields('Page<Operator>', operators, page);
    for (const o of operators.content) assertTypeFields(`Operator ${o.operatorId}`, o, operator);
    const commissions = await topups.commissions.list({ size: 5 });
    assertTypeFields('Page<Commission>', commissions, page);
    assertTypeFields('Commission', commissions.content[0], commission);
    assertTypeFields('TopupFxRate', await topups.operators.fxRate(1001, 5), topupFx);
    assertTypeFields('Promotion', (await topups.promotions.list({ size: 1 })).content[0], promotion);
    const sent = await topups.orders.create({
      operatorId: 1001,
      amount: 5,
      customIdentifier: `shapes-${randomUUID()}`,
      recipientPhone: { countryCode: 'NG', number: '08031234569' },
    });
    assertTypeFields('TopupTransaction (top-up)', sent, topupTransaction);
    assertTypeFields(
      'TopupTransaction (report)',
      await topups.transactions.get(sent.transactionId),
      topupTransaction,
    );
  });
});
