import type { Static } from 'typebox';
import type {
  AnnounceBody,
  FundingInstructions,
  Transfer,
  TransferPage,
} from '../../../funding/funding-schemas.ts';
import { get, post } from '../../ui/api.ts';
import { field, h, status, table } from '../../ui/dom.ts';
import { go, type PageDef } from '../../ui/shell.ts';
import { actionForm, envOf, pageNumber, pager, rerender } from '../../ui/widgets.ts';

/**
 * Add funds to the live balance by bank transfer: where to send it, with the account's reference,
 * the form that announces a transfer, and each announced transfer's status (announced, confirmed
 * with its receipt, or rejected with the operator's reason). Sandbox balances are not funded here.
 */
const BADGE = { announced: 'pending', confirmed: 'successful', rejected: 'failed' } as const;

/** What the last announcement said, shown once by the page drawn after it (the list read anew). */
let flash: string | null = null;

export const statusBadge = (status: Static<typeof Transfer>['status']) =>
  h('span', { class: `badge ${BADGE[status]}` }, status);

export const addFundsPage: PageDef = {
  path: '/add-funds',
  title: 'Add funds',
  async render(body, route) {
    if (envOf(route) === 'sandbox') {
      body.append(
        h(
          'p',
          { class: 'card' },
          'Sandbox balances hold test money: the operator funds them on request, no transfer needed. ',
          h('a', { href: '#/add-funds?environment=live' }, 'Add funds to the live balance'),
          '.',
        ),
      );
      return;
    }
    const page = pageNumber(route);
    const [info, transfers] = await Promise.all([
      get<typeof FundingInstructions>('/api/funding'),
      get<typeof TransferPage>('/api/funding/transfers', { page, size: 20 }),
    ]);
    const bank = info.bankDetails;
    const details = h(
      'section',
      { class: 'card', 'aria-labelledby': 'bank-title' },
      h('h2', { id: 'bank-title' }, `Send a bank transfer in ${info.currencyCode}`),
      bank
        ? h(
            'dl',
            { class: 'facts' },
            h('dt', {}, 'Account holder'),
            h('dd', {}, bank.accountHolder),
            h('dt', {}, 'IBAN / account number'),
            h('dd', {}, bank.accountNumber),
            bank.bic ? [h('dt', {}, 'BIC / SWIFT'), h('dd', {}, bank.bic)] : null,
            h('dt', {}, 'Bank'),
            h('dd', {}, bank.bankName),
            h('dt', {}, 'Reference'),
            h('dd', { class: 'reference', 'data-testid': 'funding-reference' }, info.reference),
          )
        : h(
            'p',
            { role: 'status' },
            `The operator has not set bank details for ${info.currencyCode} yet: ask them how to pay. Your reference is `,
            h('strong', { 'data-testid': 'funding-reference' }, info.reference),
            '.',
          ),
      bank?.instructions ? h('p', {}, bank.instructions) : null,
      h(
        'p',
        { class: 'muted' },
        'Write the reference exactly as shown in the transfer’s reference field: it tells the operator which account the money is for. Then tell us about the transfer below; the balance is funded once the operator confirms it, and you get an e-mail.',
      ),
    );
    const amount = h('input', { name: 'amount', inputmode: 'decimal', required: true, autocomplete: 'off' });
    const sentOn = h('input', {
      name: 'transferDate',
      type: 'date',
      required: true,
      value: new Date().toISOString().slice(0, 10),
    });
    const payerReference = h('input', { name: 'payerReference', maxlength: 140, autocomplete: 'off' });
    const form = actionForm(
      'Tell us about your transfer',
      [
        field(`Amount (${info.currencyCode})`, amount),
        field('Date sent', sentOn),
        field('Your own reference (optional)', payerReference),
      ],
      'Announce transfer',
      async () => {
        const t = await post<typeof Transfer, typeof AnnounceBody>('/api/funding/transfers', {
          amount: amount.value.trim(),
          transferDate: sentOn.value,
          payerReference: payerReference.value.trim() || null,
        });
        flash = `Transfer ${t.transferId} of ${t.amount} ${t.currencyCode} announced: we e-mail you when it is confirmed.`;
        rerender();
        return 'Announced.';
      },
    );
    const said = flash ? status(flash) : null;
    flash = null;
    body.append(
      said ?? '',
      h('div', { class: 'grid2' }, details, bank ? form : null),
      table(
        'Your transfers, newest first',
        ['Transfer', 'Announced (UTC)', 'Sent on', 'Amount', 'Your reference', 'Status', 'Note'],
        transfers.items.map((t) => [
          String(t.transferId),
          t.announcedAt,
          t.transferDate,
          `${t.amount} ${t.currencyCode}`,
          t.payerReference ?? '—',
          statusBadge(t.status),
          t.status === 'confirmed' && t.ledgerEntryId
            ? h(
                'a',
                { href: `#/receipt?entry=${t.ledgerEntryId}&environment=live` },
                `Receipt of transfer ${t.transferId}`,
              )
            : (t.rejectReason ?? (t.status === 'announced' ? 'waiting for the money to arrive' : '—')),
        ]),
      ),
      pager(page, transfers.hasMore, (p) => go('/add-funds', { environment: 'live', page: String(p) })),
    );
  },
};
