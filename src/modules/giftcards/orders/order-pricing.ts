import { AppError } from '../../../errors/error-codes.ts';
import { type Dec, dec, roundToMinor } from '../../../lib/money.ts';
import type { Fx } from '../../reference/index.ts';
import type { CatalogService } from '../catalog/catalog-service.ts';
import type { CatalogEntry } from '../catalog/product-view.ts';
import type { CheckedGiftcardOrder, CheckedOrder } from './order-request.ts';

/**
 * The price of a gift card order (decisions §5), in the account currency. `S` is the sender price
 * of one card (the FIXED map value, or the RANGE unitPrice converted, already rounded):
 *
 *   fee      = qty × (senderFee + S × senderFeePercentage / 100)
 *   discount = qty × S × discountPercentage / 100
 *   smsFee   = qty × smsFeePerCard        (only when recipientPhoneDetails is given)
 *   totalFee = fee + smsFee
 *   amount   = qty × S + totalFee − discount   (= balanceInfo.cost, what is debited)
 *
 * fee, discount and smsFee are each rounded half-up to the currency's minor unit, so the sums are exact.
 *
 * @example
 * priceOrder({ quantity: 2, senderUnitPrice: dec('25'), senderFee: dec('0.5'),
 *   senderFeePercentage: '1', discountPercentage: '2', smsFeePerCard: null, currencyCode: 'USD' })
 * // fee 1.50, discount 1.00, smsFee 0, totalFee 1.50, amount 50.50
 */
export interface PricingInput {
  quantity: number;
  senderUnitPrice: Dec;
  /** Per card, in the account currency (rounded). */
  senderFee: Dec;
  senderFeePercentage: string;
  discountPercentage: string;
  /** Per card, in the account currency (rounded); null when no SMS is sent. */
  smsFeePerCard: Dec | null;
  currencyCode: string;
}

export interface OrderPrice {
  senderUnitPrice: Dec;
  fee: Dec;
  discount: Dec;
  smsFee: Dec;
  totalFee: Dec;
  amount: Dec;
}

export function priceOrder(i: PricingInput): OrderPrice {
  const round = (d: Dec) => roundToMinor(d, i.currencyCode);
  const qty = dec(i.quantity);
  const fee = round(qty.times(i.senderFee.plus(i.senderUnitPrice.times(i.senderFeePercentage).div(100))));
  const discount = round(qty.times(i.senderUnitPrice).times(i.discountPercentage).div(100));
  const smsFee = i.smsFeePerCard ? round(qty.times(i.smsFeePerCard)) : dec(0);
  const totalFee = fee.plus(smsFee);
  const amount = qty.times(i.senderUnitPrice).plus(totalFee).minus(discount);
  return { senderUnitPrice: i.senderUnitPrice, fee, discount, smsFee, totalFee, amount };
}

/**
 * The price of an order of `product` in the account `currency`: its sender unit price (a FIXED
 * denomination's from the catalog's sender prices, a RANGE price converted with the current rates),
 * the SMS fee converted from USD, then `priceOrder`. UNPROCCESSABLE_ENTITY when too small to charge.
 *
 * The price of a FIXED card without SMS depends only on the product's sender prices (kept by the
 * catalog for a while, one object per product, terms and currency) and the order's unit price and
 * quantity: worked out once per such pair, not with a dozen Decimals per order. A RANGE price or an
 * SMS fee converts with the current rates, so those are priced each time.
 *
 * `price` of a checked order returns (not throws) a price refused with an AppError: the order path
 * answers it after the customIdentifier check, which a retried request must hear first.
 *
 * @example
 * const pricer = createOrderPricer({ catalog, fx, smsFeeUsd: '0.10' });
 * await pricer.price(checked); // { amount, fee, discount, ... }, or the AppError refusing it
 */
export function createOrderPricer(deps: { catalog: CatalogService; fx: Fx; smsFeeUsd: string }) {
  const { catalog, fx } = deps;
  const fixedPrices = new WeakMap<object, Map<string, OrderPrice>>();

  async function priceOf(product: CatalogEntry, order: CheckedOrder, quantity: number, currency: string) {
    const prices = await catalog.pricesOf(product, currency);
    if (product.denominationType !== 'FIXED' || order.phone) {
      return priceAnew(product, prices, order, quantity, currency);
    }
    let known = fixedPrices.get(prices);
    if (!known) {
      known = new Map();
      fixedPrices.set(prices, known);
    }
    const key = `${quantity}:${order.unitPrice}`;
    let found = known.get(key);
    if (!found) {
      found = await priceAnew(product, prices, order, quantity, currency);
      // bounded: a product has few denominations, and quantities are capped
      if (known.size < 1000) known.set(key, found);
    }
    return found;
  }

  async function priceAnew(
    product: CatalogEntry,
    prices: Awaited<ReturnType<CatalogService['pricesOf']>>,
    order: CheckedOrder,
    quantity: number,
    currency: string,
  ): Promise<OrderPrice> {
    const senderUnitPrice =
      product.denominationType === 'FIXED'
        ? [...prices.fixed.entries()].find(([r]) => dec(r).equals(order.unitPrice))?.[1]
        : roundToMinor(await fx.cost(order.unitPrice, product.recipientCurrencyCode, currency), currency);
    const smsFeePerCard = order.phone
      ? roundToMinor(await fx.cost(deps.smsFeeUsd, 'USD', currency), currency)
      : null;
    if (!senderUnitPrice || senderUnitPrice.lte(0)) {
      throw new AppError('UNPROCCESSABLE_ENTITY', `This price is too small to be charged in ${currency}`);
    }
    return priceOrder({
      quantity,
      senderUnitPrice,
      senderFee: prices.senderFee,
      senderFeePercentage: product.senderFeePercentage,
      discountPercentage: product.discountPercentage,
      smsFeePerCard: smsFeePerCard?.gt(0) ? smsFeePerCard : null,
      currencyCode: currency,
    });
  }

  return {
    price: (c: CheckedGiftcardOrder): Promise<OrderPrice | AppError> =>
      priceOf(c.product, c.order, c.body.quantity, c.account.currencyCode).catch((error) => {
        if (error instanceof AppError) return error;
        throw error;
      }),
  };
}
