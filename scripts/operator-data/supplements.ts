/**
 * Operators of countries for which libphonenumber publishes no carrier ranges (number portability makes
 * ranges meaningless there): the United States and Canada (+1 without carrier data), Mexico and
 * Argentina (no carrier file at all). Listed by hand with an approximate market share used only to
 * rank them. Mexico gets a documented fallback: every national number maps to Telcel, the carrier
 * holding most subscribers, so auto-detection answers with the most likely operator.
 */
export interface SupplementCarrier {
  iso: string;
  name: string;
  /** Approximate share of subscribers, 0..1; only used for ranking and "big operator" variants. */
  share: number;
  /** National number prefixes detected as this carrier (a fallback for the whole country). */
  fallbackPrefixes?: string[];
}

export const SUPPLEMENT_CARRIERS: readonly SupplementCarrier[] = [
  { iso: 'US', name: 'T-Mobile', share: 0.32 },
  { iso: 'US', name: 'Verizon', share: 0.3 },
  { iso: 'US', name: 'AT&T', share: 0.28 },
  { iso: 'US', name: 'Cricket Wireless', share: 0.04 },
  { iso: 'US', name: 'Boost Mobile', share: 0.03 },
  { iso: 'US', name: 'Tracfone', share: 0.03 },
  { iso: 'CA', name: 'Rogers', share: 0.33 },
  { iso: 'CA', name: 'Bell', share: 0.3 },
  { iso: 'CA', name: 'Telus', share: 0.28 },
  { iso: 'CA', name: 'Freedom Mobile', share: 0.09 },
  {
    iso: 'MX',
    name: 'Telcel',
    share: 0.62,
    fallbackPrefixes: ['2', '3', '4', '5', '6', '7', '8', '9'],
  },
  { iso: 'MX', name: 'AT&T', share: 0.17 },
  { iso: 'MX', name: 'Movistar', share: 0.1 },
  { iso: 'MX', name: 'Bait', share: 0.11 },
  { iso: 'AR', name: 'Claro', share: 0.4 },
  { iso: 'AR', name: 'Personal', share: 0.32 },
  { iso: 'AR', name: 'Movistar', share: 0.28 },
];

/** Number ranges missing from the source data, added under a carrier that the data already names. */
export interface SupplementRange {
  iso: string;
  /** Raw carrier name, normalised like the source data's names. */
  carrier: string;
  prefixes: string[];
  note: string;
}

export const SUPPLEMENT_RANGES: readonly SupplementRange[] = [
  {
    iso: 'RU',
    carrier: 'MTS',
    prefixes: ['91'],
    note: 'DEF codes 910-919, assigned to MTS; absent from the data',
  },
];
