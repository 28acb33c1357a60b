import { AppError, type ErrorDetail } from '../../../errors/error-codes.ts';
import { parseEmail } from '../../../lib/email.ts';
import { dec } from '../../../lib/money.ts';
import { validPhoneOf } from '../../../lib/phone.ts';
import type { AccountRow, AccountsService } from '../../accounts/index.ts';
import type { Principal } from '../../auth/index.ts';
import type { CatalogService } from '../catalog/catalog-service.ts';
import type { CatalogEntry } from '../catalog/product-view.ts';
import type { OrderRequest } from '../fulfilment/provider.ts';
import type { OrderBody } from './order-schemas.ts';
import type { Reservation } from './orders-repository.ts';

/**
 * Every rule of the `POST /orders` table (giftcards.md) that its schema (`order-schemas.ts`) cannot
 * say: the price offered, the quantity bounds, the user id some products need, e-mail and E.164 phone.
 */

export interface CheckedOrder {
  unitPrice: string;
  userId: string | null;
  customIdentifier: string | null;
  senderName: string;
  recipientEmail: string | null;
  /** E.164 with its '+' */
  phone: { e164: string; countryCode: string } | null;
  preOrder: boolean;
}

export const MAX_CUSTOM_IDENTIFIER = 150;
export const MAX_SENDER_NAME = 200;

/**
 * A FIXED product's denominations as canonical decimal text (`toFixed()`: equal values, equal text),
 * made once per catalog entry rather than a Decimal per denomination per order.
 */
const offered = new WeakMap<CatalogEntry, Set<string>>();
function offeredPrices(product: CatalogEntry): Set<string> {
  let prices = offered.get(product);
  if (!prices) {
    prices = new Set(product.fixedRecipientDenominations.map((d) => dec(d).toFixed()));
    offered.set(product, prices);
  }
  return prices;
}

/** Throws 400 INVALID_REQUEST naming every field that breaks a rule. */
export function checkOrder(body: OrderBody, product: CatalogEntry, maxQuantity: number): CheckedOrder {
  const problems: ErrorDetail[] = [];
  if (body.quantity < 1 || body.quantity > maxQuantity) {
    problems.push({ field: 'quantity', issue: `must be from 1 to ${maxQuantity}` });
  }
  const price = dec(body.unitPrice);
  if (product.denominationType === 'FIXED') {
    if (!offeredPrices(product).has(price.toFixed())) {
      problems.push({
        field: 'unitPrice',
        issue: `not offered; one of ${product.fixedRecipientDenominations.join(', ')} ${product.recipientCurrencyCode}`,
      });
    }
  } else {
    const min = dec(product.minRecipientDenomination ?? 0);
    const max = dec(product.maxRecipientDenomination ?? 0);
    if (price.lt(min) || price.gt(max) || price.decimalPlaces() > 2) {
      problems.push({
        field: 'unitPrice',
        issue: `must be from ${min.toFixed()} to ${max.toFixed()} ${product.recipientCurrencyCode}, at most 2 decimals`,
      });
    }
  }
  const senderName = body.senderName.trim();
  if (senderName.length === 0 || senderName.length > MAX_SENDER_NAME) {
    problems.push({ field: 'senderName', issue: `required, 1 to ${MAX_SENDER_NAME} characters` });
  }
  const customIdentifier = body.customIdentifier ?? null;
  if (
    customIdentifier !== null &&
    (customIdentifier.length === 0 || customIdentifier.length > MAX_CUSTOM_IDENTIFIER)
  ) {
    problems.push({ field: 'customIdentifier', issue: `1 to ${MAX_CUSTOM_IDENTIFIER} characters` });
  }
  const userId = body.productAdditionalRequirements?.userId?.trim() || null;
  if (product.userIdRequired && !userId) {
    problems.push({ field: 'productAdditionalRequirements.userId', issue: 'required by this product' });
  }
  const recipientEmail = body.recipientEmail ?? null;
  if (recipientEmail !== null && !parseEmail(recipientEmail)) {
    problems.push({ field: 'recipientEmail', issue: 'not an e-mail address' });
  }
  let phone: CheckedOrder['phone'] = null;
  if (body.recipientPhoneDetails) {
    const { countryCode, phoneNumber } = body.recipientPhoneDetails;
    const country = countryCode.toUpperCase();
    const parsed = /^[A-Z]{2}$/.test(country) ? validPhoneOf(phoneNumber, country) : null;
    if (!parsed) {
      problems.push({
        field: 'recipientPhoneDetails.phoneNumber',
        issue: `not a valid E.164 number of ${countryCode}`,
      });
    } else {
      phone = { e164: parsed.e164, countryCode: country };
    }
  }
  const preOrder = body.preOrder === true;
  if (preOrder && !product.supportsPreOrder) {
    problems.push({ field: 'preOrder', issue: 'this product does not support pre-orders' });
  }
  if (problems.length > 0) throw new AppError('INVALID_REQUEST', 'The order is invalid', problems);
  return {
    unitPrice: price.toFixed(),
    userId,
    customIdentifier,
    senderName,
    recipientEmail,
    phone,
    preOrder,
  };
}

/** A `POST /orders` once checked: what the rest of the order path reads of it. */
export interface CheckedGiftcardOrder {
  account: AccountRow;
  body: OrderBody;
  product: CatalogEntry;
  order: CheckedOrder;
  /** What the provider's `accept` is asked. */
  request: OrderRequest;
  /** Gift card orders carry no tag: any of an account's orders may share a batch. */
  tag: undefined;
  /** Its id and customIdentifier check (`orders-repository.ts`). */
  reservation: Reservation;
}

export interface OrderCheckDeps {
  catalog: CatalogService;
  accounts: AccountsService;
  /** `ORDER_MAX_QUANTITY`. */
  maxQuantity: number;
}

/**
 * The checks of `POST /orders` in the order a caller can fix them: the product (400 when unknown or
 * inactive for this environment), the rules above, the account (403 when inactive).
 *
 * @example
 * const { check } = createOrderChecks({ catalog, accounts, maxQuantity: 10 });
 * await check(principal, { productId: 1840, quantity: 1, unitPrice: 25, senderName: 'Ada' });
 */
export function createOrderChecks(deps: OrderCheckDeps) {
  return {
    async check(principal: Principal, body: OrderBody): Promise<CheckedGiftcardOrder> {
      const product = await deps.catalog.find(principal.environment, body.productId);
      const order = checkOrder(body, product, deps.maxQuantity);
      const account = await deps.accounts.requireActive(principal.accountId);
      return {
        account,
        body,
        product,
        order,
        request: {
          productId: product.productId,
          preOrder: order.preOrder,
          quantity: body.quantity,
          unitPrice: order.unitPrice,
        },
        tag: undefined,
        reservation: {
          accountId: principal.accountId,
          environment: principal.environment,
          productId: product.productId,
          customIdentifier: order.customIdentifier,
        },
      };
    },
  };
}
