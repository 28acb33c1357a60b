import type { Environment } from '../../../db/schema.ts';
import { AppError } from '../../../errors/error-codes.ts';
import { dec } from '../../../lib/money.ts';
import { createGathering } from '../../group-commit/index.ts';
import {
  createOrderPath,
  type OrderAdapter,
  type OrderPathDeps,
  type ProductDeps,
} from '../../orders/index.ts';
import type { CatalogService } from '../catalog/catalog-service.ts';
import type { FulfilmentStep, GiftcardProvider, OrderToFulfil } from '../fulfilment/provider.ts';
import { createOrderPricer, type OrderPrice } from './order-pricing.ts';
import { type CheckedGiftcardOrder, createOrderChecks } from './order-request.ts';
import type { OrderBody } from './order-schemas.ts';
import { applyStep, FINAL_STATES, type FirstStep, firstStep, refundNewOrder } from './order-states.ts';
import { type TransactionView, transactionView } from './order-view.ts';
import {
  type NewOrderRows,
  type OrdersRepository,
  ordersRowWriter,
  storedOrderRow,
  type TransactionRow,
} from './orders-repository.ts';

/**
 * Gift card orders on the one order path (modules/orders/): what they differ in. The checks of
 * `POST /orders` (`order-request.ts`: the product, its rules, the account), the price
 * (`order-pricing.ts`; a price too small to charge is answered after the customIdentifier check),
 * the id with its customIdentifier check, the row and its sealed cards (written by the debits'
 * statement in a batch: `ordersRowWriter`), the state machine (`order-states.ts`) and the
 * Transaction resource (`order-view.ts`). Live's provider is chosen per product (the code stock, the upstream, or a
 * refusal: 422 before anything is debited; decisions §7); a first step the upstream refused
 * (REFUSED) leaves the order refunded and answers the upstream's code.
 *
 * @example
 * const orders = createGiftcardOrders({ db, clock, ledger, accounts, fx, catalog, repository, codec,
 *   providers, settings: { maxQuantity: 10, smsFeeUsd: '0.10', callOutClaimMs } });
 * await orders.place(principal, { productId: 1840, quantity: 1, unitPrice: 25, senderName: 'Ada' });
 */
export interface GiftcardOrderDeps
  extends Pick<ProductDeps, 'db' | 'clock' | 'ledger' | 'accounts' | 'fx' | 'codec'> {
  catalog: CatalogService;
  repository: OrdersRepository;
  providers: Record<Environment, GiftcardProvider>;
  settings: OrderPathDeps<GiftcardOrderTypes>['settings'] & { maxQuantity: number; smsFeeUsd: string };
}

interface GiftcardOrderTypes {
  body: OrderBody;
  checked: CheckedGiftcardOrder;
  price: OrderPrice;
  order: OrderToFulfil;
  step: FulfilmentStep;
  first: FirstStep;
  rows: NewOrderRows;
  row: TransactionRow;
  view: TransactionView;
}

export function giftcardOrderAdapter(deps: GiftcardOrderDeps): OrderAdapter<GiftcardOrderTypes> {
  const { clock, ledger, accounts, repository, codec } = deps;
  const states = { repository, ledger, codec, clock };
  const checks = createOrderChecks({
    catalog: deps.catalog,
    accounts,
    maxQuantity: deps.settings.maxQuantity,
  });
  const pricer = createOrderPricer({
    catalog: deps.catalog,
    fx: deps.fx,
    smsFeeUsd: deps.settings.smsFeeUsd,
  });
  // a batch's ids and customIdentifier checks are one statement too
  const reserves = createGathering({
    gathers: ledger.inBatch,
    one: repository.reserve,
    many: repository.reserveMany,
  });

  return {
    product: 'giftcards',
    finalStates: FINAL_STATES,
    acceptsAfterReservation: false,
    referenceIndex: 'giftcard_transactions_custom_identifier',
    rowWriter: ordersRowWriter,
    repository,
    check: checks.check,
    price: pricer.price,

    async reserve(trx, c) {
      const { id, customIdentifierUsed } = await reserves.run(trx, c.reservation);
      if (customIdentifierUsed) throw new AppError('CUSTOM_IDENTIFIER_ALREADY_USED');
      return id;
    },

    toFulfil: (n) => ({
      transactionId: n.id,
      productId: n.checked.product.productId,
      quantity: n.checked.body.quantity,
      unitPrice: n.checked.order.unitPrice,
      preOrder: n.checked.order.preOrder,
      createdAt: n.now,
      status: 'PENDING',
      senderName: n.checked.order.senderName,
      userId: n.checked.order.userId,
      firstStep: true,
    }),

    firstStep: (n, step) => firstStep(states, n.id, step),

    debit(n) {
      const { product, order, body, account, reservation } = n.checked;
      const { price, first, now } = n;
      const row = {
        id: n.id,
        account_id: reservation.accountId,
        environment: reservation.environment,
        status: first?.status ?? 'PENDING',
        product_id: product.productId,
        product_name: product.productName,
        country_code: product.countryCode,
        brand_id: product.brandId,
        brand_name: product.brandName,
        quantity: body.quantity,
        unit_price: order.unitPrice,
        total_price: dec(order.unitPrice).times(body.quantity).toFixed(),
        recipient_currency_code: product.recipientCurrencyCode,
        currency_code: account.currencyCode,
        sender_unit_price: price.senderUnitPrice.toFixed(),
        amount: price.amount.toFixed(),
        fee: price.fee.toFixed(),
        discount: price.discount.toFixed(),
        sms_fee: price.smsFee.toFixed(),
        total_fee: price.totalFee.toFixed(),
        custom_identifier: order.customIdentifier,
        pre_ordered: order.preOrder,
        sender_name: order.senderName,
        recipient_email: order.recipientEmail,
        recipient_phone: order.phone?.e164 ?? null,
        recipient_phone_country: order.phone?.countryCode ?? null,
        user_id: order.userId,
        created_at: now,
        updated_at: now,
        // Without a first step, the worker takes the order from here.
        next_check_at: first ? first.nextCheckAt : n.rescueAt,
      };
      // The order's row and cards are written with its debit: a batch's, in the debits' one statement.
      const rows = { row, cards: first?.cards ?? [] };
      return { amount: price.amount, reason: `gift card order ${n.id}`, rows };
    },

    async recheck(trx, c) {
      if (c.order.customIdentifier !== null && (await repository.customIdentifierUsed(trx, c.reservation))) {
        throw new AppError('CUSTOM_IDENTIFIER_ALREADY_USED');
      }
    },

    stored: storedOrderRow,
    refund: (trx, row) => refundNewOrder(trx, states, row),

    view: transactionView,

    orderOf: (row, isFirstStep) => ({
      transactionId: row.id,
      productId: row.product_id,
      quantity: row.quantity,
      unitPrice: row.unit_price,
      preOrder: row.pre_ordered,
      createdAt: row.created_at,
      status: row.status,
      senderName: row.sender_name,
      userId: row.user_id,
      firstStep: isFirstStep,
    }),

    apply: (trx, row, step) => applyStep(trx, states, row, step),
    postpone: (id, at) => repository.postpone(id, at),
  };
}

/** Gift card orders: the one order path with the gift card adapter. */
export function createGiftcardOrders(deps: GiftcardOrderDeps) {
  return createOrderPath(deps, giftcardOrderAdapter(deps));
}

export type GiftcardOrders = ReturnType<typeof createGiftcardOrders>;
