import { AppError } from '../../../errors/error-codes.ts';
import { roundToMinor } from '../../../lib/money.ts';
import { validPhoneOf } from '../../../lib/phone.ts';
import type { AccountsService } from '../../accounts/index.ts';
import type { Countries, Fx } from '../../reference/index.ts';
import { parseAmount } from '../orders/topup-pricing.ts';
import type { OperatorCatalog, OperatorFilter, OperatorRecord } from './operator-catalog.ts';
import type { OperatorFlags, OperatorViews } from './operator-view.ts';

/**
 * The top-up catalogue as the endpoints show it: countries, operators (in the caller's account
 * currency; inactive ones are not listed), auto-detect, the FX rate, commissions and promotions.
 * Reads only: the catalogue is `data/operators/` in memory (`operator-catalog.ts`).
 */
interface Page {
  limit: number;
  offset: number;
}

const slice = <T>(all: T[], page: Page): T[] => all.slice(page.offset, page.offset + page.limit);

/**
 * The number as given, valid in `iso`; else, for a '+' the caller may have added to a national number
 * (Reloadly's Node SDK always prefixes one: "+08031234567"), the same digits without it.
 */
function detectableNumber(phone: string, iso: string) {
  const asGiven = validPhoneOf(phone, iso);
  if (asGiven || !phone.trim().startsWith('+')) return asGiven;
  return validPhoneOf(phone.trim().slice(1), iso);
}

export function createTopupCatalogService(deps: {
  operators: OperatorCatalog;
  views: OperatorViews;
  countries: Countries;
  accounts: AccountsService;
  fx: Fx;
}) {
  const { operators, views, countries, accounts, fx } = deps;
  const currencyOf = async (accountId: number) => (await accounts.require(accountId)).currencyCode;

  /** A country airgift has operators for; anything else is COUNTRY_NOT_SUPPORTED. */
  function supportedCountry(iso: string) {
    const country = countries.find(iso);
    if (!country || !operators.hasCountry(country.isoName)) {
      throw new AppError('COUNTRY_NOT_SUPPORTED', `Top-ups to "${iso}" are not supported`);
    }
    return country;
  }

  /** An active operator, else 404. */
  function activeOperator(operatorId: number): OperatorRecord {
    const operator = operators.find(operatorId);
    if (!operator?.status) throw new AppError('RESOURCE_NOT_FOUND', `No operator ${operatorId}`);
    return operator;
  }

  /** Any operator, active or not (commissions and promotions show inactive ones too), else 404. */
  function anyOperator(operatorId: number): OperatorRecord {
    const operator = operators.find(operatorId);
    if (!operator) throw new AppError('RESOURCE_NOT_FOUND', `No operator ${operatorId}`);
    return operator;
  }

  return {
    /** The countries with operators, by name (`countries.all` is in that order). */
    countries: () => countries.all.filter((c) => operators.hasCountry(c.isoName)).map(views.country),

    country: (iso: string) => views.country(supportedCountry(iso)),

    async operators(accountId: number, filter: OperatorFilter & OperatorFlags, page: Page) {
      const all = operators.list(filter);
      const currency = await currencyOf(accountId);
      const content = await Promise.all(slice(all, page).map((o) => views.operator(o, currency, filter)));
      return { content, total: all.length };
    },

    async operator(accountId: number, operatorId: number, flags: OperatorFlags) {
      return views.operator(activeOperator(operatorId), await currencyOf(accountId), flags);
    },

    async operatorsOfCountry(accountId: number, iso: string, filter: OperatorFilter & OperatorFlags) {
      const country = supportedCountry(iso);
      const currency = await currencyOf(accountId);
      return Promise.all(
        operators
          .list({ ...filter, countryCode: country.isoName })
          .map((o) => views.operator(o, currency, filter)),
      );
    },

    /** The operator serving `phone` in `iso` (with `includeBundles`, the carrier's bundle operator). */
    async autoDetect(
      accountId: number,
      phone: string,
      iso: string,
      flags: OperatorFlags & { includeBundles?: boolean },
    ) {
      const country = supportedCountry(iso);
      const number = detectableNumber(phone, country.isoName);
      if (!number) {
        throw new AppError(
          'INVALID_PHONE_NUMBER',
          `${phone} is not a valid phone number in ${country.isoName}`,
        );
      }
      const operator = operators.detect(country.isoName, number.nationalNumber, flags.includeBundles);
      if (!operator) throw new AppError('COULD_NOT_AUTO_DETECT_OPERATOR');
      return views.operator(operator, await currencyOf(accountId), flags);
    },

    /** What `amount` of the account currency delivers in the operator's currency (decisions §5). */
    async fxRate(accountId: number, operatorId: number, rawAmount: unknown) {
      const amount = parseAmount(rawAmount);
      const operator = activeOperator(operatorId);
      const rate = await fx.rate(await currencyOf(accountId), operator.destinationCurrencyCode);
      return {
        id: operator.operatorId,
        name: operator.name,
        fxRate: roundToMinor(amount.times(rate), operator.destinationCurrencyCode).toNumber(),
        currencyCode: operator.destinationCurrencyCode,
      };
    },

    commissions(page: Page) {
      return { content: slice(operators.all, page).map(views.commission), total: operators.all.length };
    },

    commission: (operatorId: number) => views.commission(anyOperator(operatorId)),

    promotions(page: Page) {
      return {
        content: slice(operators.promotions, page).map(views.promotion),
        total: operators.promotions.length,
      };
    },

    promotion(promotionId: number) {
      const promotion = operators.findPromotion(promotionId);
      if (!promotion) throw new AppError('RESOURCE_NOT_FOUND', `No promotion ${promotionId}`);
      return views.promotion(promotion);
    },

    promotionsOfCountry(countryCode: string) {
      const iso = countryCode.toUpperCase();
      if (!countries.find(iso) || !operators.hasCountry(iso)) {
        throw new AppError('COUNTRY_NOT_SUPPORTED', `Top-ups to "${countryCode}" are not supported`);
      }
      const ids = new Set(operators.all.filter((o) => o.countryCode === iso).map((o) => o.operatorId));
      return operators.promotions.filter((p) => ids.has(p.operatorId)).map(views.promotion);
    },

    promotionsOfOperator(operatorId: number) {
      return operators.promotionsOf(anyOperator(operatorId).operatorId).map(views.promotion);
    },
  };
}

export type TopupCatalogService = ReturnType<typeof createTopupCatalogService>;
