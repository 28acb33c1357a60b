import type { Static } from 'typebox';
import { get } from '../../ui/api.ts';
import { h, status } from '../../ui/dom.ts';
import type { PageDef } from '../../ui/shell.ts';
import type { OutboxMessage, OutboxPage } from '../console-schemas.ts';

/**
 * One message as its recipient reads it: the text part (or the SMS) as text, the HTML part as its
 * escaped source under a disclosure. Not an iframe: this page's Content-Security-Policy forbids inline
 * style, which a srcdoc frame inherits (the e-mail's styles would be dropped anyway), and a frame of
 * the rendered HTML would need the policy loosened for a preview; textContent escapes everything.
 */
function outboxMessage(m: Static<typeof OutboxMessage>): HTMLElement {
  const head = h(
    'dl',
    { class: 'message-head' },
    h('dt', {}, 'To'),
    h('dd', {}, `${m.to} (${m.channel})`),
    h('dt', {}, 'Status'),
    h('dd', { class: m.status === 'failed' || m.status === 'unsent' ? 'bad' : '' }, m.statusText),
    h('dt', {}, 'Queued'),
    h('dd', {}, `${m.createdAt}${m.sentAt ? `, sent ${m.sentAt}` : ''}`),
    ...(m.transactionId
      ? [h('dt', {}, 'Order'), h('dd', {}, `${m.environment} gift card ${m.transactionId}`)]
      : []),
  );
  const body = h(
    'pre',
    { class: 'message-text' },
    m.text ?? '(no longer renderable: what it was about is gone)',
  );
  const html = m.html
    ? h('details', {}, h('summary', {}, 'HTML part (source)'), h('pre', { class: 'message-html' }, m.html))
    : '';
  return h(
    'article',
    { class: 'message', 'aria-label': `Message ${m.messageId}` },
    h('h2', {}, m.subject ?? (m.channel === 'sms' ? `SMS ${m.messageId}` : `E-mail ${m.messageId}`)),
    head,
    body,
    html,
  );
}

/** Every e-mail and SMS, newest first, as its recipient sees it. */
export const outboxPage: PageDef = {
  path: '/outbox',
  title: 'Outbox',
  async render(body, route) {
    const before = route.query.get('before');
    const r = await get<typeof OutboxPage>('/api/outbox', {
      size: 20,
      ...(before ? { before } : {}),
    });
    body.append(
      h(
        'p',
        {},
        'Every e-mail and text message, newest first, as its recipient sees it (links and one-time codes masked).',
      ),
      ...(r.items.length === 0 ? [status('Nothing sent yet.')] : r.items.map(outboxMessage)),
      ...(r.next ? [h('a', { href: `#/outbox?before=${r.next}`, class: 'button' }, 'Older messages')] : []),
    );
  },
};
