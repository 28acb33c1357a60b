import type { Static } from 'typebox';
import { explain, get, post } from '../../ui/api.ts';
import { field, h, replace, status, table } from '../../ui/dom.ts';
import type { PageDef } from '../../ui/shell.ts';
import { envOf, rerender } from '../../ui/widgets.ts';
import type { DashboardResend, Deliveries } from '../dashboard-schemas.ts';

/**
 * One gift card order's delivery: its messages to the recipient (status, attempts, last error), the
 * reveals of its code on the redeem page, and Resend (optionally to a corrected e-mail address).
 */
const KIND_NAMES: Record<string, string> = {
  giftcard_email: 'E-mail with the link',
  link_sms: 'SMS with the link',
  code_sms: 'One-time code (SMS)',
};

export const deliveryPage: PageDef = {
  path: '/delivery',
  title: 'Gift card delivery',
  async render(body, route) {
    const env = envOf(route);
    const id = Number(route.query.get('id'));
    if (!id) {
      body.append(
        h(
          'p',
          {},
          'Choose “Delivery” on a successful gift card order of the ',
          h('a', { href: `#/transactions?environment=${env}` }, 'transactions'),
          '.',
        ),
      );
      return;
    }
    const path = `/api/giftcards/transactions/${id}/deliveries`;
    const d = await get<typeof Deliveries>(path, { environment: env });
    const message = h('div', { 'aria-live': 'polite' });
    const email = h('input', { type: 'email', name: 'recipientEmail', autocomplete: 'off' });
    const form = h(
      'form',
      { class: 'filters', 'aria-label': 'Resend' },
      field('Corrected e-mail (optional)', email),
      h('button', { type: 'submit', class: 'primary' }, 'Resend'),
    );
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      try {
        await post<typeof Deliveries, typeof DashboardResend>(
          path,
          email.value ? { recipientEmail: email.value } : {},
          { environment: env },
        );
        rerender();
      } catch (error) {
        replace(message, status(explain(error), 'error'));
      }
    });
    body.append(
      h('p', {}, h('a', { href: `#/transactions?environment=${env}` }, '← Transactions')),
      table(
        `Messages to the recipient of gift card order ${d.transactionId} (${env})`,
        ['What', 'To', 'Status', 'Attempts', 'Last error', 'Queued (UTC)', 'Sent (UTC)'],
        d.deliveries.map((m) => [KIND_NAMES[m.kind] ?? m.kind, ...deliveryCells(m)]),
      ),
      table(
        'Reveals of the code on the redeem page',
        ['When (UTC)', 'From address'],
        d.reveals.map((r) => [r.revealedAt, r.ipAddress ?? '—']),
      ),
      h(
        'p',
        {},
        'Resend sends the message again with a new link; the old link stops working. At most once every 30 seconds.',
      ),
      form,
      message,
    );
  },
};

/** The link from a gift card transaction's row to its delivery page. */
export const deliveryLink = (env: string, transactionId: number) =>
  h(
    'a',
    {
      href: `#/delivery?environment=${env}&id=${transactionId}`,
      'aria-label': `Delivery of gift card order ${transactionId}`,
    },
    'Delivery',
  );

/** A message's cells after its kind: to, status, attempts, last error, queued and sent (UTC). */
export const deliveryCells = (m: Static<typeof Deliveries>['deliveries'][number]) => [
  m.address,
  h('span', { class: `badge ${m.status}` }, m.status),
  String(m.attempts),
  m.lastError ?? '—',
  m.createdAt,
  m.sentAt ?? '—',
];
