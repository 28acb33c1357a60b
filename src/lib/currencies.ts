import currencyCodes from 'currency-codes';

/**
 * ISO 4217 currencies, from the `currency-codes` data package: the code, its English name and its
 * minor unit (decimals). Funds and test currencies (XAU, XTS, ...) are not money an account holds.
 *
 * @example
 * minorUnitsOf('JPY') // 0
 * currencyName('USD') // 'US Dollar'
 */
export interface Currency {
  code: string;
  name: string;
  minorUnits: number;
}

const NOT_MONEY = /^X(AU|AG|PT|PD|TS|XX|BA|BB|BC|BD|DR|SU|UA)$/;

const byCode = new Map<string, Currency>();
for (const entry of currencyCodes.data) {
  if (NOT_MONEY.test(entry.code)) continue;
  byCode.set(entry.code, { code: entry.code, name: entry.currency, minorUnits: entry.digits });
}

export function isCurrency(code: string): boolean {
  return byCode.has(code);
}

export function minorUnitsOf(code: string): number {
  return byCode.get(code)?.minorUnits ?? 2;
}

/** The currencies whose minor unit is not 2 (JPY 0, KWD 3, ...), as [code, decimals]. */
export function currenciesNotInHundredths(): Array<[string, number]> {
  return [...byCode.values()].filter((c) => c.minorUnits !== 2).map((c) => [c.code, c.minorUnits]);
}

export function currencyName(code: string): string {
  return byCode.get(code)?.name ?? code;
}
