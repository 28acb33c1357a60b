/** The top-up service's resources, with the spec's field names. Dates are UTC. */

export type { Balance, BalanceInfo } from './giftcards-types.js';

import type { BalanceInfo } from './giftcards-types.js';

export interface TopupCountry {
  isoName: string;
  name: string;
  currencyCode: string;
  currencyName: string;
  currencySymbol: string;
  flag: string;
  callingCodes: string[];
}

export interface Promotion {
  promotionId: number;
  /** The same as `promotionId` (a compatibility alias). */
  id: number;
  operatorId: number;
  title: string;
  title2: string;
  description: string;
  /** Like `Mon, 25 Jun 2018 06:00:00 +0000`. */
  startDate: string;
  endDate: string;
  denominations: string;
  localDenominations: string | null;
}

export interface Operator {
  operatorId: number;
  /** The same as `operatorId` (a compatibility alias). */
  id: number;
  name: string;
  bundle: boolean;
  data: boolean;
  pin: boolean;
  supportsLocalAmounts: boolean;
  denominationType: 'FIXED' | 'RANGE';
  senderCurrencyCode: string;
  senderCurrencySymbol: string;
  destinationCurrencyCode: string;
  destinationCurrencySymbol: string;
  /** @deprecated the same as `internationalDiscount`; to be removed by the service. */
  commission: number;
  internationalDiscount: number;
  localDiscount: number;
  mostPopularAmount: number | null;
  mostPopularLocalAmount?: number | null;
  minAmount: number | null;
  maxAmount: number | null;
  localMinAmount?: number | null;
  localMaxAmount?: number | null;
  country: { isoName: string; name: string };
  fx: { rate: number; currencyCode: string };
  logoUrls: string[];
  fixedAmounts: number[];
  fixedAmountsDescriptions: Record<string, string>;
  localFixedAmounts?: number[];
  localFixedAmountsDescriptions?: Record<string, string>;
  /** Only when asked for with `suggestedAmounts: true`. */
  suggestedAmounts?: number[];
  /** Only when asked for with `suggestedAmountsMap: true`. */
  suggestedAmountsMap?: Record<string, number>;
  promotions: Promotion[];
}

export interface Commission {
  operator: {
    operatorId: number;
    /** The same as `operatorId` (a compatibility alias). */
    id: number;
    name: string;
    countryCode: string;
    status: boolean;
    bundle: boolean;
    data: boolean;
  };
  percentage: number;
  internationalPercentage: number;
  localPercentage: number;
  updatedAt: string;
}

export interface TopupFxRate {
  /** Operator id. */
  id: number;
  name: string;
  /** What the `amount` asked about delivers, in `currencyCode`. */
  fxRate: number;
  currencyCode: string;
}

export type TopupStatus = 'SUCCESSFUL' | 'PROCESSING' | 'REFUNDED';

export interface PinDetail {
  serial: string | null;
  info1: string | null;
  info2: string | null;
  info3: string | null;
  value: string | null;
  code: string | null;
  ivr: string | null;
  validity: string | null;
}

export interface Link {
  href: string;
  rel: string;
  method?: string;
}

export interface TopupTransaction {
  transactionId: number;
  status: TopupStatus;
  operatorTransactionId: string | null;
  customIdentifier: string | null;
  recipientPhone: string | null;
  /** Only for the e-mail addressed operator (Nauta). */
  recipientEmail?: string;
  senderPhone: string | null;
  countryCode: string;
  operatorId: number;
  operatorName: string;
  discount: number;
  discountCurrencyCode: string;
  requestedAmount: number;
  requestedAmountCurrencyCode: string;
  deliveredAmount: number;
  deliveredAmountCurrencyCode: string;
  transactionDate: string;
  balanceInfo: BalanceInfo;
  pinDetail: PinDetail | null;
  /** Hypermedia links; at least `self`, the transaction's report URL. */
  links?: Link[];
}

export interface Phone {
  /** ISO 3166-1 alpha-2. */
  countryCode: string;
  /** With or without the country prefix and leading `+`. */
  number: string;
}

export interface TopupRequest {
  operatorId: number;
  amount: number;
  useLocalAmount?: boolean;
  /** Your unique reference; with it the SDK may retry the top-up safely. */
  customIdentifier?: string;
  recipientPhone?: Phone;
  recipientEmail?: string;
  senderPhone?: Phone;
}

export interface TopupPageQuery {
  /** 1-based page number (default 1). */
  page?: number;
  size?: number;
}

export interface AmountOptions {
  suggestedAmounts?: boolean;
  suggestedAmountsMap?: boolean;
}

export interface OperatorsQuery extends TopupPageQuery, AmountOptions {
  simplified?: boolean;
  /** Include RANGE operators (default true). */
  includeRange?: boolean;
  /** Include FIXED operators (default true). */
  includeFixed?: boolean;
  includePin?: boolean;
  includeData?: boolean;
  includeBundles?: boolean;
}

export interface AutoDetectQuery extends AmountOptions {
  includeBundles?: boolean;
}

export interface OperatorsByCountryQuery extends AmountOptions {
  includeBundles?: boolean;
  includeData?: boolean;
  includePin?: boolean;
}

export interface TopupTransactionsQuery extends TopupPageQuery {
  countryCode?: string;
  customIdentifier?: string;
  operatorId?: number | string;
  operatorName?: string;
  /** `yyyy-MM-dd HH:mm:ss`, UTC. */
  startDate?: string;
  endDate?: string;
  sortBy?: 'transactionDate' | 'transactionId' | 'requestedAmount';
  sortOrder?: 'asc' | 'desc';
}
