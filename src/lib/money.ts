import { Decimal } from 'decimal.js';
import { minorUnitsOf } from './currencies.ts';

/**
 * Money is exact: amounts are `Decimal`s with the currency attached, and rounding happens here only
 * (half-up to the currency's ISO 4217 minor unit). Nothing in airgift does money arithmetic on `number`.
 *
 * @example
 * const price = money('10.005', 'USD').round(); // 10.01 USD
 * price.toNumber(); // 10.01, for JSON
 */
export const Dec = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });
export type Dec = Decimal;

export function dec(value: Decimal.Value): Decimal {
  return new Dec(value);
}

export class Money {
  constructor(
    readonly amount: Decimal,
    readonly currency: string,
  ) {}

  /** Rounded half-up to the currency's minor unit (JPY 0, USD 2, KWD 3). */
  round(): Money {
    return new Money(roundToMinor(this.amount, this.currency), this.currency);
  }

  plus(other: Decimal.Value): Money {
    return new Money(this.amount.plus(other), this.currency);
  }

  minus(other: Decimal.Value): Money {
    return new Money(this.amount.minus(other), this.currency);
  }

  times(factor: Decimal.Value): Money {
    return new Money(this.amount.times(factor), this.currency);
  }

  /** The exact decimal text, for the database. */
  toString(): string {
    return this.amount.toFixed();
  }

  /**
   * For a JSON response. Amounts rounded to a minor unit have at most 3 decimals and 15 digits in all,
   * so the conversion to a double is exact in its shortest form.
   */
  toNumber(): number {
    return this.amount.toNumber();
  }
}

export function money(amount: Decimal.Value, currency: string): Money {
  return new Money(dec(amount), currency);
}

export function roundToMinor(amount: Decimal, currency: string): Decimal {
  return amount.toDecimalPlaces(minorUnitsOf(currency), Decimal.ROUND_HALF_UP);
}

/** True when `amount` has no more decimals than `places`. */
export function hasAtMostDecimals(amount: Decimal, places: number): boolean {
  return amount.decimalPlaces() <= places;
}

/**
 * The exact decimal text with at least the currency's minor unit of decimals: "4.84" for
 * 4.840000 USD, "500" for JPY, "4.8432" when the amount is finer than cents. Nothing is rounded:
 * what exports write.
 */
export function exactMoneyText(amount: Decimal.Value, currency: string): string {
  const d = dec(amount);
  return d.toFixed(Math.max(minorUnitsOf(currency), d.decimalPlaces()));
}

/**
 * The amount rounded half-up to the currency's minor unit, as plain text: "4.84" (USD), "500" (JPY),
 * "1.250" (KWD). What e-mails and API views write.
 */
export function minorUnitText(amount: Decimal.Value, currency: string): string {
  return dec(amount).toFixed(minorUnitsOf(currency));
}

/**
 * An amount as people read it: rounded half-up to the currency's minor unit, thousands grouped,
 * the code after it: "1,234.50 USD", "500 JPY", "1.250 KWD". What pages show.
 */
export function displayMoney(amount: Decimal.Value, currency: string): string {
  const text = minorUnitText(amount, currency);
  const [whole, fraction] = text.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${grouped}${fraction === undefined ? '' : `.${fraction}`} ${currency}`;
}
