import type { ApiDocs } from '../../http/openapi.ts';
import { Balance } from '../../http/schemas.ts';
import { BALANCE_TAG, balanceDocs } from '../accounts/index.ts';
import { DEBIT_REFUSALS } from '../orders/index.ts';
import * as C from './catalog/catalog-schemas.ts';
import { REPORT_BOUND_PATTERN } from './orders/order-reports.ts';
import * as O from './orders/order-schemas.ts';

/**
 * What the top-up OpenAPI document says about each operation besides its schemas: summary,
 * description, tag and the error codes it answers beyond those every operation shares
 * (`http/openapi.ts`). Keyed by `METHOD path` as the document spells the path.
 */
const AMOUNT_FLAGS =
  '`suggestedAmounts=true` adds the amounts worth proposing, `suggestedAmountsMap=true` the same as sender → recipient amounts.';
const INCLUDES =
  '`includePin`, `includeData`, `includeBundles` (default true) leave out PIN, data or bundle operators when false; `includeRange`/`includeFixed` leave out RANGE or FIXED ones.';

/** `amount` is checked by parseAmount (INVALID_AMOUNT, not the schema's INVALID_REQUEST). */
const AMOUNT = { 'body.amount': { type: 'number', exclusiveMinimum: 0 } };
const REPORT_BOUNDS = Object.fromEntries(
  ['startDate', 'endDate', 'startTime', 'endTime'].map((name) => [
    `query.${name}`,
    { pattern: REPORT_BOUND_PATTERN },
  ]),
);

export const TOPUP_API_DOCS: ApiDocs = {
  title: 'airgift mobile top-up service',
  description:
    'Send mobile airtime, data and PIN top-ups: find the operator of a phone number, price an amount in the operator currency, ' +
    'send the top-up and look up past transactions, commissions and promotions. Every call needs an OAuth 2.0 access token whose ' +
    'audience is this base URL and the scope the operation names (see [Getting started](docs/getting-started)).',
  tags: [
    BALANCE_TAG,
    { name: 'Countries', description: 'Countries that have operators.' },
    { name: 'Operators', description: 'Operators, their amounts, and auto-detection from a phone number.' },
    { name: 'Pricing', description: 'FX rates and commissions.' },
    { name: 'Promotions', description: "Operators' current promotions." },
    { name: 'Top-ups', description: 'Sending a top-up.' },
    { name: 'Reports', description: 'Past top-ups of the account.' },
  ],
  scopes: {
    'send-topups': 'Send top-ups (POST /topups).',
    'read-topups-history': 'Read past top-ups (the reports).',
    'read-operators': 'Read countries, operators, auto-detection and FX rates.',
    'read-promotions': 'Read promotions.',
    'read-prepaid-balance': 'Read the account balance.',
    'read-prepaid-commissions': 'Read commissions.',
  },
  schemas: {
    Operator: C.Operator,
    Promotion: C.Promotion,
    Commission: C.Commission,
    OperatorFxRate: C.FxRate,
    Country: C.Country,
    TopupRequest: O.TopupBody,
    Topup: O.TopupTransaction,
    PinDetail: O.PinDetail,
    Phone: O.Phone,
    Balance,
  },
  operations: {
    'GET /accounts/balance': balanceDocs('Scope `read-prepaid-balance`.'),
    'GET /countries': {
      tag: 'Countries',
      summary: 'List countries',
      description: 'Every country with operators, with its currency and calling codes.',
    },
    'GET /countries/{countryIsoCode}': {
      tag: 'Countries',
      summary: 'Get a country',
      description: 'One country by its ISO code. A country without operators answers COUNTRY_NOT_SUPPORTED.',
      errors: ['COUNTRY_NOT_SUPPORTED'],
    },
    'GET /operators': {
      tag: 'Operators',
      summary: 'List operators',
      description: `Every operator, paged (\`number\` is 0-based). \`simplified=true\` answers the short form. ${AMOUNT_FLAGS} ${INCLUDES}`,
    },
    'GET /operators/{operatorId}': {
      tag: 'Operators',
      summary: 'Get an operator',
      description: `One operator with its amounts: FIXED operators take one of \`fixedAmounts\`, RANGE operators any amount from \`minAmount\` to \`maxAmount\` (sender currency). ${AMOUNT_FLAGS}`,
    },
    'GET /operators/countries/{countryIsoCode}': {
      tag: 'Operators',
      summary: 'List the operators of a country',
      description: `The operators of one country (not paged). ${AMOUNT_FLAGS} ${INCLUDES}`,
      errors: ['COUNTRY_NOT_SUPPORTED'],
    },
    'GET /operators/auto-detect/phone/{phone}/countries/{iso}': {
      tag: 'Operators',
      summary: 'Detect the operator of a phone number',
      description:
        'The operator a mobile number belongs to, from its number range. When it cannot be told, the answer is COUNTRY_NOT_SUPPORTED or ' +
        'COULD_NOT_AUTO_DETECT_OPERATOR: pick the operator from `GET /operators/countries/{countryIsoCode}` instead.',
      errors: ['COUNTRY_NOT_SUPPORTED', 'COULD_NOT_AUTO_DETECT_OPERATOR', 'INVALID_PHONE_NUMBER'],
    },
    'POST /operators/fx-rate': {
      limits: AMOUNT,
      tag: 'Pricing',
      summary: 'Price an amount in the operator currency',
      description:
        'What `amount` of the account currency delivers in the currency of operator `operatorId`, at the rate top-ups use.',
      errors: ['INVALID_AMOUNT'],
    },
    'POST /operators/{operatorId}/fx-rate': {
      limits: AMOUNT,
      tag: 'Pricing',
      summary: 'Price an amount in the operator currency (operator in the path)',
      description: 'The same as `POST /operators/fx-rate`, with the operator in the path.',
      errors: ['INVALID_AMOUNT'],
    },
    'GET /operators/commissions': {
      tag: 'Pricing',
      summary: 'List commissions',
      description:
        'The commission percentage earned on each operator; paged. Scope `read-prepaid-commissions`.',
    },
    'GET /operators/{operatorId}/commissions': {
      tag: 'Pricing',
      summary: "Get an operator's commission",
      description: 'The commission percentage earned on one operator. Scope `read-prepaid-commissions`.',
    },
    'GET /promotions': {
      tag: 'Promotions',
      summary: 'List promotions',
      description: 'Current promotions of every operator; paged. Scope `read-promotions`.',
    },
    'GET /promotions/{promotionId}': {
      tag: 'Promotions',
      summary: 'Get a promotion',
      description: 'One promotion by its id.',
    },
    'GET /promotions/country-codes/{countryCode}': {
      tag: 'Promotions',
      summary: 'List the promotions of a country',
      description: 'Current promotions of the operators of one country.',
      errors: ['COUNTRY_NOT_SUPPORTED'],
    },
    'GET /promotions/countries/{countryCode}': {
      tag: 'Promotions',
      summary: 'List the promotions of a country (alias)',
      description:
        'The same as `GET /promotions/country-codes/{countryCode}`, under the path some SDKs call.',
      errors: ['COUNTRY_NOT_SUPPORTED'],
    },
    'GET /promotions/operators/{operatorId}': {
      tag: 'Promotions',
      summary: 'List the promotions of an operator',
      description: 'Current promotions of one operator.',
    },
    'POST /topups': {
      limits: AMOUNT,
      tag: 'Top-ups',
      summary: 'Send a top-up',
      description:
        'Tops up `recipientPhone` (or, for PIN operators, answers a PIN in `pinDetail`) with `amount` of the account currency, or of the ' +
        'operator currency when `useLocalAmount=true`. The account is debited at once. A FIXED operator takes only one of its amounts. ' +
        'The same number cannot be topped up twice within 2 minutes (PHONE_RECENTLY_RECHARGED), and a `customIdentifier` can be used once per account. ' +
        'Live top-ups need a fulfilment provider; a server without one refuses them with OPERATOR_NOT_IN_SERVICE before debiting anything. ' +
        'Scope `send-topups`.',
      errors: [
        'INVALID_AMOUNT',
        'INVALID_AMOUNT_FOR_OPERATOR',
        'INVALID_RECIPIENT_PHONE',
        'INVALID_SENDER_PHONE',
        'PHONE_RECENTLY_RECHARGED',
        'CUSTOM_IDENTIFIER_ALREADY_USED',
        'TOPUP_TRANSACTION_FAILED',
        ...DEBIT_REFUSALS,
        'OPERATOR_UNAVAILABLE_OR_CURRENTLY_INACTIVE',
        'OPERATOR_NOT_IN_SERVICE',
        'UNPROCCESSABLE_ENTITY',
        'TRANSACTION_CANNOT_BE_PROCESSED_AT_THE_MOMENT',
      ],
    },
    'GET /topups/reports/transactions': {
      limits: REPORT_BOUNDS,
      tag: 'Reports',
      summary: 'List top-ups',
      description:
        'The top-ups of the account; filter by country, operator, `customIdentifier` or date (`yyyy-MM-dd HH:mm:ss`, UTC), sort with `sortBy` and `sortOrder`. ' +
        'Paged (`number` is 0-based). Scope `read-topups-history`.',
    },
    'GET /topups/reports/transactions/{transactionId}': {
      tag: 'Reports',
      summary: 'Get a top-up',
      description:
        'One top-up of the account by its id. A top-up of another account is a 404. Scope `read-topups-history`.',
    },
  },
};
