import type { Static } from 'typebox';
import { explain, get, post } from '../../ui/api.ts';
import { confirmDialog, field, h, replace, status, table } from '../../ui/dom.ts';
import { go, type PageDef } from '../../ui/shell.ts';
import { type Env, envOf, pageNumber, pager, rerender } from '../../ui/widgets.ts';
import type {
  AddWebhookBody,
  QueuedDelivery,
  WebhookDeliveryPage,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
  WebhookList,
} from '../webhooks-schemas.ts';

/**
 * The account's webhook endpoints of one environment: add one (its signing secret shown once),
 * send it a test event, rotate its secret, remove it; with `?endpoint=<id>`, that endpoint's delivery
 * log (every event sent, its attempts and answers) and Replay. docs/webhooks.md says what arrives.
 */
type Endpoint = Static<typeof WebhookEndpoint>;

export const webhooksPage: PageDef = {
  path: '/webhooks',
  title: 'Webhooks',
  async render(body, route) {
    const env = envOf(route);
    const endpointId = Number(route.query.get('endpoint'));
    const list = await get<typeof WebhookList>('/api/webhooks', { environment: env });
    const message = h('div', { class: 'message', 'aria-live': 'polite' });
    const fail = (error: unknown) => replace(message, status(explain(error), 'error'));
    const shown = list.items.find((e) => e.id === endpointId);
    if (shown) {
      body.append(
        h('p', {}, h('a', { href: `#/webhooks?environment=${env}` }, '← Endpoints')),
        await deliveryLog(shown, env, pageNumber(route), fail),
        message,
      );
      return;
    }
    body.append(
      h(
        'p',
        {},
        `Events of the ${env} environment are POSTed, signed (Standard Webhooks), to these HTTPS endpoints. `,
        'Failed deliveries are retried for about 3 days.',
      ),
      table(
        `Endpoints (${env})`,
        ['URL', 'Events', 'Created (UTC)', 'State', 'Actions'],
        list.items.map((e) => [
          h('code', {}, e.url),
          e.events.join(' '),
          e.createdAt.replace('T', ' ').slice(0, 19),
          stateOf(e),
          actions(e, env, message, fail),
        ]),
      ),
      message,
      addForm(env, list.eventTypes, message, fail),
    );
  },
};

function stateOf(e: Endpoint) {
  if (e.disabledAt) return h('span', { class: 'badge failed', title: e.disabledReason ?? '' }, 'disabled');
  if (e.failingSince)
    return h('span', { class: 'badge pending' }, `failing since ${e.failingSince.slice(0, 16)}`);
  return h('span', { class: 'badge successful' }, 'active');
}

/** The secret of a new or rotated endpoint, shown this once. */
function secretBox(made: Static<typeof WebhookEndpointWithSecret>, what: string) {
  const copy = h(
    'button',
    {
      type: 'button',
      class: 'small',
      onclick: async () => {
        await navigator.clipboard.writeText(made.secret).catch(() => undefined);
        copy.textContent = 'Copied';
      },
    },
    'Copy secret',
  );
  return h(
    'div',
    { class: 'secret', role: 'status' },
    h('p', {}, h('strong', {}, `${what} Copy the signing secret now: it is shown only once.`)),
    h('p', {}, 'Endpoint ', h('code', {}, made.url)),
    h('p', {}, 'Signing secret ', h('code', { 'data-testid': 'webhook-secret' }, made.secret), ' ', copy),
    h('button', { type: 'button', class: 'small', onclick: () => rerender() }, 'Done'),
  );
}

function actions(e: Endpoint, env: Env, message: HTMLElement, fail: (error: unknown) => void) {
  const label = (what: string) => `${what} ${e.url}`;
  return h(
    'div',
    { class: 'actions' },
    h(
      'a',
      { href: `#/webhooks?environment=${env}&endpoint=${e.id}`, 'aria-label': label('Deliveries of') },
      'Deliveries',
    ),
    h(
      'button',
      {
        type: 'button',
        class: 'small',
        disabled: e.disabledAt !== null,
        'aria-label': label('Send test event to'),
        onclick: async () => {
          try {
            const sent = await post<typeof QueuedDelivery>(`/api/webhooks/${e.id}/test`);
            replace(
              message,
              status(`Test event ${sent.eventId} queued: it arrives within seconds; see its Deliveries.`),
            );
          } catch (error) {
            fail(error);
          }
        },
      },
      'Send test event',
    ),
    h(
      'button',
      {
        type: 'button',
        class: 'small',
        'aria-label': label('Rotate secret of'),
        onclick: async () => {
          const question = `Rotate the secret of ${e.url}? The old one stops verifying at once.`;
          if (!(await confirmDialog(question, 'Rotate'))) return;
          try {
            const made = await post<typeof WebhookEndpointWithSecret>(`/api/webhooks/${e.id}/rotate-secret`);
            replace(message, secretBox(made, 'Secret rotated.'));
          } catch (error) {
            fail(error);
          }
        },
      },
      'Rotate secret',
    ),
    h(
      'button',
      {
        type: 'button',
        class: 'small danger',
        'aria-label': label('Remove'),
        onclick: async () => {
          if (!(await confirmDialog(`Remove ${e.url}? Pending deliveries stop.`, 'Remove'))) return;
          try {
            await post<typeof WebhookEndpoint>(`/api/webhooks/${e.id}/remove`);
            rerender();
          } catch (error) {
            fail(error);
          }
        },
      },
      'Remove',
    ),
  );
}

function addForm(env: Env, eventTypes: string[], message: HTMLElement, fail: (error: unknown) => void) {
  const url = h('input', {
    type: 'url',
    name: 'url',
    required: true,
    placeholder: 'https://',
    autocomplete: 'off',
  });
  const all = h('input', { type: 'checkbox', name: 'all', id: 'event-all', value: '*' });
  const boxes = eventTypes.map((t) =>
    h('input', { type: 'checkbox', name: 'event', value: t, id: `event-${t.replace(/\W/g, '-')}` }),
  );
  all.addEventListener('change', () => {
    for (const b of boxes) b.disabled = all.checked;
  });
  const form = h(
    'form',
    { class: 'card', 'aria-labelledby': 'new-hook' },
    h('h2', { id: 'new-hook' }, `Add an endpoint (${env})`),
    field('URL', url),
    h(
      'fieldset',
      {},
      h('legend', {}, 'Events'),
      h('div', { class: 'check' }, all, h('label', { for: all.id }, 'Every event (*)')),
      ...boxes.map((b) => h('div', { class: 'check' }, b, h('label', { for: b.id }, b.value))),
    ),
    h('button', { type: 'submit', class: 'primary' }, 'Add endpoint'),
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const events = all.checked ? ['*'] : boxes.filter((b) => b.checked).map((b) => b.value);
    try {
      const made = await post<typeof WebhookEndpointWithSecret, typeof AddWebhookBody>('/api/webhooks', {
        environment: env,
        url: url.value.trim(),
        events,
      });
      replace(message, secretBox(made, 'Endpoint added.'));
      message.scrollIntoView({ block: 'nearest' });
    } catch (error) {
      fail(error);
    }
  });
  return form;
}

/** One endpoint's deliveries, newest first, with each one's last answer and Replay. */
async function deliveryLog(e: Endpoint, env: Env, page: number, fail: (error: unknown) => void) {
  const size = 20;
  const log = await get<typeof WebhookDeliveryPage>(`/api/webhooks/${e.id}/deliveries`, { page, size });
  const rows = log.items.map((d) => [
    h('span', {}, d.type, h('br', {}), h('code', {}, d.eventId)),
    h('span', { class: `badge ${d.status.toLowerCase()}` }, d.status),
    String(d.attempts),
    d.lastStatusCode === null ? '—' : String(d.lastStatusCode),
    d.lastError ?? '—',
    d.createdAt.replace('T', ' ').slice(0, 19),
    d.deliveredAt
      ? d.deliveredAt.replace('T', ' ').slice(0, 19)
      : d.nextAttemptAt
        ? `next ${d.nextAttemptAt.slice(11, 19)}`
        : '—',
    h(
      'button',
      {
        type: 'button',
        class: 'small',
        'aria-label': `Replay delivery ${d.id} (${d.type})`,
        onclick: async () => {
          try {
            await post<typeof QueuedDelivery>(`/api/webhooks/deliveries/${d.id}/replay`);
            rerender();
          } catch (error) {
            fail(error);
          }
        },
      },
      'Replay',
    ),
  ]);
  return h(
    'div',
    {},
    h('p', {}, 'Endpoint ', h('code', {}, e.url), ' ', stateOf(e)),
    table(
      `Deliveries to this endpoint (${env}), page ${page} of ${Math.max(1, Math.ceil(log.total / size))}`,
      ['Event', 'Status', 'Attempts', 'Response', 'Last error', 'Created (UTC)', 'Delivered (UTC)', 'Replay'],
      rows,
    ),
    pager(page, page * size < log.total, (p) =>
      go('/webhooks', { environment: env, endpoint: String(e.id), page: String(p) }),
    ),
  );
}
