import { type Dec, dec, roundToMinor } from '../../../lib/money.ts';

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
