import type { Static } from 'typebox';
import type { Clock } from '../../../lib/clock.ts';
import { minorUnitsOf } from '../../../lib/currencies.ts';
import { type Dec, dec, roundToMinor } from '../../../lib/money.ts';
import { formatRfc2822 } from '../../../lib/time-format.ts';
import type { Countries, Country, Fx } from '../../reference/index.ts';
import type { Commission, Operator, Promotion, Country as TopupCountry } from './catalog-schemas.ts';
import type { OperatorCatalog, OperatorRecord, PromotionRecord } from './operator-catalog.ts';

/**
 * Shapes catalogue records into the spec's resources for one caller. Operator amounts are kept in USD
 * in the catalogue; here they become the account currency: what a USD amount costs the account
 * (`fx.cost`, margin included), rounded half-up to its minor unit. `fx.rate` is what one unit of the
 * account currency delivers in the operator's currency.
 */
export interface OperatorFlags {
  suggestedAmounts?: boolean;
  suggestedAmountsMap?: boolean;
  simplified?: boolean;
}

/** An operator's amounts in one account currency; what pricing and the views both use. */
export interface SenderAmounts {
  accountCurrency: string;
  /** What 1 unit of the account currency delivers in the destination currency (margin taken). */
  rate: Dec;
  min: Dec | null;
  max: Dec | null;
  fixed: Dec[];
  mostPopular: Dec | null;
  suggested: Dec[];
}

const num = (d: Dec | null) => (d === null ? null : d.toNumber());
const numOf = (s: string | null) => (s === null ? null : dec(s).toNumber());

export function createOperatorViews(deps: {
  fx: Fx;
  countries: Countries;
  catalog: OperatorCatalog;
  clock: Clock;
}) {
  const { fx, countries, catalog, clock } = deps;
  const symbols = new Map<string, string>();
  for (const c of countries.all)
    if (!symbols.has(c.currencyCode)) symbols.set(c.currencyCode, c.currencySymbol);
  const symbolOf = (code: string) => symbols.get(code) ?? code;

  async function toSender(usd: string, accountCurrency: string): Promise<Dec> {
    return roundToMinor(await fx.cost(usd, 'USD', accountCurrency), accountCurrency);
  }

  /** What 1 unit of the account currency delivers at `o` (a synced operator's fxFactor taken). */
  async function rateOf(o: OperatorRecord, accountCurrency: string): Promise<Dec> {
    const rate = await fx.rate(accountCurrency, o.destinationCurrencyCode);
    return o.fxFactor === undefined ? rate : rate.times(o.fxFactor).toSignificantDigits(12, 1 /* DOWN */);
  }

  // An operator's amounts in an account currency, kept per operator record (records are never
  // changed: a new catalogue brings new ones) while the FX table read is the same one: fx answers
  // with the same rate objects for as long as it is (and with one constant for a currency to
  // itself), so the two rates the amounts are made of are compared by identity.
  const kept = new WeakMap<OperatorRecord, Map<string, { mid: Dec; rate: Dec; amounts: SenderAmounts }>>();

  /** The operator's amounts in the account's currency (every top-up and operator read needs them). */
  async function senderAmounts(o: OperatorRecord, accountCurrency: string): Promise<SenderAmounts> {
    const mid = await fx.midRate('USD', accountCurrency);
    const rate = await fx.rate(accountCurrency, o.destinationCurrencyCode);
    let known = kept.get(o);
    const hit = known?.get(accountCurrency);
    if (hit && hit.mid === mid && hit.rate === rate) return hit.amounts;
    const amounts = await convert(o, accountCurrency);
    if (!known) {
      known = new Map();
      kept.set(o, known);
    }
    known.set(accountCurrency, { mid, rate, amounts });
    return amounts;
  }

  async function convert(o: OperatorRecord, accountCurrency: string): Promise<SenderAmounts> {
    const conv = (s: string | null) => (s === null ? Promise.resolve(null) : toSender(s, accountCurrency));
    return {
      accountCurrency,
      rate: await rateOf(o, accountCurrency),
      min: await conv(o.minAmountUsd),
      max: await conv(o.maxAmountUsd),
      fixed: await Promise.all(o.fixedAmountsUsd.map((a) => toSender(a, accountCurrency))),
      mostPopular: await conv(o.mostPopularAmountUsd),
      suggested: await Promise.all(
        (o.denominationType === 'FIXED' ? o.fixedAmountsUsd : o.suggestedAmountsUsd).map((a) =>
          toSender(a, accountCurrency),
        ),
      ),
    };
  }

  function promotion(p: PromotionRecord): Static<typeof Promotion> {
    const date = (t: string) => formatRfc2822(new Date(`${t.replace(' ', 'T')}Z`));
    return { ...p, id: p.promotionId, startDate: date(p.startDate), endDate: date(p.endDate) };
  }

  /** The Operator resource in the caller's currency (simplified: see docs/decisions.md). */
  async function operator(
    o: OperatorRecord,
    accountCurrency: string,
    flags: OperatorFlags = {},
    from: OperatorCatalog = catalog,
  ): Promise<Static<typeof Operator>> {
    const s = await senderAmounts(o, accountCurrency);
    const local = o.supportsLocalAmounts;
    const key = (d: Dec) => d.toFixed(minorUnitsOf(accountCurrency));
    const view: Static<typeof Operator> = {
      operatorId: o.operatorId,
      id: o.operatorId,
      name: o.name,
      bundle: o.bundle,
      data: o.data,
      pin: o.pin,
      supportsLocalAmounts: local,
      denominationType: o.denominationType,
      senderCurrencyCode: accountCurrency,
      destinationCurrencyCode: o.destinationCurrencyCode,
      minAmount: num(s.min),
      maxAmount: num(s.max),
      localMinAmount: local ? numOf(o.localMinAmount) : null,
      localMaxAmount: local ? numOf(o.localMaxAmount) : null,
      country: { isoName: o.countryCode, name: countries.find(o.countryCode)?.name ?? o.countryCode },
      fixedAmounts: s.fixed.map((d) => d.toNumber()),
      localFixedAmounts: local ? o.localFixedAmounts.map((a) => dec(a).toNumber()) : [],
    };
    if (!flags.simplified) {
      const descriptions: Record<string, string> = {};
      o.fixedAmountsUsd.forEach((usd, i) => {
        const text = o.fixedAmountsDescriptions[usd];
        if (text !== undefined) descriptions[key(s.fixed[i])] = text;
      });
      Object.assign(view, {
        senderCurrencySymbol: symbolOf(accountCurrency),
        destinationCurrencySymbol: symbolOf(o.destinationCurrencyCode),
        commission: dec(o.internationalDiscount).toNumber(),
        internationalDiscount: dec(o.internationalDiscount).toNumber(),
        localDiscount: dec(o.localDiscount).toNumber(),
        mostPopularAmount: num(s.mostPopular),
        mostPopularLocalAmount: local ? numOf(o.mostPopularLocalAmount) : null,
        fx: { rate: s.rate.toNumber(), currencyCode: o.destinationCurrencyCode },
        logoUrls: o.logoUrls,
        fixedAmountsDescriptions: descriptions,
        localFixedAmountsDescriptions: local ? o.localFixedAmountsDescriptions : {},
        promotions: from.currentPromotions(o.operatorId, clock.now()).map(promotion),
      });
    }
    if (flags.suggestedAmounts) view.suggestedAmounts = s.suggested.map((d) => d.toNumber());
    if (flags.suggestedAmountsMap) {
      view.suggestedAmountsMap = Object.fromEntries(
        s.suggested.map((d) => [key(d), roundToMinor(d.times(s.rate), o.destinationCurrencyCode).toNumber()]),
      );
    }
    return view;
  }

  function country(c: Country): Static<typeof TopupCountry> {
    return {
      isoName: c.isoName,
      name: c.name,
      currencyCode: c.currencyCode,
      currencyName: c.currencyName,
      currencySymbol: c.currencySymbol,
      flag: c.flag,
      callingCodes: c.callingCodes,
    };
  }

  /**
   * An operator's Commission (every operator, inactive ones with `operator.status: false`);
   * `percentage` is the international discount (what most sends earn), `updatedAt` the as-of time of
   * the catalogue's terms.
   */
  function commission(o: OperatorRecord, from: OperatorCatalog = catalog): Static<typeof Commission> {
    return {
      operator: {
        operatorId: o.operatorId,
        id: o.operatorId,
        name: o.name,
        countryCode: o.countryCode,
        status: o.status,
        bundle: o.bundle,
        data: o.data,
      },
      percentage: dec(o.internationalDiscount).toNumber(),
      internationalPercentage: dec(o.internationalDiscount).toNumber(),
      localPercentage: dec(o.localDiscount).toNumber(),
      updatedAt: from.termsAsOf,
    };
  }

  return { operator, senderAmounts, rateOf, promotion, commission, country, symbolOf };
}

export type OperatorViews = ReturnType<typeof createOperatorViews>;
