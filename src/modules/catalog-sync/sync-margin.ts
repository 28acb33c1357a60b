import { type Dec, dec } from '../../lib/money.ts';

/**
 * The operator's margin on synced terms (docs/decisions.md, "Catalogue sync"). The margin first
 * lowers the discount the account earns; what the discount cannot absorb becomes a fee percentage.
 * So, on the same sender price S, an account pays S × (1 + fee% − discount% + margin%) where the
 * upstream charges airgift S × (1 + fee% − discount%): never less than the upstream's price.
 *
 * @example
 * lowerDiscount({ discountPercentage: '5', senderFeePercentage: '0' }, dec('2'))
 * // { discountPercentage: '3', senderFeePercentage: '0' }
 * lowerDiscount({ discountPercentage: '1.5', senderFeePercentage: '0.5' }, dec('4'))
 * // { discountPercentage: '0', senderFeePercentage: '3' }
 */
export function lowerDiscount(
  terms: { discountPercentage: string; senderFeePercentage: string },
  percent: Dec,
): { discountPercentage: string; senderFeePercentage: string } {
  const discount = dec(terms.discountPercentage);
  if (percent.lte(discount)) {
    return {
      discountPercentage: text(discount.minus(percent)),
      senderFeePercentage: terms.senderFeePercentage,
    };
  }
  return {
    discountPercentage: '0',
    senderFeePercentage: text(dec(terms.senderFeePercentage).plus(percent).minus(discount)),
  };
}

/**
 * A top-up commission after the margin: lowered by it, never below 0 (a top-up has no fee to put the
 * rest in; an account then pays the face amount, which is above the upstream's price).
 *
 * @example
 * lowerCommission('8', dec('3')) // '5'
 * lowerCommission('2', dec('3')) // '0'
 */
export function lowerCommission(commission: string, percent: Dec): string {
  const lowered = dec(commission).minus(percent);
  return lowered.lte(0) ? '0' : text(lowered);
}

/**
 * The extra percentage that covers our FX being cheaper than the upstream's: when our sender price
 * of a face value is `ours` and the upstream's is `theirs` (one currency, `minorUnit` its smallest
 * amount), the net percentage `n = 100 + fee% − discount%` must rise until `ours × (n + x) / 100`
 * is at least `theirs × n / 100` plus two minor units (an order rounds its fee and its discount
 * each to the minor unit, which can move either price by one unit). Rounded up to 4 decimals;
 * 0 when ours is not below theirs (the same terms on a higher price never cost less).
 *
 * @example
 * fxShortfallPercent([[dec('10'), dec('10.10')]], '0', '0', dec('0.01')) // 1.2 (percent)
 */
export function fxShortfallPercent(
  pairs: Array<[ours: Dec, theirs: Dec]>,
  senderFeePercentage: string,
  discountPercentage: string,
  minorUnit: Dec,
): Dec {
  const net = dec(100).plus(senderFeePercentage).minus(discountPercentage);
  let extra = dec(0);
  for (const [ours, theirs] of pairs) {
    if (!ours.gt(0) || !theirs.gt(ours)) continue;
    const needed = theirs.times(net).plus(minorUnit.times(200)).div(ours).minus(net);
    if (needed.gt(extra)) extra = needed;
  }
  return extra.toDecimalPlaces(4, 0 /* ROUND_UP */);
}

/** Decimal text without exponent or trailing zeros ("3", "0.25"). */
export function text(d: Dec): string {
  return d
    .toDecimalPlaces(6, 0)
    .toFixed()
    .replace(/(\.\d*?)0+$/, '$1')
    .replace(/\.$/, '');
}
