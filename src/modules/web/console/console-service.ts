import type { Environment } from '../../../db/schema.ts';
import type { ChangeVersions } from '../../../lib/change-versions.ts';
import type { Clock } from '../../../lib/clock.ts';
import { dec } from '../../../lib/money.ts';
import { formatDateTime } from '../../../lib/time-format.ts';
import type { AccountsService, CreateAccountInput } from '../../accounts/index.ts';
import type { GiftcardServices } from '../../giftcards/index.ts';
import type { Ledger } from '../../ledger/index.ts';
import type { Fx } from '../../reference/index.ts';
import type { UpstreamService } from '../../upstream/index.ts';
import type { AuditLog } from '../audit-log.ts';
import type { UsersService } from '../users-service.ts';
import type { ConsoleRepository } from './console-repository.ts';

/**
 * What the operator console does, through the services the admin API uses (accounts, ledger,
 * catalogue, stock). Every mutation is written to the audit log with the operator's e-mail and IP
 * before its answer goes back; a mutation that fails is not recorded.
 */
export interface Operator {
  id: number;
  email: string;
  ip: string | null;
}

const DAY_MS = 86_400_000;

export function createConsoleService(deps: {
  accounts: AccountsService;
  ledger: Ledger;
  giftcards: GiftcardServices;
  repository: ConsoleRepository;
  audit: AuditLog;
  users: UsersService;
  fx: Fx;
  clock: Clock;
  changes?: ChangeVersions;
  upstreams?: Pick<UpstreamService, 'show'>;
}) {
  const { accounts, ledger, giftcards, repository, audit, clock, users } = deps;

  async function audited<T>(
    who: Operator,
    action: string,
    target: string,
    details: Record<string, unknown>,
    run: () => Promise<T>,
  ): Promise<T> {
    const result = await run();
    await audit.record({ userId: who.id, actor: who.email, action, target, details, ip: who.ip });
    return result;
  }

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
        createdAt: formatDateTime(r.created_at),
      }));
    },

    describe: (accountId: number) => accounts.describe(accountId),

    createAccount: (who: Operator, input: CreateAccountInput) =>
      audited(who, 'account.create', input.name, { ...input }, () => accounts.create(input)),

    changeBalance: (
      who: Operator,
      accountId: number,
      kind: 'FUNDING' | 'ADJUSTMENT',
      change: { environment: Environment; amount: string | number; reason: string },
    ) =>
      audited(
        who,
        kind === 'FUNDING' ? 'account.fund' : 'account.adjust',
        `account ${accountId}`,
        change,
        () => accounts.changeBalance(accountId, change.environment, kind, change.amount, change.reason),
      ),

    update: (
      who: Operator,
      accountId: number,
      changes: {
        status?: 'ACTIVE' | 'INACTIVE';
        dailyCountLimit?: number | null;
        dailyAmountLimit?: string | number | null;
      },
    ) =>
      audited(
        who,
        changes.status ? `account.${changes.status.toLowerCase()}` : 'account.limits',
        `account ${accountId}`,
        changes,
        () => accounts.update(accountId, changes),
      ),

    inviteUser: (who: Operator, accountId: number, email: string, dashboardUrl: string) =>
      audited(who, 'user.invite', `account ${accountId}`, { email }, async () => {
        await accounts.require(accountId);
        return users.invite('customer', email, accountId, dashboardUrl);
      }),

    revokeCredential: (who: Operator, clientId: string) =>
      audited(who, 'credential.revoke', clientId, {}, () => accounts.revokeCredential(clientId)),

    ledgerAudit: async () => ({
      discrepancies: await ledger.discrepancies(),
      checkedAt: formatDateTime(clock.now()),
    }),

    async transactions(
      f: { environment: Environment; product: 'all' | 'giftcards' | 'topups'; accountId?: number },
      page: { page: number; size: number },
    ) {
      const rows = await repository.transactions(f, {
        limit: page.size + 1,
        offset: (page.page - 1) * page.size,
      });
      return {
        items: rows.slice(0, page.size).map((r) => ({
          product: r.product,
          transactionId: Number(r.id),
          accountId: Number(r.account_id),
          status: r.status,
          description: r.description,
          customIdentifier: r.custom_identifier,
          cost: dec(r.cost).toNumber(),
          currencyCode: r.currency_code,
          createdAt: formatDateTime(new Date(r.created_at)),
        })),
        hasMore: rows.length > page.size,
        ...page,
      };
    },

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

    setProductStatus: (who: Operator, productId: number, status: 'ACTIVE' | 'INACTIVE') =>
      audited(who, `product.${status.toLowerCase()}`, `product ${productId}`, {}, async () => {
        const r = await giftcards.catalog.setStatus(productId, status);
        await deps.changes?.changed('catalog');
        return r;
      }),

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

    setFxRate: (who: Operator, currencyCode: string, unitsPerUsd: string) =>
      audited(who, 'fx.set', currencyCode, { unitsPerUsd }, async () => {
        const saved = await deps.fx.set(currencyCode, unitsPerUsd);
        await deps.changes?.changed('catalog');
        return {
          currencyCode: saved.currencyCode,
          unitsPerUsd: Number(saved.unitsPerUsd),
          asOf: formatDateTime(saved.asOf),
        };
      }),

    auditPage: (page: { limit: number; offset: number }) => audit.list(page),

    /** 30 days of orders and revenue per day and product (revenue per currency). */
    async chart(environment: Environment) {
      const today = Math.floor(clock.now().getTime() / DAY_MS) * DAY_MS;
      const from = new Date(today - 29 * DAY_MS);
      const rows = await repository.ordersPerDay(environment, from);
      return {
        environment,
        days: Array.from({ length: 30 }, (_, i) =>
          new Date(from.getTime() + i * DAY_MS).toISOString().slice(0, 10),
        ),
        series: rows.map((r) => ({
          day: r.day,
          product: r.product as 'giftcards' | 'topups',
          currencyCode: r.currency_code,
          orders: Number(r.orders),
          revenue: dec(r.revenue).toNumber(),
        })),
      };
    },
  };
}

export type ConsoleService = ReturnType<typeof createConsoleService>;
