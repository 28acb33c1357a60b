import { countries } from 'countries-list';

/**
 * ISO 3166-1 alpha-2 country codes known to the `countries-list` data package.
 *
 * @example
 * isCountry('NG') // true
 */
const codes = new Set(Object.keys(countries));

export function isCountry(code: string): boolean {
  return codes.has(code);
}
