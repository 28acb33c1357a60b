/**
 * Currencies whose operators never get local amounts in the generated data: very volatile, or with
 * several official rates, so a fixed local figure would mislead. Their top-ups are sold in USD terms only.
 */
export const LOCAL_AMOUNTS_EXCLUDED: ReadonlySet<string> = new Set([
  'VES',
  'SSP',
  'IRR',
  'KPW',
  'CUP',
  'YER',
  'SDG',
  'SYP',
  'LBP',
]);
