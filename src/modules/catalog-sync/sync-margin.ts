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
 * of a face value is `ours` and the upstream's is `theirs` (one currency), charging
 * `(theirs/ours − 1) × (100 + fee% − discount%)` percent more makes ours at least theirs.
 * Rounded up to 4 decimals; 0 when ours is not below theirs.
 *
 * @example
 * fxShortfallPercent([[dec('10'), dec('10.10')]], '0', '0') // 1 (percent)
 */
export function fxShortfallPercent(
  pairs: Array<[ours: Dec, theirs: Dec]>,
  senderFeePercentage: string,
  discountPercentage: string,
): Dec {
  let ratio = dec(1);
  for (const [ours, theirs] of pairs) {
    if (ours.gt(0) && theirs.div(ours).gt(ratio)) ratio = theirs.div(ours);
  }
  if (ratio.lte(1)) return dec(0);
  const base = dec(100).plus(senderFeePercentage).minus(discountPercentage);
  return ratio.minus(1).times(base).toDecimalPlaces(4, 0 /* ROUND_UP */);
}

/** Decimal text without exponent or trailing zeros ("3", "0.25"). */
export function text(d: Dec): string {
  return d
    .toDecimalPlaces(6, 0)
    .toFixed()
    .replace(/(\.\d*?)0+$/, '$1')
    .replace(/\.$/, '');
}
