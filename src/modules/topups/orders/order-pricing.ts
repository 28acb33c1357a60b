import { AppError } from '../../../errors/error-codes.ts';
import { minorUnitsOf } from '../../../lib/currencies.ts';
import { type Dec, dec, hasAtMostDecimals, roundToMinor } from '../../../lib/money.ts';
import type { Fx } from '../../reference/index.ts';
import type { OperatorRecord } from '../catalog/operator-catalog.ts';
import type { OperatorViews, SenderAmounts } from '../catalog/operator-view.ts';

/**
 * The money of one top-up (decisions §5), all exact decimals:
 * - `requestedAmount` in the account currency: the amount sent, or what the local amount costs
 *   (`fx.cost`, rounded to the account's minor unit) when `useLocalAmount`;
 * - `deliveredAmount` in the operator's currency: `requestedAmount × fx.rate`, or the local amount;
 * - `discount = requestedAmount × d/100`, `d` the local discount when the account's country is the
 *   operator's, else the international one; `cost = requestedAmount − discount` is what is debited.
 */
export interface TopupPrice {
  requestedAmount: Dec;
  requestedCurrencyCode: string;
  deliveredAmount: Dec;
  deliveredCurrencyCode: string;
  discountPercent: Dec;
  discount: Dec;
  cost: Dec;
}

/** A JSON number, positive and finite; anything else is INVALID_AMOUNT ("not numerical"). */
export function parseAmount(value: unknown): Dec {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new AppError('INVALID_AMOUNT', 'amount must be a number', [
      { field: 'amount', issue: 'not a number' },
    ]);
  }
  if (value <= 0) {
    throw new AppError('INVALID_AMOUNT', 'amount must be greater than zero', [
      { field: 'amount', issue: 'must be > 0' },
    ]);
  }
  return dec(String(value));
}

const refuse = (message: string) =>
  new AppError('INVALID_AMOUNT_FOR_OPERATOR', message, [{ field: 'amount', issue: message }]);

/** Checks `amount` against the operator's FIXED list or RANGE bounds, in the currency it is given in. */
function checkAmount(
  amount: Dec,
  currency: string,
  type: 'FIXED' | 'RANGE',
  fixed: Dec[],
  min: Dec | null,
  max: Dec | null,
) {
  if (!hasAtMostDecimals(amount, minorUnitsOf(currency))) {
    throw refuse(`${currency} amounts have at most ${minorUnitsOf(currency)} decimals`);
  }
  if (type === 'FIXED') {
    if (!fixed.some((f) => f.equals(amount))) {
      // Name what it takes (a PIN operator sells set values only); a long list is cut short.
      const listed = fixed.slice(0, 20).map((f) => f.toFixed());
      const more = fixed.length > listed.length ? `, … (${fixed.length} in all)` : '';
      throw refuse(
        `${amount.toFixed()} ${currency} is not one of the operator's fixed amounts: ${listed.join(', ')}${more} ${currency}`,
      );
    }
  } else if (min === null || max === null || amount.lt(min) || amount.gt(max)) {
    throw refuse(`the amount must be from ${min?.toFixed()} to ${max?.toFixed()} ${currency}`);
  }
}

export async function priceTopup(input: {
  operator: OperatorRecord;
  sender: SenderAmounts;
  amount: Dec;
  useLocalAmount: boolean;
  accountCountry: string;
  fx: Fx;
}): Promise<TopupPrice> {
  const { operator: o, sender: s, amount, fx } = input;
  const dest = o.destinationCurrencyCode;
  const account = s.accountCurrency;
  let requested: Dec;
  let delivered: Dec;
  if (input.useLocalAmount) {
    if (!o.supportsLocalAmounts) throw refuse(`${o.name} does not take local amounts`);
    const localMin = o.localMinAmount === null ? null : dec(o.localMinAmount);
    const localMax = o.localMaxAmount === null ? null : dec(o.localMaxAmount);
    checkAmount(amount, dest, o.denominationType, o.localFixedAmounts.map(dec), localMin, localMax);
    delivered = amount;
    // a synced operator with an fxFactor: what the account pays for it is at its own rate
    requested = roundToMinor(
      o.fxFactor === undefined ? await fx.cost(amount, dest, account) : amount.div(s.rate),
      account,
    );
  } else {
    checkAmount(amount, account, o.denominationType, s.fixed, s.min, s.max);
    requested = amount;
    delivered = roundToMinor(amount.times(s.rate), dest);
  }
  if (requested.lte(0) || delivered.lte(0)) throw refuse('the amount is too small to deliver');
  const local = input.accountCountry === o.countryCode;
  const discountPercent = dec(local ? o.localDiscount : o.internationalDiscount);
  const discount = roundToMinor(requested.times(discountPercent).div(100), account);
  return {
    requestedAmount: requested,
    requestedCurrencyCode: account,
    deliveredAmount: delivered,
    deliveredCurrencyCode: dest,
    discountPercent,
    discount,
    cost: requested.minus(discount),
  };
}

/**
 * The price of a checked top-up in its account's currency (`priceTopup` with the operator's sender
 * amounts); the amount rules refuse here (400 INVALID_AMOUNT_FOR_OPERATOR...), before anything is written.
 *
 * @example
 * const pricer = createTopupPricer({ views, fx });
 * await pricer.price(checked); // { requestedAmount, deliveredAmount, discount, cost, ... }
 */
export function createTopupPricer(deps: { views: OperatorViews; fx: Fx }) {
  return {
    async price(c: {
      operator: OperatorRecord;
      amount: Dec;
      body: { useLocalAmount?: boolean };
      account: { currencyCode: string; countryCode: string };
    }): Promise<TopupPrice> {
      return priceTopup({
        operator: c.operator,
        sender: await deps.views.senderAmounts(c.operator, c.account.currencyCode),
        amount: c.amount,
        useLocalAmount: c.body.useLocalAmount ?? false,
        accountCountry: c.account.countryCode,
        fx: deps.fx,
      });
    },
  };
}
