import { get, post } from '../shared/api.ts';
import { field, h, replace, status, table } from '../shared/dom.ts';
import { explain, type PageDef } from '../shared/shell.ts';
import { envOf, rerender } from '../shared/widgets.ts';

/**
 * The dashboard's gift card delivery pages: one order's messages to its recipient (status, attempts,
 * last error), the reveals of its code on the redeem page, and Resend (optionally to a corrected
 * e-mail address); and the account's branding of those messages and the page, with a preview.
 */
interface Deliveries {
  transactionId: number;
  deliveries: {
    deliveryId: number;
    kind: string;
    channel: string;
    address: string;
    status: string;
    attempts: number;
    lastError: string | null;
    createdAt: string;
    sentAt: string | null;
  }[];
  reveals: { revealedAt: string; ipAddress: string | null }[];
}

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
    const d = await get<Deliveries>(path, { environment: env });
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
        await post(path, email.value ? { recipientEmail: email.value } : {}, { environment: env });
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
        d.deliveries.map((m) => [
          KIND_NAMES[m.kind] ?? m.kind,
          m.address,
          h('span', { class: `badge ${m.status}` }, m.status),
          String(m.attempts),
          m.lastError ?? '—',
          m.createdAt,
          m.sentAt ?? '—',
        ]),
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

interface Branding {
  displayName: string | null;
  logoUrl: string | null;
  color: string | null;
  footer: string | null;
  codeInEmail: boolean;
}

export const brandingPage: PageDef = {
  path: '/branding',
  title: 'Branding',
  async render(body) {
    const b = await get<Branding>('/api/branding');
    const name = h('input', {
      type: 'text',
      name: 'displayName',
      maxlength: '100',
      value: b.displayName ?? '',
    });
    const logo = h('input', { type: 'url', name: 'logoUrl', maxlength: '500', value: b.logoUrl ?? '' });
    const color = h('input', { type: 'color', name: 'color', value: b.color ?? '#1d4ed8' });
    const footer = h('input', { type: 'text', name: 'footer', maxlength: '200', value: b.footer ?? '' });
    const inline = h('input', { type: 'checkbox', name: 'codeInEmail' });
    inline.checked = b.codeInEmail;
    const message = h('div', { 'aria-live': 'polite' });
    // the preview: what a recipient sees, coloured through the CSSOM (the page's CSP allows no inline style)
    const bar = h('div', { class: 'preview-bar' });
    const foot = h('p', { class: 'preview-foot' });
    const preview = h(
      'section',
      { class: 'preview', 'aria-labelledby': 'preview-title' },
      h('h2', { id: 'preview-title' }, 'Preview'),
      h(
        'div',
        { class: 'preview-mail' },
        bar,
        h(
          'div',
          { class: 'preview-body' },
          h('h3', {}, 'You have a gift card'),
          h('p', {}, 'Ada sent you a 25.00 USD Amazon gift card.'),
        ),
        foot,
      ),
    );
    const button = h('span', { class: 'preview-button' }, 'Open your gift card');
    preview.querySelector('.preview-body')?.append(button);
    const update = () => {
      const shown = name.value.trim() || 'Your account name';
      bar.textContent = shown;
      bar.style.background = color.value;
      button.style.background = color.value;
      foot.textContent = footer.value.trim() ? `${shown} · ${footer.value.trim()}` : shown;
    };
    for (const input of [name, color, footer]) input.addEventListener('input', update);
    update();
    const form = h(
      'form',
      { class: 'branding-form', 'aria-label': 'Branding' },
      field('Display name (the sender of your recipients’ e-mails)', name),
      field('Logo URL (https)', logo),
      field('Colour', color),
      field('Footer line', footer),
      h(
        'div',
        { class: 'field' },
        h('label', {}, inline, ' Put the codes in the e-mail (off: the link only)'),
      ),
      h('button', { type: 'submit', class: 'primary' }, 'Save'),
    );
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      try {
        await post('/api/branding', {
          displayName: name.value || null,
          logoUrl: logo.value || null,
          color: color.value || null,
          footer: footer.value || null,
          codeInEmail: inline.checked,
        });
        replace(message, status('Saved.'));
      } catch (error) {
        replace(message, status(explain(error), 'error'));
      }
    });
    body.append(
      h('p', {}, "How your gift cards' e-mails and the redeem page look to their recipients."),
      form,
      message,
      preview,
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
