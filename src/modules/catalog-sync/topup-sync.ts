import { minorUnitsOf } from '../../lib/currencies.ts';
import { Dec, dec, roundToMinor } from '../../lib/money.ts';
import { formatDateTime } from '../../lib/time-format.ts';
import type { Fx } from '../reference/index.ts';
import type { OperatorCatalog, OperatorRecord, PromotionRecord } from '../topups/index.ts';
import type { UpstreamClient } from '../upstream/index.ts';
import { fxShortfallPercent, lowerCommission, text } from './sync-margin.ts';
import { readAllPages } from './upstream-reads.ts';

/**
 * Pulls a top-up upstream's catalogue (every page of its operators with bundles, data and PIN ones,
 * its commissions and its promotions) and turns it into the operator snapshot live serves: ids,
 * names, countries, amounts and local amounts as the upstream has them; amounts kept in USD like
 * the seeded catalogue (`a / fx.cost(1, USD, S)`, so an account in the upstream's currency S sees
 * the upstream's amounts back). Prices with our margin (docs/decisions.md, "Catalogue sync"):
 * - the margin lowers the commission the account earns (`lowerCommission`, never below 0);
 * - our FX must never deliver more per unit than the upstream's does: where our rate S→destination
 *   is above the upstream's `fx.rate`, the operator gets an `fxFactor` (< 1) that brings it down;
 * - the rounding of the delivered amount and of the discount (`fxShortfallPercent`) is taken from
 *   the commission too, and what the commission cannot absorb lowers `fxFactor` further.
 * An operator whose currencies we have no FX rate for, or without the upstream's `fx`, is left out
 * (`skipped`).
 *
 * @example
 * const { document, skipped } = await pullTopupCatalogue(client, { fx, marginPercent: '2', seed });
 */
interface UpstreamOperator {
  operatorId?: number;
  id: number;
  name: string;
  bundle: boolean;
  data: boolean;
  pin: boolean;
  supportsLocalAmounts: boolean;
  denominationType: 'FIXED' | 'RANGE';
  senderCurrencyCode: string;
  destinationCurrencyCode: string;
  minAmount: number | null;
  maxAmount: number | null;
  localMinAmount: number | null;
  localMaxAmount: number | null;
  country: { isoName: string };
  fixedAmounts: number[];
  localFixedAmounts: number[];
  internationalDiscount?: number;
  localDiscount?: number;
  commission?: number;
  mostPopularAmount?: number | null;
  mostPopularLocalAmount?: number | null;
  fx?: { rate: number; currencyCode: string };
  logoUrls?: string[];
  fixedAmountsDescriptions?: Record<string, string>;
  localFixedAmountsDescriptions?: Record<string, string>;
  suggestedAmounts?: number[];
}

interface UpstreamCommission {
  operator: { id: number; status: boolean };
  internationalPercentage?: number;
  localPercentage?: number;
  percentage: number;
}

interface UpstreamPromotion extends PromotionRecord {
  id?: number;
}

/** The live top-up catalogue a sync stores (`live_catalogues.document` for `topups`). */
export interface TopupSnapshot {
  operators: OperatorRecord[];
  promotions: PromotionRecord[];
  /** When the terms were taken (the commissions' `updatedAt`): the sync's time. */
  termsAsOf: string;
}

export interface PulledTopups {
  document: TopupSnapshot;
  skipped: Array<{ productId: number; reason: string }>;
}

const FLAGS = { includeBundles: 'true', includeData: 'true', includePin: 'true', suggestedAmounts: 'true' };

export async function pullTopupCatalogue(
  client: UpstreamClient,
  deps: { fx: Fx; marginPercent: string; seed: OperatorCatalog | null; now: Date },
): Promise<PulledTopups> {
  const [operators, commissions, promotions] = await Promise.all([
    readAllPages<UpstreamOperator>(client, '/operators', FLAGS, 200),
    readAllPages<UpstreamCommission>(client, '/operators/commissions', {}, 200),
    readAllPages<UpstreamPromotion>(client, '/promotions', {}, 200),
  ]);
  const rated = new Set((await deps.fx.list()).map((r) => r.currencyCode));
  const commissionOf = new Map(commissions.map((c) => [c.operator.id, c]));
  const skipped: PulledTopups['skipped'] = [];
  const out: OperatorRecord[] = [];
  for (const o of operators) {
    const id = o.operatorId ?? o.id;
    if (!rated.has(o.senderCurrencyCode) || !rated.has(o.destinationCurrencyCode)) {
      skipped.push({ productId: id, reason: 'no FX rate for its currency' });
      continue;
    }
    if (!o.fx || !(o.fx.rate > 0)) {
      skipped.push({ productId: id, reason: 'the upstream gives no FX rate for it' });
      continue;
    }
    out.push(await operatorOf({ ...o, id }, commissionOf.get(id), deps));
  }
  const ids = new Set(out.map((o) => o.operatorId));
  return {
    document: {
      operators: out.sort((a, b) => a.operatorId - b.operatorId),
      promotions: promotions.filter((p) => ids.has(p.operatorId)).map(promotionOf),
      termsAsOf: formatDateTime(deps.now),
    },
    skipped,
  };
}

/** A promotion with its RFC 2822 dates back in the catalogue's UTC `yyyy-MM-dd HH:mm:ss`. */
function promotionOf(p: UpstreamPromotion): PromotionRecord {
  const at = (t: string) => formatDateTime(new Date(t));
  return {
    promotionId: p.promotionId ?? p.id,
    operatorId: p.operatorId,
    title: p.title,
    title2: p.title2,
    description: p.description,
    startDate: at(p.startDate),
    endDate: at(p.endDate),
    denominations: p.denominations,
    localDenominations: p.localDenominations,
  };
}

/**
 * A RANGE operator's two ends in S at our delivery rate `rate` (destination per S): where the
 * upstream takes local amounts (what the upstream provider sends), the range is narrowed so what we
 * deliver stays within the upstream's local range (our rate is at most theirs, so its S minimum
 * would deliver less than its local minimum).
 */
function rangeOf(o: UpstreamOperator, rate: Dec): { min: number | null; max: number | null } {
  if (o.minAmount === null || o.maxAmount === null || !o.supportsLocalAmounts) {
    return { min: o.minAmount, max: o.maxAmount };
  }
  const places = minorUnitsOf(o.senderCurrencyCode);
  let min = dec(o.minAmount);
  let max = dec(o.maxAmount);
  if (o.localMinAmount !== null) {
    const atLeast = dec(o.localMinAmount).div(rate).toDecimalPlaces(places, 0 /* UP */);
    // one minor unit more: the delivered amount is rounded half-up in the destination currency
    if (atLeast.gt(min)) min = atLeast.plus(dec(1).div(dec(10).pow(places)));
  }
  if (o.localMaxAmount !== null) {
    const atMost = dec(o.localMaxAmount).div(rate).toDecimalPlaces(places, 1 /* DOWN */);
    if (atMost.lt(max)) max = atMost.minus(dec(1).div(dec(10).pow(places)));
  }
  return { min: min.toNumber(), max: max.toNumber() };
}

/** The amounts an account pays for at the operator: its fixed ones, or its range's two ends. */
function senderAmountsOf(o: UpstreamOperator, range: { min: number | null; max: number | null }): number[] {
  if (o.denominationType === 'FIXED') return o.fixedAmounts;
  return [range.min, range.max].filter((a): a is number => a !== null);
}

async function operatorOf(
  o: UpstreamOperator & { id: number },
  commission: UpstreamCommission | undefined,
  deps: { fx: Fx; marginPercent: string; seed: OperatorCatalog | null },
): Promise<OperatorRecord> {
  const { fx } = deps;
  const s = o.senderCurrencyCode;
  const dest = o.destinationCurrencyCode;
  const theirRate = dec(o.fx!.rate);
  const international = dec(commission?.internationalPercentage ?? o.internationalDiscount ?? 0);
  const localDiscount = dec(commission?.localPercentage ?? o.localDiscount ?? international);
  const lowest = Dec.min(international, localDiscount);
  const margin = dec(deps.marginPercent);

  // our delivery per unit of S, brought down to the upstream's when ours is higher
  const ourRate = await fx.rate(s, dest);
  let factor = ourRate.gt(theirRate) ? theirRate.div(ourRate).toDecimalPlaces(8, 1 /* DOWN */) : dec(1);
  // what the upstream charges (in S) to deliver what we deliver for `a` of S
  const theirPrice = (a: number): Dec => {
    if (!o.supportsLocalAmounts) return dec(a); // sent as the same amount in S
    const delivered = roundToMinor(dec(a).times(ourRate).times(factor), dest);
    return delivered.div(theirRate);
  };
  const minorUnit = dec(1).div(dec(10).pow(minorUnitsOf(s)));
  const pairs = senderAmountsOf(o, rangeOf(o, ourRate.times(factor))).map((a): [Dec, Dec] => [
    dec(a),
    theirPrice(a),
  ]);
  const shortfall = fxShortfallPercent(pairs, '0', text(lowest), minorUnit);
  // the part of the shortfall the commission cannot take (the margin alone never goes to FX)
  const overflow = Dec.max(0, margin.plus(shortfall).minus(lowest)).minus(Dec.max(0, margin.minus(lowest)));
  if (overflow.gt(0)) {
    factor = factor.times(dec(100).minus(overflow).minus('0.01')).div(100).toDecimalPlaces(8, 1 /* DOWN */);
  }
  const extra = margin.plus(shortfall);
  const range = rangeOf(o, ourRate.times(factor));

  // amounts in USD as the seeded catalogue keeps them; fx.cost(usd, USD, S) gives S back
  const usdCost = await fx.cost(1, 'USD', s);
  const usd = (a: number) => text(s === 'USD' ? dec(a) : dec(a).div(usdCost));
  const usdOrNull = (a: number | null | undefined) => (a === null || a === undefined ? null : usd(a));
  const fixedUsd = o.denominationType === 'FIXED' ? o.fixedAmounts.map(usd) : [];
  const descriptions: Record<string, string> = {};
  for (const a of o.fixedAmounts) {
    const d = o.fixedAmountsDescriptions?.[dec(a).toFixed(minorUnitsOf(s))];
    if (d !== undefined) descriptions[usd(a)] = d;
  }
  const local = (a: number | null | undefined) => (a === null || a === undefined ? null : text(dec(a)));
  const seeded = deps.seed?.find(o.id);
  const variant = o.pin ? 'pin' : o.bundle ? 'bundle' : o.data ? 'data' : 'airtime';
  return {
    operatorId: o.id,
    name: o.name,
    // the seed's carrier when the id is ours (an airgift upstream): auto-detect's bundle choice
    carrierKey: seeded?.carrierKey ?? `upstream-${o.id}`,
    countryCode: o.country.isoName,
    variant: seeded?.variant ?? variant,
    bundle: o.bundle,
    data: o.data,
    pin: o.pin,
    emailAddressed: seeded?.emailAddressed ?? false,
    emailDomains: seeded?.emailDomains ?? [],
    supportsLocalAmounts: o.supportsLocalAmounts,
    denominationType: o.denominationType,
    destinationCurrencyCode: dest,
    minAmountUsd: o.denominationType === 'RANGE' ? usdOrNull(range.min) : null,
    maxAmountUsd: o.denominationType === 'RANGE' ? usdOrNull(range.max) : null,
    fixedAmountsUsd: fixedUsd,
    fixedAmountsDescriptions: descriptions,
    localFixedAmounts: (o.localFixedAmounts ?? []).map((a) => text(dec(a))),
    localFixedAmountsDescriptions: o.localFixedAmountsDescriptions ?? {},
    localMinAmount: local(o.localMinAmount),
    localMaxAmount: local(o.localMaxAmount),
    mostPopularAmountUsd: usdOrNull(o.mostPopularAmount),
    mostPopularLocalAmount: local(o.mostPopularLocalAmount),
    internationalDiscount: lowerCommission(text(international), extra),
    localDiscount: lowerCommission(text(localDiscount), extra),
    logoUrls: o.logoUrls ?? [],
    suggestedAmountsUsd: o.denominationType === 'RANGE' ? (o.suggestedAmounts ?? []).map(usd) : fixedUsd,
    status: commission?.operator.status ?? true,
    ...(factor.lt(1) ? { fxFactor: factor.toFixed() } : {}),
  };
}
