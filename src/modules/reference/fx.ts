import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../../errors/error-codes.ts';
import type { Clock } from '../../lib/clock.ts';
import { type Dec, dec } from '../../lib/money.ts';
import { parseDateTime } from '../../lib/time-format.ts';
import { SEED_DIR } from './countries.ts';
import type { FxRateRow, FxRepository } from './fx-repository.ts';

/**
 * The FX table (decisions §5): one rate per currency against USD, with its as-of time, and a
 * configurable margin. Every conversion in airgift goes through `rate(from, to)`, which includes the
 * margin against the account: converting the account's money into another currency yields
 * `(1 - margin)` of the mid rate, and pricing a foreign amount in the account currency costs
 * `(1 + margin)` of it. Rates are kept to 12 significant digits; amounts are rounded by the caller.
 *
 * @example
 * await fx.rate('USD', 'NGN')          // NGN per 1 USD, margin applied (what 1 USD delivers)
 * await fx.cost('5000', 'NGN', 'USD')  // USD it costs to deliver 5000 NGN, unrounded
 */
const SIGNIFICANT = 12;
const CACHE_MS = 30_000;
/** A currency against itself; one object (Decimals never change), which callers may compare. */
const ONE = dec(1);

export function createFx(repository: FxRepository, clock: Clock, marginPercent: string) {
  const margin = dec(marginPercent).div(100);
  const withMargin = dec(1).plus(margin);
  const lessMargin = dec(1).minus(margin);
  let cache: { at: number; rates: Map<string, FxRateRow> } | null = null;
  // one read of the table at a time: pricing a page of 1000 products right after a change asks for it
  // 2000 times at once, which must not become 2000 queries (the pool would time out)
  let reading: Promise<Map<string, FxRateRow>> | null = null;

  async function table(): Promise<Map<string, FxRateRow>> {
    const now = clock.now().getTime();
    if (cache && now - cache.at < CACHE_MS) return cache.rates;
    if (!reading) {
      const read = repository.all().then((rows) => {
        cache = { at: now, rates: new Map(rows.map((r) => [r.currencyCode, r])) };
        return cache.rates;
      });
      reading = read;
      const done = () => {
        if (reading === read) reading = null;
      };
      read.then(done, done);
    }
    return reading;
  }

  // Rates worked out from one read of the table, kept with it: every order and every price asks for
  // the same few pairs, each a division and two parses; a new read (30 s, or a change) starts afresh.
  const ratesOf = new WeakMap<Map<string, FxRateRow>, Map<string, Dec>>();
  function kept(rates: Map<string, FxRateRow>, key: string, work: () => Dec): Dec {
    let known = ratesOf.get(rates);
    if (!known) {
      known = new Map();
      ratesOf.set(rates, known);
    }
    let value = known.get(key);
    if (value === undefined) {
      value = work();
      known.set(key, value);
    }
    return value;
  }

  function unitsPerUsdIn(rates: Map<string, FxRateRow>, code: string): Dec {
    const row = rates.get(code);
    if (!row)
      throw new AppError('INVALID_REQUEST', `No FX rate for ${code}`, [
        { field: 'currencyCode', issue: `no rate for ${code}` },
      ]);
    return dec(row.unitsPerUsd);
  }

  function midRateIn(rates: Map<string, FxRateRow>, from: string, to: string): Dec {
    return kept(rates, `${from}>${to}`, () =>
      unitsPerUsdIn(rates, to).div(unitsPerUsdIn(rates, from)).toSignificantDigits(SIGNIFICANT),
    );
  }

  /**
   * The mid-market rate: units of `to` per 1 unit of `from`. The same object for as long as the table
   * read is the same (operator-view.ts keeps what it worked out from it on that).
   */
  async function midRate(from: string, to: string): Promise<Dec> {
    if (from === to) return ONE;
    return midRateIn(await table(), from, to);
  }

  /** What 1 unit of `from` (the account's money) delivers in `to`, the margin taken. */
  async function rate(from: string, to: string): Promise<Dec> {
    if (from === to) return ONE;
    const rates = await table();
    return kept(rates, `${from}>${to} less margin`, () =>
      midRateIn(rates, from, to).times(lessMargin).toSignificantDigits(SIGNIFICANT),
    );
  }

  /** What `amount` of `currency` costs in `accountCurrency`, the margin added (unrounded). */
  async function cost(
    amount: Dec | string | number,
    currency: string,
    accountCurrency: string,
  ): Promise<Dec> {
    if (currency === accountCurrency) return dec(amount);
    const mid = await midRate(currency, accountCurrency);
    return dec(amount).times(mid).times(withMargin);
  }

  async function has(code: string): Promise<boolean> {
    return (await table()).has(code);
  }

  async function list(): Promise<FxRateRow[]> {
    return [...(await table()).values()].sort((a, b) => a.currencyCode.localeCompare(b.currencyCode));
  }

  /** Sets one currency's rate against USD (admin). */
  async function set(code: string, units: string, asOf?: Date) {
    const value = dec(units);
    // The table keeps 12 decimals (numeric(30, 12), CHECK > 0): a rate that rounds to 0 there is refused
    // here, not left to the constraint (a 500).
    if (!value.isFinite() || value.toDecimalPlaces(12).lte(0)) {
      throw new AppError('INVALID_REQUEST', 'The rate must be a positive number of at least 0.000000000001', [
        { field: 'unitsPerUsd', issue: 'must be >= 0.000000000001' },
      ]);
    }
    const at = asOf ?? clock.now();
    await repository.upsert({ currencyCode: code, unitsPerUsd: value.toFixed(), asOf: at }, clock.now());
    cache = null;
    return { currencyCode: code, unitsPerUsd: value.toNumber(), asOf: at };
  }

  /** Loads data/seed/fx-rates.json into an empty table (first start); existing rates are kept. */
  async function seed(path = join(SEED_DIR, 'fx-rates.json')) {
    const file = JSON.parse(readFileSync(path, 'utf8')) as { asOf: string; rates: Record<string, string> };
    const asOf = parseDateTime(file.asOf) ?? clock.now();
    const rows = Object.entries({ USD: '1', ...file.rates }).map(([currencyCode, unitsPerUsd]) => ({
      currencyCode,
      unitsPerUsd,
      asOf,
    }));
    await repository.insertMissing(rows, clock.now());
    cache = null;
  }

  /** Forgets the table read (another server changed a rate); the next use reads it again. */
  function invalidate() {
    cache = null;
    reading = null;
  }

  return { rate, midRate, cost, has, list, set, seed, invalidate, marginPercent: () => margin.times(100) };
}

export type Fx = ReturnType<typeof createFx>;
