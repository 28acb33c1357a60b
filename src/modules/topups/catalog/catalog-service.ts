import type { Environment } from '../../../db/schema.ts';
import { AppError } from '../../../errors/error-codes.ts';
import { roundToMinor } from '../../../lib/money.ts';
import { validPhoneOf } from '../../../lib/phone.ts';
import type { AccountsService } from '../../accounts/index.ts';
import type { Countries, Fx } from '../../reference/index.ts';
import { parseAmount } from '../orders/order-pricing.ts';
import type { OperatorSource } from './live-operators.ts';
import type { OperatorCatalog, OperatorFilter, OperatorRecord } from './operator-catalog.ts';
import type { OperatorFlags, OperatorViews } from './operator-view.ts';

/**
 * The top-up catalogue as the endpoints show it: countries, operators (in the caller's account
 * currency; inactive ones are not listed), auto-detect, the FX rate, commissions and promotions.
 * Reads only: the sandbox's catalogue is `data/operators/` in memory (`operator-catalog.ts`); live's
 * is the synced one when there is one (`live-operators.ts`). Countries are the seeded ones.
 */
/** Who asks: the account (its currency) and the environment (which catalogue). */
interface Caller {
  accountId: number;
  environment: Environment;
}

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
  source: OperatorSource;
  views: OperatorViews;
  countries: Countries;
  accounts: AccountsService;
  fx: Fx;
}) {
  const { source, views, countries, accounts } = deps;
  const operators = source.seed;
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
  function activeOperator(from: OperatorCatalog, operatorId: number): OperatorRecord {
    const operator = from.find(operatorId);
    if (!operator?.status) throw new AppError('RESOURCE_NOT_FOUND', `No operator ${operatorId}`);
    return operator;
  }

  /** Any operator, active or not (commissions and promotions show inactive ones too), else 404. */
  function anyOperator(from: OperatorCatalog, operatorId: number): OperatorRecord {
    const operator = from.find(operatorId);
    if (!operator) throw new AppError('RESOURCE_NOT_FOUND', `No operator ${operatorId}`);
    return operator;
  }

  return {
    /** The countries with operators, by name (`countries.all` is in that order). */
    countries: () => countries.all.filter((c) => operators.hasCountry(c.isoName)).map(views.country),

    country: (iso: string) => views.country(supportedCountry(iso)),

    async operators(caller: Caller, filter: OperatorFilter & OperatorFlags, page: Page) {
      const from = await source.of(caller.environment);
      const all = from.list(filter);
      const currency = await currencyOf(caller.accountId);
      const content = await Promise.all(
        slice(all, page).map((o) => views.operator(o, currency, filter, from)),
      );
      return { content, total: all.length };
    },

    async operator(caller: Caller, operatorId: number, flags: OperatorFlags) {
      const from = await source.of(caller.environment);
      return views.operator(
        activeOperator(from, operatorId),
        await currencyOf(caller.accountId),
        flags,
        from,
      );
    },

    async operatorsOfCountry(caller: Caller, iso: string, filter: OperatorFilter & OperatorFlags) {
      const country = supportedCountry(iso);
      const from = await source.of(caller.environment);
      const currency = await currencyOf(caller.accountId);
      return Promise.all(
        from
          .list({ ...filter, countryCode: country.isoName })
          .map((o) => views.operator(o, currency, filter, from)),
      );
    },

    /**
     * The operator serving `phone` in `iso` (with `includeBundles`, the carrier's bundle operator).
     * Live's synced catalogue detects with our number ranges and answers the synced operator with
     * the id found; one the upstream does not have (any more) is OPERATOR_NOT_IN_SERVICE.
     */
    async autoDetect(
      caller: Caller,
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
      const from = await source.of(caller.environment);
      const operator = from.detect(country.isoName, number.nationalNumber, flags.includeBundles);
      if (!operator) {
        if (source.isSynced(from) && operators.detect(country.isoName, number.nationalNumber)) {
          throw new AppError(
            'OPERATOR_NOT_IN_SERVICE',
            'The operator of this number is not synced from the upstream',
          );
        }
        throw new AppError('COULD_NOT_AUTO_DETECT_OPERATOR');
      }
      return views.operator(operator, await currencyOf(caller.accountId), flags, from);
    },

    /** What `amount` of the account currency delivers in the operator's currency (decisions §5). */
    async fxRate(caller: Caller, operatorId: number, rawAmount: unknown) {
      const amount = parseAmount(rawAmount);
      const operator = activeOperator(await source.of(caller.environment), operatorId);
      const rate = await views.rateOf(operator, await currencyOf(caller.accountId));
      return {
        id: operator.operatorId,
        name: operator.name,
        fxRate: roundToMinor(amount.times(rate), operator.destinationCurrencyCode).toNumber(),
        currencyCode: operator.destinationCurrencyCode,
      };
    },

    async commissions(environment: Environment, page: Page) {
      const from = await source.of(environment);
      return {
        content: slice(from.all, page).map((o) => views.commission(o, from)),
        total: from.all.length,
      };
    },

    async commission(environment: Environment, operatorId: number) {
      const from = await source.of(environment);
      return views.commission(anyOperator(from, operatorId), from);
    },

    async promotions(environment: Environment, page: Page) {
      const from = await source.of(environment);
      return {
        content: slice(from.promotions, page).map(views.promotion),
        total: from.promotions.length,
      };
    },

    async promotion(environment: Environment, promotionId: number) {
      const promotion = (await source.of(environment)).findPromotion(promotionId);
      if (!promotion) throw new AppError('RESOURCE_NOT_FOUND', `No promotion ${promotionId}`);
      return views.promotion(promotion);
    },

    async promotionsOfCountry(environment: Environment, countryCode: string) {
      const iso = countryCode.toUpperCase();
      if (!countries.find(iso) || !operators.hasCountry(iso)) {
        throw new AppError('COUNTRY_NOT_SUPPORTED', `Top-ups to "${countryCode}" are not supported`);
      }
      const from = await source.of(environment);
      const ids = new Set(from.all.filter((o) => o.countryCode === iso).map((o) => o.operatorId));
      return from.promotions.filter((p) => ids.has(p.operatorId)).map(views.promotion);
    },

    async promotionsOfOperator(environment: Environment, operatorId: number) {
      const from = await source.of(environment);
      return from.promotionsOf(anyOperator(from, operatorId).operatorId).map(views.promotion);
    },
  };
}

export type TopupCatalogService = ReturnType<typeof createTopupCatalogService>;
