import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../../lib/project-root.ts';
import { createPrefixMatcher, type PrefixMatcher, type PrefixTable } from './operator-detection.ts';

/**
 * The operator catalogue: operators, their number ranges and promotions, read once at start from the
 * versioned files in `data/operators/` (built by scripts/build-operators.ts; ids are stable across
 * rebuilds through its id registry) and served from memory. Nothing here is per account: amounts are
 * in USD and are converted to the caller's currency by operator-view.ts.
 *
 * @example
 * const catalog = loadOperatorCatalog();
 * catalog.find(378)?.name        // 'Nauta Cuba'
 * catalog.detect('NG', '8031234567') // the MTN Nigeria airtime operator
 */
export interface OperatorRecord {
  operatorId: number;
  name: string;
  carrierKey: string;
  countryCode: string;
  variant: 'airtime' | 'data' | 'bundle' | 'pin' | 'email';
  bundle: boolean;
  data: boolean;
  pin: boolean;
  emailAddressed: boolean;
  emailDomains: string[];
  supportsLocalAmounts: boolean;
  denominationType: 'FIXED' | 'RANGE';
  destinationCurrencyCode: string;
  minAmountUsd: string | null;
  maxAmountUsd: string | null;
  fixedAmountsUsd: string[];
  fixedAmountsDescriptions: Record<string, string>;
  localFixedAmounts: string[];
  localFixedAmountsDescriptions: Record<string, string>;
  localMinAmount: string | null;
  localMaxAmount: string | null;
  mostPopularAmountUsd: string | null;
  mostPopularLocalAmount: string | null;
  internationalDiscount: string;
  localDiscount: string;
  logoUrls: string[];
  suggestedAmountsUsd: string[];
  /** false: the operator is inactive (not listed; top-ups refused with 422). */
  status: boolean;
  /**
   * Synced operators only: the fraction of our FX rate this operator delivers, where ours is above
   * the upstream's (catalog-sync/topup-sync.ts), so a top-up never costs us more than it earns.
   */
  fxFactor?: string;
}

export interface PromotionRecord {
  promotionId: number;
  operatorId: number;
  title: string;
  title2: string;
  description: string;
  /** UTC `yyyy-MM-dd HH:mm:ss`. */
  startDate: string;
  endDate: string;
  denominations: string;
  localDenominations: string | null;
}

export interface OperatorFilter {
  countryCode?: string;
  includeBundles?: boolean;
  includeData?: boolean;
  includePin?: boolean;
  /** Compatibility (Reloadly's Node SDK sends them): leave RANGE or FIXED operators out when false. */
  includeRange?: boolean;
  includeFixed?: boolean;
}

export const OPERATOR_DATA_DIR = join(PROJECT_ROOT, 'data', 'operators');

const read = <T>(dir: string, name: string): T => JSON.parse(readFileSync(join(dir, name), 'utf8')) as T;

/** Parses the catalogue's UTC `yyyy-MM-dd HH:mm:ss` once, for the "current promotions" test. */
function utc(text: string): number {
  return Date.parse(`${text.replace(' ', 'T')}Z`);
}

export function loadOperatorCatalog(dir = OPERATOR_DATA_DIR) {
  const buildInfo = read<{ countriesAndRates?: { fxAsOf?: string } }>(dir, 'build-info.json');
  return operatorCatalogOf({
    operators: read<OperatorRecord[]>(dir, 'operators.json'),
    promotions: read<PromotionRecord[]>(dir, 'promotions.json'),
    matcher: createPrefixMatcher(read<PrefixTable>(dir, 'prefixes.json')),
    termsAsOf: buildInfo.countriesAndRates?.fxAsOf ?? '2026-11-01 00:00:00',
  });
}

/**
 * A catalogue over given operators and promotions: the seeded one (`loadOperatorCatalog`) or live's
 * synced snapshot (`live-operators.ts`), which detects with the seed's number ranges: the seed's
 * operator ids are an airgift upstream's, so the operator found is the synced one with that id.
 *
 * @example
 * operatorCatalogOf({ operators, promotions, matcher: seed.matcher, termsAsOf: '2026-11-23 17:00:00' })
 */
export function operatorCatalogOf(data: {
  operators: OperatorRecord[];
  promotions: PromotionRecord[];
  matcher: PrefixMatcher;
  termsAsOf: string;
}) {
  const { operators, promotions, matcher } = data;
  const byId = new Map(operators.map((o) => [o.operatorId, o]));
  const active = operators.filter((o) => o.status);
  const promotionById = new Map(promotions.map((p) => [p.promotionId, p]));
  const promotionsByOperator = new Map<number, PromotionRecord[]>();
  for (const p of promotions) {
    const list = promotionsByOperator.get(p.operatorId) ?? [];
    list.push(p);
    promotionsByOperator.set(p.operatorId, list);
  }
  const countries = new Set(operators.map((o) => o.countryCode));
  const promotionTimes = new Map(promotions.map((p) => [p.promotionId, [utc(p.startDate), utc(p.endDate)]]));

  /** Active operators, in id order, without the variants the filter leaves out. */
  function list(filter: OperatorFilter = {}): OperatorRecord[] {
    const iso = filter.countryCode?.toUpperCase();
    return active.filter(
      (o) =>
        (iso === undefined || o.countryCode === iso) &&
        (filter.includeBundles !== false || !o.bundle) &&
        (filter.includeData !== false || !o.data) &&
        (filter.includePin !== false || !o.pin) &&
        (filter.includeRange !== false || o.denominationType !== 'RANGE') &&
        (filter.includeFixed !== false || o.denominationType !== 'FIXED'),
    );
  }

  /**
   * The active operator serving a national number. With `preferBundle`, the same carrier's bundle
   * operator when it has an active one (auto-detect's `includeBundles=true`).
   */
  function detect(countryIso: string, nationalNumber: string, preferBundle = false): OperatorRecord | null {
    const id = matcher.detect(countryIso, nationalNumber);
    const base = id === null ? undefined : byId.get(id);
    if (!base?.status) return null;
    if (preferBundle) {
      const bundle = active.find(
        (o) => o.countryCode === base.countryCode && o.carrierKey === base.carrierKey && o.bundle,
      );
      if (bundle) return bundle;
    }
    return base;
  }

  /** Promotions running at `now` (start <= now <= end). */
  function currentPromotions(operatorId: number, now: Date): PromotionRecord[] {
    const t = now.getTime();
    return (promotionsByOperator.get(operatorId) ?? []).filter((p) => {
      const [start, end] = promotionTimes.get(p.promotionId) as number[];
      return start <= t && t <= end;
    });
  }

  return {
    /** As-of time of the commercial terms (discounts): when the catalogue's rates were taken. */
    termsAsOf: data.termsAsOf,
    matcher,
    /** Every operator, active or not (commissions show the status). */
    all: operators,
    find: (id: number) => byId.get(id),
    list,
    detect,
    hasCountry: (iso: string) => countries.has(iso.toUpperCase()),
    countryCodes: () => [...countries].sort(),
    promotions,
    findPromotion: (id: number) => promotionById.get(id),
    promotionsOf: (operatorId: number) => promotionsByOperator.get(operatorId) ?? [],
    currentPromotions,
  };
}

export type OperatorCatalog = ReturnType<typeof loadOperatorCatalog>;
