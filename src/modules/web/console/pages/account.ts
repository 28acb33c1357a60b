import { get, post } from '../../ui/api.ts';
import { confirmDialog, field, h, money, table } from '../../ui/dom.ts';
import { go, type PageDef } from '../../ui/shell.ts';
import { actionForm, environmentSelect, rerender, revokeCell, shapesForm } from '../../ui/widgets.ts';
import { accountInviteForm } from '../../users/pages/team.ts';
import type {
  Account,
  AccountPage,
  BalanceBody,
  BalanceChange,
  LimitsBody,
  ShapesBody,
  StatusBody,
} from '../console-schemas.ts';

/**
 * One account: activate or deactivate it, fund and adjust its balances, its daily limits and gift
 * card shapes, its credentials (revoke) and its dashboard users.
 */
export const accountPage: PageDef = {
  path: '/account',
  title: 'Account',
  async render(body, route) {
    const id = Number(route.query.get('id'));
    // the navigation's "Account" names no account: ask for one rather than ask the server for none
    if (!Number.isSafeInteger(id) || id < 1) return pickAccount(body);
    const r = await get<typeof AccountPage>(`/api/accounts/${id}`);
    const a = r.account;
    const amountInput = () => h('input', { name: 'amount', inputmode: 'decimal', required: true });
    const fundAmount = amountInput();
    const fundEnv = environmentSelect();
    const fundReason = h('input', { name: 'reason', required: true, value: 'top-up by bank transfer' });
    const adjAmount = amountInput();
    const adjEnv = environmentSelect();
    const adjReason = h('input', { name: 'reason', required: true });
    const countLimit = h('input', {
      name: 'dailyCountLimit',
      inputmode: 'numeric',
      value: a.dailyCountLimit ?? '',
    });
    const amountLimit = h('input', {
      name: 'dailyAmountLimit',
      inputmode: 'decimal',
      value: a.dailyAmountLimit ?? '',
    });
    const next = a.status === 'ACTIVE' ? 'INACTIVE' : 'ACTIVE';
    body.append(
      h(
        'section',
        { class: 'cards', 'aria-label': 'Summary' },
        h(
          'div',
          { class: 'card' },
          h('h2', {}, a.name),
          h('p', {}, `Account ${a.accountId} · ${a.currencyCode} · ${a.countryCode} · ${a.status}`),
          h(
            'button',
            {
              type: 'button',
              class: next === 'INACTIVE' ? 'danger' : '',
              onclick: async () => {
                if (
                  !(await confirmDialog(
                    `${next === 'INACTIVE' ? 'Deactivate' : 'Activate'} account ${a.accountId}?`,
                    'Confirm',
                  ))
                )
                  return;
                await post<typeof Account, typeof StatusBody>(`/api/accounts/${id}/status`, { status: next });
                rerender();
              },
            },
            next === 'INACTIVE' ? 'Deactivate' : 'Activate',
          ),
        ),
        ...(['live', 'sandbox'] as const).map((e) =>
          h(
            'div',
            { class: 'card balance' },
            h('h2', {}, `${e === 'live' ? 'Live' : 'Sandbox'} balance`),
            h(
              'p',
              { class: 'amount', 'data-testid': `balance-${e}` },
              money(a.balances[e].balance, a.currencyCode),
            ),
          ),
        ),
      ),
      h(
        'div',
        { class: 'grid2' },
        actionForm(
          'Fund',
          [field('Environment', fundEnv), field('Amount', fundAmount), field('Reason', fundReason)],
          'Fund',
          async () => {
            const asked = `Fund the ${fundEnv.value} balance of ${a.name} with ${fundAmount.value} ${a.currencyCode}?`;
            if (!(await confirmDialog(asked, 'Fund'))) return 'Not funded.';
            const c = await post<typeof BalanceChange, typeof BalanceBody>(`/api/accounts/${id}/fund`, {
              environment: fundEnv.value,
              amount: fundAmount.value,
              reason: fundReason.value,
            });
            setTimeout(rerender, 600);
            return `Funded ${money(c.amount, a.currencyCode)}: the new ${c.environment} balance is ${money(c.newBalance, a.currencyCode)}.`;
          },
        ),
        actionForm(
          'Adjust',
          [
            field('Environment', adjEnv),
            field('Amount (negative to take)', adjAmount),
            field('Reason', adjReason),
          ],
          'Adjust',
          async () => {
            const asked = `Adjust the ${adjEnv.value} balance of ${a.name} by ${adjAmount.value} ${a.currencyCode}?`;
            if (!(await confirmDialog(asked, 'Adjust'))) return 'Not adjusted.';
            const c = await post<typeof BalanceChange, typeof BalanceBody>(`/api/accounts/${id}/adjust`, {
              environment: adjEnv.value,
              amount: adjAmount.value,
              reason: adjReason.value,
            });
            setTimeout(rerender, 600);
            return `Adjusted: new balance ${money(c.newBalance, a.currencyCode)}`;
          },
        ),
        actionForm(
          'Daily limits',
          [
            field('Orders per day (empty: none)', countLimit),
            field(`Amount per day, ${a.currencyCode} (empty: none)`, amountLimit),
          ],
          'Save limits',
          async () => {
            await post<typeof Account, typeof LimitsBody>(`/api/accounts/${id}/limits`, {
              dailyCountLimit: countLimit.value === '' ? null : Number(countLimit.value),
              dailyAmountLimit: amountLimit.value === '' ? null : amountLimit.value,
            });
            return 'Limits saved.';
          },
        ),
        shapesForm(a.shapes, async (shapes) => {
          await post<typeof Account, typeof ShapesBody>(`/api/accounts/${id}/shapes`, { shapes });
        }),
      ),
      table(
        'Credentials',
        ['client_id', 'Environment', 'Scopes', 'Created (UTC)', 'State'],
        a.credentials.map((c) => [
          h('code', {}, c.clientId),
          c.environment,
          c.scopes.join(' '),
          c.createdAt,
          revokeCell(c, `Revoke ${c.clientId}?`),
        ]),
      ),
      table(
        'Dashboard users',
        ['E-mail', 'Role', 'Password set', 'Invited (UTC)'],
        r.users.map((u) => [u.email, u.role, u.active ? 'yes' : 'not yet', u.createdAt]),
      ),
      accountInviteForm(id),
      h(
        'p',
        {},
        h('a', { href: `#/requests?account=${id}&environment=live` }, 'API request log of this account'),
      ),
    );
  },
};

/** Without `?id=`: an account id to open, or the Accounts page to find one by name. */
function pickAccount(body: HTMLElement) {
  const box = h('input', { name: 'id', inputmode: 'numeric', required: true, pattern: '[0-9]+' });
  const form = h(
    'form',
    { class: 'filters', role: 'search', 'aria-label': 'Open an account' },
    field('Account id', box),
    h('button', { type: 'submit', class: 'primary' }, 'Open'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    go('/account', { id: box.value.trim() });
  });
  body.append(
    h(
      'p',
      {},
      'Which account? Type its id, or find it by name on the ',
      h('a', { href: '#/accounts' }, 'Accounts'),
      ' page.',
    ),
    form,
  );
}
