/**
 * The gift card service's resources, with the spec's field names exactly (including its spellings
 * `maxrecipientDenomination` and `receipientPhone`). Dates are `yyyy-MM-dd HH:mm:ss`, UTC.
 */

export interface Balance {
  balance: number;
  currencyCode: string;
  currencyName: string;
  updatedAt: string;
}

export interface Category {
  id: number;
  name: string;
}

export interface Country {
  isoName: string;
  name: string;
  continent: string;
  currencyCode: string;
  currencyName: string;
  currencySymbol: string;
  flag: string;
  callingCodes: string[];
}

export type DenominationType = 'FIXED' | 'RANGE';

export interface Product {
  productId: number;
  productName: string;
  global: boolean;
  supportsPreOrder: boolean;
  status: string;
  senderFee: number;
  senderFeePercentage: number;
  discountPercentage: number;
  denominationType: DenominationType;
  recipientCurrencyCode: string;
  minRecipientDenomination: number | null;
  /** Spelled so by the spec (lowercase r); the same value as `maxRecipientDenomination`. */
  maxrecipientDenomination: number | null;
  /** The same value as `maxrecipientDenomination`, in the spelling of its `min…` twin. */
  maxRecipientDenomination: number | null;
  senderCurrencyCode: string;
  minSenderDenomination: number | null;
  maxSenderDenomination: number | null;
  fixedRecipientDenominations: number[];
  fixedSenderDenominations: number[];
  /** Single-key objects: recipient amount with two decimals ("25.00") to the sender amount. */
  fixedRecipientToSenderDenominationsMap: Array<Record<string, number>>;
  logoUrls: string[];
  brand: { brandId: number; brandName: string };
  category: Category;
  country: { isoName: string; name: string; flagUrl: string };
  redeemInstruction: { concise: string; verbose: string };
  additionalRequirements: { userIdRequired: boolean };
}

export interface BrandRedeemInstruction {
  brandId: number;
  brandName: string;
  concise: string;
  verbose: string;
}

export interface ProductRedeemInstruction {
  productId: number;
  productName: string;
  concise: string;
  verbose: string;
}

/** What `amount` of `recipientCurrency` costs in the account currency (`senderAmount`). */
export interface GiftCardFxRate {
  senderCurrency: string;
  senderAmount: number;
  recipientCurrency: string;
  recipientAmount: number;
}

export interface Discount {
  product: { productId: number; productName: string; countryCode: string; global: boolean };
  discountPercentage: number;
}

export type GiftCardTransactionStatus = 'SUCCESSFUL' | 'PENDING' | 'PROCESSING' | 'REFUNDED' | 'FAILED';

export interface BalanceInfo {
  oldBalance: number;
  newBalance: number;
  cost: number;
  currencyCode: string;
  currencyName: string;
  updatedAt: string;
}

export interface GiftCardTransaction {
  transactionId: number;
  amount: number;
  discount: number;
  currencyCode: string;
  fee: number;
  customIdentifier: string;
  status: GiftCardTransactionStatus;
  product: {
    productId: number;
    productName: string;
    countryCode: string;
    quantity: number;
    unitPrice: number;
    totalPrice: number;
    currencyCode: string;
    brand: { brandId: number; brandName: string };
  };
  smsFee: number;
  totalFee: number;
  /** Spelled so by the spec: the recipient's phone as a number, or null. */
  receipientPhone: number | null;
  /** The recipient's phone as text (digits kept exactly), or null. */
  recipientPhone: string | null;
  recipientEmail: string | null;
  transactionCreatedTime: string;
  preOrdered: boolean;
  balanceInfo: BalanceInfo;
}

/**
 * One redeem code. The server sends the codes as JSON numbers of any length (or as strings when
 * they are not all digits); the SDK always hands them over as strings with the exact characters.
 */
/** One message to an order's recipient (`GET|POST /orders/transactions/{id}/deliveries`). */
export interface Delivery {
  deliveryId: number;
  transactionId: number;
  /** giftcard_email: the e-mail with the link; link_sms: the link by SMS; code_sms: a one-time code. */
  kind: 'giftcard_email' | 'link_sms' | 'code_sms';
  channel: 'email' | 'sms';
  address: string;
  /** captured: a sandbox message, rendered and kept, never sent. */
  status: 'queued' | 'sent' | 'delivered' | 'failed' | 'captured';
  attempts: number;
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
  sentAt: string | null;
}

export interface Deliveries {
  transactionId: number;
  deliveries: Delivery[];
  /** Each reveal of the code on the redeem page. */
  reveals: { revealedAt: string; ipAddress: string | null }[];
}

/** A resend, optionally to a corrected address. */
export interface ResendRequest {
  recipientEmail?: string;
  recipientPhoneDetails?: { countryCode: string; phoneNumber: string };
}

export interface RedeemCode {
  cardNumber: string;
  pinCode: string;
}

export interface OrderRequest {
  productId: number;
  quantity: number;
  /** A listed fixed recipient denomination (FIXED) or a value from min to max (RANGE). */
  unitPrice: number;
  senderName: string;
  /** Your unique reference; with it the SDK may retry the order safely. */
  customIdentifier?: string;
  preOrder?: boolean;
  productAdditionalRequirements?: { userId?: string };
  recipientEmail?: string;
  recipientPhoneDetails?: { countryCode: string; phoneNumber: string };
}

export interface PageQuery {
  /** 1-based page number (default 1). */
  page?: number;
  /** Items per page (default 200, at most 1000). */
  size?: number;
}

export interface ProductsQuery extends PageQuery {
  productName?: string;
  countryCode?: string;
  productCategoryId?: number | string;
  includeRange?: boolean;
  includeFixed?: boolean;
}

export interface GiftCardTransactionsQuery extends PageQuery {
  customIdentifier?: string;
  /** `yyyy-MM-dd HH:mm:ss`, UTC. */
  startDate?: string;
  /** `yyyy-MM-dd HH:mm:ss`, UTC. */
  endDate?: string;
}
