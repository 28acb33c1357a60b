import { get } from '../../ui/api.ts';
import { h, money, table } from '../../ui/dom.ts';
import { go, type PageDef } from '../../ui/shell.ts';
import { envOf, pageNumber, pager } from '../../ui/widgets.ts';
import type { LedgerPage } from '../dashboard-schemas.ts';

/** The balance's history: its ledger entries, newest first. */
export const balancePage: PageDef = {
  path: '/balance',
  title: 'Balance history',
  async render(body, route) {
    const env = envOf(route);
    const page = pageNumber(route);
    const r = await get<typeof LedgerPage>('/api/ledger', { environment: env, page, size: 25 });
    body.append(
      table(
        `Ledger entries (${env}), newest first`,
        ['Entry', 'When (UTC)', 'Kind', 'Amount', 'Balance after', 'Reason', 'Transaction'],
        r.items.map((e) => [
          // a funding has its printable receipt (receipt.ts)
          e.kind === 'FUNDING'
            ? h('a', { href: `#/receipt?entry=${e.entryId}&environment=${env}` }, `Receipt ${e.entryId}`)
            : String(e.entryId),
          e.createdAt,
          e.kind,
          money(e.amount, e.currencyCode),
          money(e.balanceAfter, e.currencyCode),
          e.reason ?? '—',
          e.transactionId ? `${e.product} ${e.transactionId}` : '—',
        ]),
      ),
      pager(page, r.hasMore, (p) => go('/balance', { environment: env, page: String(p) })),
    );
  },
};
