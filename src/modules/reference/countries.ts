import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../lib/project-root.ts';

/**
 * Countries as both specs show them (isoName, name, continent, currency, flag, calling codes with
 * `+`), from the versioned seed `data/seed/countries.json` (built from the countries-list and
 * world-countries data packages by scripts/build-catalog-seed.ts). Read once at start.
 *
 * @example
 * const countries = loadCountries();
 * countries.find('NG')?.currencyCode // 'NGN'
 */
export interface Country {
  isoName: string;
  name: string;
  continent: string;
  currencyCode: string;
  currencyName: string;
  currencySymbol: string;
  flag: string;
  callingCodes: string[];
}

export const SEED_DIR = join(PROJECT_ROOT, 'data', 'seed');

/**
 * The order of `GET /countries` in both products: by name, as the original service lists them (an
 * English collation, so "Åland Islands" comes with the A's, not after "Zimbabwe").
 */
const collator = new Intl.Collator('en', { sensitivity: 'base' });
export const byCountryName = (a: { name: string }, b: { name: string }) => collator.compare(a.name, b.name);

export function loadCountries(path = join(SEED_DIR, 'countries.json')) {
  const all: Country[] = (JSON.parse(readFileSync(path, 'utf8')) as Country[]).sort(byCountryName);
  const byIso = new Map(all.map((c) => [c.isoName, c]));
  return {
    all,
    find: (iso: string) => byIso.get(iso.toUpperCase()),
  };
}

export type Countries = ReturnType<typeof loadCountries>;
