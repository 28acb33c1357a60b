/**
 * Country facts used by the build. Names, currencies and USD rates come from the server's reference seed
 * (`data/seed/countries.json`, `data/seed/fx-rates.json`, built by scripts/build-catalog-seed.ts), so
 * operator names, destination currencies and local amounts agree with what the API serves.
 * `world-countries` is used only for name variants when cleaning carrier names.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Country } from 'world-countries';

const require = createRequire(import.meta.url);
/** All countries of `world-countries` (loaded as JSON: its typings do not fit NodeNext default imports). */
export const worldCountries: Country[] = require('world-countries/countries.json');

/** Directory of the server's reference seed. */
export const SEED_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'data',
  'seed',
);

interface SeedCountry {
  isoName: string;
  name: string;
  currencyCode: string;
}

let seedCountries: Map<string, SeedCountry> | null = null;

function seed(): Map<string, SeedCountry> {
  if (!seedCountries) {
    const list = JSON.parse(readFileSync(path.join(SEED_DIR, 'countries.json'), 'utf8')) as SeedCountry[];
    seedCountries = new Map(list.map((c) => [c.isoName, c]));
  }
  return seedCountries;
}

export interface CountryFacts {
  iso: string;
  name: string;
  currency: string;
}

/** Facts for an ISO code, or null when the seed does not list it (e.g. AC, TA: not ISO 3166 countries). */
export function countryFacts(iso: string): CountryFacts | null {
  const c = seed().get(iso);
  if (!c?.currencyCode) return null;
  return { iso, name: c.name, currency: c.currencyCode };
}

export interface UsdRates {
  asOf: string;
  /** Units of each currency per 1 USD, as decimal strings. */
  rates: Record<string, string>;
}

/** The seed's reference rates (`data/seed/fx-rates.json`). */
export function usdRates(): UsdRates {
  const fx = JSON.parse(readFileSync(path.join(SEED_DIR, 'fx-rates.json'), 'utf8')) as Partial<UsdRates> & {
    base?: string;
  };
  if (fx.base !== 'USD' || !fx.rates) throw new Error('data/seed/fx-rates.json: expected USD-based rates');
  return { asOf: fx.asOf ?? '', rates: fx.rates };
}
