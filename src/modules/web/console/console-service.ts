import type { Environment } from '../../../db/schema.ts';
import { AppError } from '../../../errors/error-codes.ts';
import type { ChangeVersions } from '../../../lib/change-versions.ts';
import type { Clock } from '../../../lib/clock.ts';
import { type Dec, dec, roundToMinor } from '../../../lib/money.ts';
import { formatDateTime } from '../../../lib/time-format.ts';
import type { AccountChanges, AccountsService, CreateAccountInput } from '../../accounts/index.ts';
import type { GiftcardServices } from '../../giftcards/index.ts';
import type { Ledger } from '../../ledger/index.ts';
import type { Messaging } from '../../messaging/index.ts';
import { type Fx, fxRateView } from '../../reference/index.ts';
import type { OperatorStatuses } from '../../topups/index.ts';
import type { UpstreamService } from '../../upstream/index.ts';
import type { UsersService } from '../users/users-service.ts';
import type { ConsoleRepository } from './console-repository.ts';

/**
 * What the operator console does, through the services the admin API uses (accounts, ledger,
 * catalogue, top-up operator statuses, FX, stock). Every mutation is written to the audit log by the
 * console's audit hook (modules/audit/audit-hook.ts, described on each route), not here.
 */

const DAY_MS = 86_400_000;
/** The one currency the console's revenue chart reports in. */
const REPORTING_CURRENCY = 'USD';
type Product = 'giftcards' | 'topups';

export function createConsoleService(deps: {
  accounts: AccountsService;
  ledger: Ledger;
  giftcards: GiftcardServices;
  topups: { statuses: OperatorStatuses };
  repository: ConsoleRepository;
  users: UsersService;
  fx: Fx;
  clock: Clock;
  changes?: ChangeVersions;
  upstreams?: Pick<UpstreamService, 'show'>;
  messaging: Pick<Messaging, 'outbox'>;
}) {
  const { accounts, ledger, giftcards, repository, clock, users } = deps;

  return {
    async searchAccounts(search: string | undefined, page: { limit: number; offset: number }) {
      const rows = await repository.searchAccounts(search, page);
      return rows.map((r) => ({
        accountId: Number(r.id),
        name: r.name,
        currencyCode: r.currency_code,
        countryCode: r.country_code,
        status: r.status,
        dailyCountLimit: r.daily_count_limit,
        dailyAmountLimit: r.daily_amount_limit === null ? null : dec(r.daily_amount_limit).toNumber(),
        shapes: r.shapes,
        createdAt: formatDateTime(r.created_at),
      }));
    },

    describe: (accountId: number) => accounts.describe(accountId),
    /** The account as its changes answer it (the audit log's before). */
    show: (accountId: number) => accounts.show(accountId),

    /** The newest e-mails and SMS as their recipients see them (secrets masked), with their status. */
    outbox: (page: { limit: number; before?: number }) => deps.messaging.outbox(page),

    createAccount: (input: CreateAccountInput) => accounts.create(input),

    changeBalance: (
      accountId: number,
      kind: 'FUNDING' | 'ADJUSTMENT',
      change: { environment: Environment; amount: string | number; reason: string },
    ) => accounts.changeBalance(accountId, change.environment, kind, change.amount, change.reason),

    update: (accountId: number, changes: AccountChanges) => accounts.update(accountId, changes),

    /** A user of the account (its first owner, say): `role` none named is owner. */
    async inviteUser(accountId: number, email: string, dashboardUrl: string, role?: string) {
      await accounts.require(accountId);
      return users.invite('customer', email, accountId, dashboardUrl, role);
    },

    revokeCredential: (clientId: string) => accounts.revokeCredential(clientId),

    ledgerAudit: async () => ({
      discrepancies: await ledger.discrepancies(),
      orders: await ledger.orderMismatches(),
      checkedAt: formatDateTime(clock.now()),
    }),

    /** Gift card products whose name contains `search` or whose id is `search`, by id, one page. */
    async products(search: string | undefined, page: { limit: number; offset: number }) {
      const file = await giftcards.catalog.export();
      const wanted = search?.toLowerCase();
      const found = file.products.filter(
        (p) => !wanted || p.productName.toLowerCase().includes(wanted) || String(p.productId) === wanted,
      );
      return {
        items: found.slice(page.offset, page.offset + page.limit).map((p) => ({
          productId: p.productId,
          productName: p.productName,
          countryCode: p.countryCode,
          status: p.status,
        })),
        total: found.length,
      };
    },

    async setProductStatus(productId: number, status: 'ACTIVE' | 'INACTIVE') {
      const r = await giftcards.catalog.setStatus(productId, status);
      await deps.changes?.changed('catalog');
      return r;
    },

    /** Top-up operators (the seeded catalogue) with the status they are served with, one page. */
    topupOperators: (search: string | undefined, page: { limit: number; offset: number }) =>
      deps.topups.statuses.list(search, page),

    async setTopupOperatorStatus(operatorId: number, status: 'ACTIVE' | 'INACTIVE') {
      const r = await deps.topups.statuses.set(operatorId, status);
      await deps.changes?.changed('catalog');
      return r;
    },

    stock: () => giftcards.stock.show(),
    /** Each product's upstream: settings without the secret, health, its balance read live. */
    upstreams: async () => ({ items: deps.upstreams ? await deps.upstreams.show() : [] }),

    async fxTable() {
      return {
        marginPercent: deps.fx.marginPercent().toNumber(),
        rates: (await deps.fx.list()).map((r) => ({
          currencyCode: r.currencyCode,
          unitsPerUsd: Number(r.unitsPerUsd),
          asOf: formatDateTime(r.asOf),
        })),
      };
    },

    async setFxRate(currencyCode: string, unitsPerUsd: string) {
      const saved = await deps.fx.set(currencyCode, unitsPerUsd);
      await deps.changes?.changed('catalog');
      return {
        currencyCode: saved.currencyCode,
        unitsPerUsd: Number(saved.unitsPerUsd),
        asOf: formatDateTime(saved.asOf),
      };
    },

    /** The FX table's line of one currency, as `setFxRate` answers it (the audit log's before). */
    fxRate: (currencyCode: string) => fxRateView(deps.fx, currencyCode),

    /**
     * 30 days of orders and revenue per day and product. Revenue is in each account's currency in the
     * database; it is converted to one reporting currency (USD) at the FX table's mid rates (no
     * margin: this is a report, not a sale), with exact decimals, summed, then rounded half-up to
     * cents. The rates used are answered with their as-of times, and so are the amounts per currency.
     */
    async chart(environment: Environment) {
      const today = Math.floor(clock.now().getTime() / DAY_MS) * DAY_MS;
      const from = new Date(today - 29 * DAY_MS);
      const [rows, table] = await Promise.all([repository.ordersPerDay(environment, from), deps.fx.list()]);
      const rates = new Map(table.map((r) => [r.currencyCode, r]));
      const totals = new Map<string, { day: string; product: Product; orders: number; usd: Dec }>();
      const used = new Set<string>();
      for (const r of rows) {
        const rate = rates.get(r.currency_code);
        if (!rate) throw new AppError('INVALID_REQUEST', `No FX rate for ${r.currency_code}`);
        used.add(r.currency_code);
        const key = `${r.day} ${r.product}`;
        const t = totals.get(key) ?? { day: r.day, product: r.product as Product, orders: 0, usd: dec(0) };
        t.orders += Number(r.orders);
        t.usd = t.usd.plus(dec(r.revenue).div(dec(rate.unitsPerUsd)));
        totals.set(key, t);
      }
      return {
        environment,
        reportingCurrency: REPORTING_CURRENCY,
        days: Array.from({ length: 30 }, (_, i) =>
          new Date(from.getTime() + i * DAY_MS).toISOString().slice(0, 10),
        ),
        series: [...totals.values()].map((t) => ({
          day: t.day,
          product: t.product,
          orders: t.orders,
          revenue: roundToMinor(t.usd, REPORTING_CURRENCY).toNumber(),
        })),
        byCurrency: rows.map((r) => ({
          day: r.day,
          product: r.product as Product,
          currencyCode: r.currency_code,
          orders: Number(r.orders),
          revenue: dec(r.revenue).toNumber(),
        })),
        rates: [...used].sort().map((code) => {
          const rate = rates.get(code) as (typeof table)[number];
          return {
            currencyCode: code,
            unitsPerUsd: dec(rate.unitsPerUsd).toNumber(),
            asOf: formatDateTime(rate.asOf),
          };
        }),
      };
    },
  };
}

export type ConsoleService = ReturnType<typeof createConsoleService>;
