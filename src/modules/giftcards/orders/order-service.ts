import type { Kysely } from 'kysely';
import type { Database, Environment } from '../../../db/schema.ts';
import { AppError } from '../../../errors/error-codes.ts';
import type { CardCodec } from '../../../lib/card-codes.ts';
import type { Clock } from '../../../lib/clock.ts';
import { takeStep } from '../../../lib/fulfilment-step.ts';
import { dec, roundToMinor } from '../../../lib/money.ts';
import type { AccountsService } from '../../accounts/index.ts';
import type { Principal } from '../../auth/index.ts';
import { createGathering, type Ledger } from '../../ledger/index.ts';
import type { Fx } from '../../reference/index.ts';
import type { CatalogService } from '../catalog/catalog-service.ts';
import type { CatalogEntry } from '../catalog/product-view.ts';
import type { FulfilmentStep, GiftcardProvider, OrderToFulfil } from '../fulfilment/provider.ts';
import { priceOrder } from './order-pricing.ts';
import { type CheckedOrder, checkOrder } from './order-request.ts';
import type { OrderBody } from './order-schemas.ts';
import { applyStep, FINAL_STATES, firstStep } from './order-states.ts';
import {
  type NewOrderRows,
  type OrdersRepository,
  storedOrderRow,
  type TransactionRow,
} from './orders-repository.ts';
import { transactionView } from './transaction-view.ts';

/**
 * Placing gift card orders and moving them on. An order is validated, priced (order-pricing.ts),
 * then written together with its ledger debit in one database transaction (shared with the account's
 * other orders waiting meanwhile). A provider that fulfils from memory (the sandbox) takes its first
 * step before the writes, and the row is written in the state it reached (most sandbox orders finish
 * there: SUCCESSFUL with their cards); a provider that needs the database (the live code stock)
 * reserves in the same transaction and takes its first step right after the commit. An order that is
 * not final keeps a `next_check_at`, and the worker (`src/worker/`) takes the next steps, so a restart
 * loses nothing. Live's provider is chosen per product (the code stock, the upstream, or a refusal:
 * 422 before anything is debited; decisions §7). A first step that the upstream refused (REFUSED)
 * leaves the order refunded and answers the upstream's code.
 */
export interface OrderServiceDeps {
  db: Kysely<Database>;
  clock: Clock;
  ledger: Ledger;
  accounts: AccountsService;
  fx: Fx;
  catalog: CatalogService;
  repository: OrdersRepository;
  codec: CardCodec;
  providers: Record<Environment, GiftcardProvider>;
  settings: {
    maxQuantity: number;
    smsFeeUsd: string;
    rescueAfterMs: number;
    /** How long a step that calls out (an upstream) holds its order (lib/fulfilment-step.ts). */
    callOutClaimMs: number;
  };
}

const UNIQUE_VIOLATION = '23505';

function isCustomIdentifierClash(error: unknown): boolean {
  const e = error as { code?: string; constraint?: string; message?: string };
  return (
    e?.code === UNIQUE_VIOLATION &&
    `${e.constraint ?? ''} ${e.message ?? ''}`.includes('giftcard_transactions_custom_identifier')
  );
}

export function createOrderService(deps: OrderServiceDeps) {
  const { db, clock, ledger, accounts, fx, catalog, repository, codec } = deps;
  // a batch's ids and customIdentifier checks are one statement too
  const reserves = createGathering({
    gathers: ledger.inBatch,
    one: repository.reserve,
    many: repository.reserveMany,
  });

  // The price of a FIXED card without SMS depends only on the product's sender prices (kept by the
  // catalog for a while, one object per product, terms and currency) and the order's unit price and
  // quantity: worked out once per such pair, not with a dozen Decimals per order. A RANGE price or an
  // SMS fee converts with the current rates, so those are priced each time.
  const fixedPrices = new WeakMap<object, Map<string, ReturnType<typeof priceOrder>>>();

  /** The price of an order (order-pricing.ts); UNPROCCESSABLE_ENTITY when too small to charge. */
  async function priceOf(product: CatalogEntry, order: CheckedOrder, quantity: number, currency: string) {
    const prices = await catalog.pricesOf(product, currency);
    if (product.denominationType !== 'FIXED' || order.phone) {
      return priceAnew(product, prices, order, quantity, currency);
    }
    let known = fixedPrices.get(prices);
    if (!known) {
      known = new Map();
      fixedPrices.set(prices, known);
    }
    const key = `${quantity}:${order.unitPrice}`;
    let price = known.get(key);
    if (!price) {
      price = await priceAnew(product, prices, order, quantity, currency);
      // bounded: a product has few denominations, and quantities are capped
      if (known.size < 1000) known.set(key, price);
    }
    return price;
  }

  async function priceAnew(
    product: CatalogEntry,
    prices: Awaited<ReturnType<typeof catalog.pricesOf>>,
    order: CheckedOrder,
    quantity: number,
    currency: string,
  ) {
    const senderUnitPrice =
      product.denominationType === 'FIXED'
        ? [...prices.fixed.entries()].find(([r]) => dec(r).equals(order.unitPrice))?.[1]
        : roundToMinor(await fx.cost(order.unitPrice, product.recipientCurrencyCode, currency), currency);
    const smsFeePerCard = order.phone
      ? roundToMinor(await fx.cost(deps.settings.smsFeeUsd, 'USD', currency), currency)
      : null;
    if (!senderUnitPrice || senderUnitPrice.lte(0)) {
      throw new AppError('UNPROCCESSABLE_ENTITY', `This price is too small to be charged in ${currency}`);
    }
    return priceOrder({
      quantity,
      senderUnitPrice,
      senderFee: prices.senderFee,
      senderFeePercentage: product.senderFeePercentage,
      discountPercentage: product.discountPercentage,
      smsFeePerCard: smsFeePerCard?.gt(0) ? smsFeePerCard : null,
      currencyCode: currency,
    });
  }

  async function place(principal: Principal, body: OrderBody) {
    const { accountId, environment } = principal;
    const product = await catalog.find(environment, body.productId);
    const order = checkOrder(body, product, deps.settings.maxQuantity);
    const account = await accounts.require(accountId);
    if (account.status !== 'ACTIVE') throw new AppError('INACTIVE_ACCOUNT');
    // the environment's provider refuses here what it cannot fulfil (an unrouted live product: 422)
    const provider = deps.providers[environment];
    await provider.accept({
      productId: product.productId,
      preOrder: order.preOrder,
      quantity: body.quantity,
      unitPrice: order.unitPrice,
    });
    // A refused price is answered after the customIdentifier check, inside the transaction (a used
    // reference is what a retried request must be told first).
    const priced = await priceOf(product, order, body.quantity, account.currencyCode).catch((error) => {
      if (error instanceof AppError) return error;
      throw error;
    });
    let row: TransactionRow;
    // a provider that refused in its first step (before the writes): answered once the order is refunded
    let refusal: AppError | null = null;
    try {
      // One transaction, shared with the other orders of this account waiting meanwhile
      // (ledger/batcher.ts), each of its statements one for the whole batch (ledger/gathering.ts):
      // the id (a sequence needs no lock) with the customIdentifier check (the unique index is what
      // guarantees it), the debit with the row and its cards, a refund when the step refunded.
      const reservation = {
        accountId,
        environment,
        productId: product.productId,
        customIdentifier: order.customIdentifier,
      };
      row = await ledger.orderTransaction({ accountId, environment }, async (trx) => {
        const { id: transactionId, customIdentifierUsed } = await reserves.run(trx, reservation);
        if (customIdentifierUsed) throw new AppError('CUSTOM_IDENTIFIER_ALREADY_USED');
        if (priced instanceof AppError) throw priced;
        const price = priced;
        const now = clock.now();
        // The order as its provider sees it, before any step.
        const pending = {
          transactionId,
          productId: product.productId,
          quantity: body.quantity,
          unitPrice: order.unitPrice,
          preOrder: order.preOrder,
          createdAt: now,
          status: 'PENDING' as const,
          senderName: order.senderName,
          userId: order.userId,
          firstStep: true,
        };
        // A provider that fulfils from memory (the sandbox) decides its first step before the writes, so
        // the row is written in the state it reached (most sandbox orders: SUCCESSFUL with their cards).
        // One that reserves in the database (the code stock) takes its first step after the commit. A
        // step that fails leaves the order PENDING, paid, with next_check_at: the worker takes it on.
        const first = provider.reserve
          ? null
          : await (async () =>
              firstStep({ codec }, transactionId, await provider.step(pending, now, trx)))().catch(
              () => null,
            );
        // The order's row and cards are written with its debit: a batch's, in the debits' one statement.
        const rows: NewOrderRows = {
          row: {
            id: transactionId,
            account_id: accountId,
            environment,
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
            next_check_at: first ? first.nextCheckAt : new Date(now.getTime() + deps.settings.rescueAfterMs),
          },
          cards: first?.cards ?? [],
        };
        const debit = await ledger
          .debitOrder(trx, {
            accountId,
            environment,
            amount: price.amount,
            product: 'giftcards',
            transactionId,
            reason: `gift card order ${transactionId}`,
            limits: {
              count: account.dailyCountLimit,
              amount: account.dailyAmountLimit === null ? null : dec(account.dailyAmountLimit),
            },
            rows: { with: repository.rowsWithDebit, item: rows },
          })
          .catch(async (error) => {
            // Refused (the balance, a daily limit) after waiting for the account's row: a twin with this
            // customIdentifier may have committed meanwhile (its debit is why the money is gone). The
            // client is retrying an order that landed, and must be told so, as it would have been had
            // it come a moment later.
            if (
              error instanceof AppError &&
              order.customIdentifier !== null &&
              (await repository.customIdentifierUsed(trx, reservation))
            ) {
              throw new AppError('CUSTOM_IDENTIFIER_ALREADY_USED');
            }
            throw error;
          });
        const stored = storedOrderRow(rows, debit);
        // What the provider takes now (stock codes) commits with the debit; its refusal rolls it back.
        await provider.reserve?.(trx, pending);
        refusal = first?.refusal ?? null;
        if (first?.refund) {
          const refund = await ledger.refundOrder(trx, {
            accountId,
            environment,
            amount: price.amount,
            product: 'giftcards',
            transactionId,
            reason: 'gift card order refunded',
          });
          const newBalance = refund.newBalance.toFixed();
          await repository.setBalanceAfterRefund(trx, transactionId, newBalance, refund.at);
          return { ...stored, new_balance: newBalance, balance_updated_at: refund.at };
        }
        return stored;
      });
    } catch (error) {
      if (isCustomIdentifierClash(error)) throw new AppError('CUSTOM_IDENTIFIER_ALREADY_USED');
      throw error;
    }
    // A reserving provider's order is accepted and paid: whatever its first step does, the caller gets
    // its transaction; a step that failed here is retried by the worker from next_check_at. A step
    // that refused the order (an upstream's refusal) has refunded it, and the caller gets its error.
    if (provider.reserve) {
      const id = row.id;
      const taken = await step(id, false, true).catch(async () => ({
        row: await readRow(id),
        refusal: null,
      }));
      row = taken.row;
      refusal = taken.refusal;
    }
    if (refusal) throw refusal;
    return transactionView(row);
  }

  /**
   * One fulfilment step of a transaction, on its locked row (`lib/fulfilment-step.ts`: a step that
   * calls out runs outside any transaction); `onlyIfDue` for the worker, `firstStep` for the placing
   * request's. A refusal is returned (the order is refunded by then) for the placing request to answer.
   */
  async function step(
    id: number,
    onlyIfDue: boolean,
    firstStep = false,
  ): Promise<{ row: TransactionRow; refusal: AppError | null }> {
    const taken = await takeStep<TransactionRow, OrderToFulfil, FulfilmentStep, Kysely<Database>>({
      transaction: (work) => db.transaction().execute(work),
      outside: db,
      lock: (trx) => repository.lock(trx, id),
      isOpen: (row, now) =>
        !FINAL_STATES.includes(row.status) &&
        !(onlyIfDue && (row.next_check_at === null || row.next_check_at > now)),
      orderOf: (row) => ({
        transactionId: row.id,
        productId: row.product_id,
        quantity: row.quantity,
        unitPrice: row.unit_price,
        preOrder: row.pre_ordered,
        createdAt: row.created_at,
        status: row.status,
        senderName: row.sender_name,
        userId: row.user_id,
        firstStep,
      }),
      providerOf: (row) => deps.providers[row.environment],
      apply: (trx, row, next) => applyStep(trx, { repository, ledger, codec, clock }, row, next),
      claim: (trx, row, until) => repository.claim(trx, row.id, until),
      isClaimed: (row, until) =>
        !FINAL_STATES.includes(row.status) && row.next_check_at?.getTime() === until.getTime(),
      claimMs: deps.settings.callOutClaimMs,
      now: () => clock.now(),
    });
    return { row: await readRow(id), refusal: taken?.status === 'REFUSED' ? taken.error : null };
  }

  const readRow = (id: number): Promise<TransactionRow> => repository.get(id);

  return {
    place,

    /** Orders whose `next_check_at` has come, oldest first (the worker's job list). */
    async due(now: Date, limit: number) {
      return (await repository.dueIds(now, limit)).map((id) => ({ id }));
    },

    /** The next fulfilment step of an order whose time has come. */
    async stepIfDue(id: number): Promise<void> {
      await step(id, true);
    },

    /** After a failed step: the next look at the order `rescueAfterMs` from now. */
    retryLater: (id: number) =>
      repository.postpone(id, new Date(clock.now().getTime() + deps.settings.rescueAfterMs)),
  };
}

export type OrderService = ReturnType<typeof createOrderService>;
