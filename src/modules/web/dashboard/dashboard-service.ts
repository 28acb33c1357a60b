import type { AccountShapes, Environment } from '../../../db/schema.ts';
import type { Clock } from '../../../lib/clock.ts';
import { toCsv } from '../../../lib/csv.ts';
import { dec } from '../../../lib/money.ts';
import { formatDateTime } from '../../../lib/time-format.ts';
import type { AccountsService } from '../../accounts/index.ts';
import type { Principal } from '../../auth/index.ts';
import type { GiftcardServices } from '../../giftcards/index.ts';
import type { Ledger } from '../../ledger/index.ts';
import type { TopupServices } from '../../topups/index.ts';
import type { DashboardRepository } from './dashboard-repository.ts';

/**
 * What the dashboard pages show, assembled from the services the APIs use (accounts, credentials,
 * ledger, the gift card and top-up reports): nothing here decides anything the APIs decide. Every
 * call takes the signed-in user's account id, never one from the request, so a user sees only their
 * own account.
 */
export type ProductFilter = 'all' | 'giftcards' | 'topups';

export interface TransactionFilter {
  environment: Environment;
  product: ProductFilter;
  status?: string;
  customIdentifier?: string;
  startDate?: string;
  endDate?: string;
}

/** One row of the transactions table: either product, in the account currency. */
export interface TransactionLine {
  product: 'giftcards' | 'topups';
  transactionId: number;
  status: string;
  description: string;
  customIdentifier: string | null;
  cost: number;
  currencyCode: string;
  createdAt: string;
  /** When, in milliseconds, for merging both products in order (not sent: the schemas omit it). */
  at: number;
}

const DAY_MS = 86_400_000;

export function createDashboardService(deps: {
  accounts: AccountsService;
  ledger: Ledger;
  giftcards: GiftcardServices;
  topups: TopupServices;
  repository: DashboardRepository;
  clock: Clock;
}) {
  const { accounts, ledger, giftcards, topups, repository, clock } = deps;
  const principal = (accountId: number, environment: Environment): Principal => ({
    accountId,
    environment,
    clientId: 'dashboard',
    scopes: [],
  });

  /** Up to `limit` lines of one product, newest first, skipping `offset`. */
  async function lines(
    accountId: number,
    product: 'giftcards' | 'topups',
    f: TransactionFilter,
    limit: number,
    offset: number,
  ): Promise<TransactionLine[]> {
    const who = principal(accountId, f.environment);
    if (product === 'giftcards') {
      const rows = await giftcards.reports.list(who, {
        status: f.status,
        customIdentifier: f.customIdentifier,
        startDate: f.startDate,
        endDate: f.endDate,
        limit,
        offset,
      });
      return rows.map((t) => ({
        product,
        transactionId: t.transactionId,
        status: t.status,
        description: `${t.product.quantity} × ${t.product.productName}`,
        customIdentifier: t.customIdentifier,
        cost: t.amount,
        currencyCode: t.currencyCode,
        createdAt: t.transactionCreatedTime,
        at: Date.parse(`${t.transactionCreatedTime.replace(' ', 'T')}Z`),
      }));
    }
    const { rows } = await topups.reports.list(
      who,
      { customIdentifier: f.customIdentifier, startDate: f.startDate, endDate: f.endDate },
      { limit, offset },
      { status: f.status },
    );
    return rows.map((r) => ({
      product,
      transactionId: Number(r.id),
      status: r.status,
      description: `${dec(r.requested_amount).toNumber()} ${r.requested_currency_code} to ${r.operator_name}`,
      customIdentifier: r.custom_identifier,
      cost: dec(r.cost).toNumber(),
      currencyCode: r.requested_currency_code,
      createdAt: formatDateTime(r.created_at),
      at: r.created_at.getTime(),
    }));
  }

  /**
   * One page of transactions of one product or both (merged newest first). With both, each product
   * is read up to the end of the page and the two are merged, which is exact for any page.
   */
  async function transactions(accountId: number, f: TransactionFilter, page: { page: number; size: number }) {
    const end = page.page * page.size;
    const products = f.product === 'all' ? (['giftcards', 'topups'] as const) : [f.product];
    let merged: TransactionLine[];
    if (products.length === 1) {
      merged = await lines(accountId, products[0], f, page.size + 1, end - page.size);
      return { items: merged.slice(0, page.size), hasMore: merged.length > page.size, ...page };
    }
    const both = await Promise.all(products.map((p) => lines(accountId, p, f, end + 1, 0)));
    merged = both.flat().sort((a, b) => b.at - a.at || b.transactionId - a.transactionId);
    return { items: merged.slice(end - page.size, end), hasMore: merged.length > end, ...page };
  }

  async function balances(accountId: number) {
    const [live, sandbox] = await Promise.all([
      ledger.balance(accountId, 'live'),
      ledger.balance(accountId, 'sandbox'),
    ]);
    const view = (b: typeof live) => ({
      balance: b?.balance.toNumber() ?? 0,
      currencyCode: b?.currencyCode ?? '',
      updatedAt: b ? formatDateTime(b.updatedAt) : null,
    });
    return { live: view(live), sandbox: view(sandbox) };
  }

  /** Balances, 30 days of spend in the environment (every day, zero when none), the latest transactions. */
  async function overview(accountId: number, environment: Environment) {
    const account = await accounts.require(accountId);
    const today = new Date(Math.floor(clock.now().getTime() / DAY_MS) * DAY_MS);
    const from = new Date(today.getTime() - 29 * DAY_MS);
    const spent = new Map(
      (await repository.spendPerDay(accountId, environment, from)).map((r) => [r.day, r.spend]),
    );
    const days = Array.from({ length: 30 }, (_, i) => {
      const day = new Date(from.getTime() + i * DAY_MS).toISOString().slice(0, 10);
      return { day, spend: dec(spent.get(day) ?? '0').toNumber() };
    });
    const recent = await transactions(accountId, { environment, product: 'all' }, { page: 1, size: 10 });
    return {
      account: { accountId, name: account.name, currencyCode: account.currencyCode, status: account.status },
      balances: await balances(accountId),
      environment,
      spendPerDay: days,
      recent: recent.items,
    };
  }

  /** The codes of one of the account's gift card orders; each call is recorded (who, when, from where). */
  async function revealCodes(
    user: { id: number; accountId: number },
    environment: Environment,
    transactionId: number,
    ip: string | null,
  ) {
    const cards = await giftcards.reports.cards(principal(user.accountId, environment), transactionId);
    await repository.recordReveal({
      userId: user.id,
      accountId: user.accountId,
      environment,
      transactionId,
      ip,
      at: clock.now(),
    });
    return { transactionId, cards };
  }

  async function ledgerPage(
    accountId: number,
    environment: Environment,
    page: { page: number; size: number },
  ) {
    const rows = await ledger.entries(accountId, environment, {
      limit: page.size + 1,
      offset: (page.page - 1) * page.size,
    });
    return {
      items: rows.slice(0, page.size).map((e) => ({
        entryId: Number(e.id),
        kind: e.kind,
        amount: Number(e.amount),
        balanceAfter: Number(e.balanceAfter),
        currencyCode: e.currencyCode,
        reason: e.reason,
        product: e.product,
        transactionId: e.transactionId === null ? null : Number(e.transactionId),
        createdAt: formatDateTime(e.createdAt),
      })),
      hasMore: rows.length > page.size,
      ...page,
    };
  }

  /** The account's settings the customer may change themselves. */
  async function settings(accountId: number) {
    const account = await accounts.require(accountId);
    return { shapes: account.shapes };
  }

  /** The customer switches the shapes of their own account's gift card answers (docs/compatibility.md). */
  async function setShapes(accountId: number, shapes: AccountShapes) {
    const updated = await accounts.update(accountId, { shapes });
    return { shapes: updated.shapes };
  }

  return { overview, balances, transactions, revealCodes, ledgerPage, settings, setShapes };
}

/** Transaction lines as CSV (lib/csv.ts). */
export function transactionsCsv(items: TransactionLine[]): string {
  const head = [
    'product',
    'transactionId',
    'status',
    'description',
    'customIdentifier',
    'cost',
    'currencyCode',
    'createdAt',
  ] as const;
  return toCsv(
    [...head],
    items.map((t) => head.map((k) => t[k])),
  );
}

export type DashboardService = ReturnType<typeof createDashboardService>;
