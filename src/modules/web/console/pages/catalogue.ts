import { get, post } from '../../ui/api.ts';
import { field, h, money, table } from '../../ui/dom.ts';
import { go, type PageDef } from '../../ui/shell.ts';
import { actionForm, pageNumber, pager, rerender, searchForm } from '../../ui/widgets.ts';
import type {
  FxRate,
  FxRateBody,
  FxTable,
  ProductPage,
  ProductStatus,
  StatusBody,
  StockList,
  UpstreamList,
} from '../console-schemas.ts';

/**
 * What is sold and from where: the upstreams of live fulfilment, the code stock, the FX table (and
 * setting a rate), and the gift card products (search, activate, deactivate).
 */
export const cataloguePage: PageDef = {
  path: '/catalogue',
  title: 'Catalogue and stock',
  async render(body, route) {
    const search = route.query.get('search') ?? '';
    const page = pageNumber(route);
    const [products, stock, fx, upstreams] = await Promise.all([
      get<typeof ProductPage>('/api/products', { search, page, size: 25 }),
      get<typeof StockList>('/api/stock'),
      get<typeof FxTable>('/api/fx'),
      get<typeof UpstreamList>('/api/upstreams'),
    ]);
    const fxCode = h('input', { name: 'currencyCode', required: true, maxlength: 3 });
    const fxUnits = h('input', { name: 'unitsPerUsd', required: true, inputmode: 'decimal' });
    const fxSection = h(
      'div',
      { class: 'grid2' },
      h(
        'details',
        { class: 'card' },
        h('summary', {}, `FX table: ${fx.rates.length} currencies, margin ${fx.marginPercent} %`),
        table(
          'Units of each currency per USD',
          ['Currency', 'Units per USD', 'As of (UTC)'],
          fx.rates.map((r) => [r.currencyCode, String(r.unitsPerUsd), r.asOf]),
        ),
      ),
      actionForm(
        'Set an FX rate',
        [field('Currency (ISO 4217)', fxCode), field('Units per USD', fxUnits)],
        'Save rate',
        async () => {
          const saved = await post<typeof FxRate, typeof FxRateBody>(
            `/api/fx/${encodeURIComponent(fxCode.value.toUpperCase())}`,
            { unitsPerUsd: fxUnits.value },
          );
          setTimeout(rerender, 600);
          return `${saved.currencyCode}: ${saved.unitsPerUsd} per USD`;
        },
      ),
    );
    const form = searchForm('Search products', 'Product name or id', search, (text) =>
      go('/catalogue', { search: text }),
    );
    body.append(
      table(
        'Upstreams (live fulfilment)',
        ['Product', 'URL', 'Client id', 'Margin', 'Last sync (UTC)', 'Its balance', 'Health'],
        upstreams.items.map((u) => [
          u.product,
          u.url,
          u.clientId,
          `${u.marginPercent} %`,
          u.lastSyncAt ?? 'never',
          u.balance ? money(u.balance.balance, u.balance.currencyCode) : `unknown: ${u.balanceError ?? ''}`,
          u.health.insufficientBalance
            ? 'out of funds there'
            : u.health.lastError
              ? `last error: ${u.health.lastError}`
              : 'ok',
        ]),
      ),
      table(
        `Code stock (at ${stock.at} UTC)`,
        ['Product', 'Face value', 'Available', 'Sold', 'Expired', 'Pre-ordered', 'Provider'],
        stock.items.map((s) => [
          `${s.productId} ${s.productName}`,
          money(s.faceValue, s.currencyCode),
          String(s.available),
          String(s.sold),
          String(s.expired),
          String(s.preOrdered),
          s.provider,
        ]),
      ),
      fxSection,
      form,
      table(
        `Gift card products (${products.total} found), page ${page}`,
        ['Id', 'Name', 'Country', 'Status', 'Change'],
        products.items.map((p) => [
          String(p.productId),
          p.productName,
          p.countryCode,
          p.status,
          h(
            'button',
            {
              type: 'button',
              class: 'small',
              'aria-label': `${p.status === 'ACTIVE' ? 'Deactivate' : 'Activate'} product ${p.productId}`,
              onclick: async () => {
                await post<typeof ProductStatus, typeof StatusBody>(`/api/products/${p.productId}/status`, {
                  status: p.status === 'ACTIVE' ? 'INACTIVE' : 'ACTIVE',
                });
                rerender();
              },
            },
            p.status === 'ACTIVE' ? 'Deactivate' : 'Activate',
          ),
        ]),
      ),
      pager(page, page * 25 < products.total, (p) => go('/catalogue', { search, page: String(p) })),
    );
  },
};
