import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { base32Decode, stepAt, totpCode } from '../../src/lib/totp.ts';
import { type Answer, AUDIENCES, type TestAccount } from '../harness/client.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';
import { consoleSession, dashboardSession, WEB_PASSWORD, type WebSession } from '../harness/web-session.ts';
import { type Operation, operationsOf } from '../security/operations.ts';

/**
 * The audit log hears the console and the dashboard as it hears the admin API (the admin walk is
 * test/audit/audit-log.test.ts): every mutating operation each page publishes is called, and
 * writes exactly one line naming the signed-in user (their id and e-mail), the action, the target,
 * the account (a dashboard user's own, always) and the address; codes, secrets, passwords and TOTP
 * codes never reach it. A new operation fails here until it has a recipe.
 */
type Page = 'dashboard' | 'console';

let server: TestServer;
let account: TestAccount;
const secrets: string[] = [];

before(async () => {
  server = await startTestServer();
  account = await server.admin.createAccount({ fund: 200 });
});
after(() => server?.close());

interface Step {
  /** sent without the session's cookie (sign-in, accepting an invitation) */
  open?: boolean;
  path?: Record<string, string | number>;
  query?: string;
  body?: unknown;
  /** who the line names, when not the session's user (`anonymous`: nobody signed in) */
  as?: { id: number; email: string } | 'anonymous';
  after?(answer: Answer): void;
}

function totp(session: WebSession) {
  let secret: Buffer;
  let step = 0;
  return {
    enrolled: (a: Answer) => {
      secret = base32Decode(a.body.secret);
      secrets.push(a.body.secret);
    },
    /** The recovery codes shown once (never in a line). */
    recovery: (a: Answer) => {
      assert.equal(a.body.recoveryCodes.length, 10);
      secrets.push(...a.body.recoveryCodes);
    },
    /** A code of a time step not used before (the clock moved on a step each time). */
    next: () => {
      server.clock.advance(30_000);
      step = Math.max(step + 1, stepAt(server.clock.now().getTime()));
      return totpCode(secret, step);
    },
    session,
  };
}

/** The team's steps: invite with a role, change it, remove (issue 28). */
function teamSteps(email: string, role: string, next: string): [string, () => Step][] {
  let userId = 0;
  return [
    [
      'POST /api/team/invitations',
      () => ({
        body: { email, role },
        after: (a) => {
          userId = a.body.userId;
          assert.equal(a.body.link, undefined, 'e-mailed only');
        },
      }),
    ],
    ['POST /api/team/{userId}/role', () => ({ path: { userId }, body: { role: next } })],
    ['POST /api/team/{userId}/remove', () => ({ path: { userId } })],
  ];
}

async function walk(page: Page, session: WebSession, steps: [string, () => Promise<Step> | Step][]) {
  const ops: Operation[] = (await operationsOf(server.http, `/${page}`, page)).filter(
    (o) => o.method !== 'GET',
  );
  const missing = ops.filter((o) => !steps.some(([key]) => key === o.key)).map((o) => o.key);
  assert.deepEqual(missing, [], `add a step (and an audit description) for each ${page} operation`);
  const lastId = async () =>
    (await server.admin.call('GET', '/audit?size=1')).body.items[0].auditId as number;
  const actions = new Set<string>();
  for (const [key, make] of steps) {
    const op = ops.find((o) => o.key === key);
    assert.ok(op, `${page} ${key} is no longer published: remove its step`);
    const step = await make();
    const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => String(step.path?.[name]));
    const before = await lastId();
    const headers: Record<string, string> = { 'x-request-id': `req-${page}-${actions.size}` };
    if (!step.open) Object.assign(headers, { cookie: session.cookie, 'x-csrf-token': session.csrfToken });
    const url = `/${page}${path}${step.query ? `?${step.query}` : ''}`;
    const answer = await server.http.post(url, step.body ?? {}, { headers });
    assert.equal(answer.status, 200, `${page} ${key}: ${answer.text.slice(0, 300)}`);
    step.after?.(answer);
    const lines = (await server.admin.call('GET', '/audit?size=50')).body.items.filter(
      (e: { auditId: number }) => e.auditId > before,
    );
    assert.equal(lines.length, 1, `${page} ${key} wrote ${lines.length} lines`);
    const [line] = lines;
    const who = step.as ?? { id: session.userId, email: session.email };
    assert.equal(line.channel, page);
    assert.deepEqual(
      [line.actorKind, line.actorId, line.actor],
      who === 'anonymous'
        ? ['anonymous', '-', 'anonymous']
        : [page === 'dashboard' ? 'customer' : 'operator', String(who.id), who.email],
      `${page} ${key}`,
    );
    if (page === 'dashboard' && who !== 'anonymous') {
      assert.equal(line.accountId, account.accountId, `${key}: the user's account`);
    }
    assert.equal(line.requestId, headers['x-request-id']);
    assert.equal(line.ip, '127.0.0.1');
    assert.match(line.action, /^[a-z-]+\.[a-z-]+$/, `${page} ${key} has a named action, not ${line.action}`);
    actions.add(line.action);
  }
  return actions;
}

describe('the audit log of the console and the dashboard', () => {
  test('every console mutation writes one line naming the operator', async () => {
    const ops = await consoleSession(server, 'walk-ops@example.com');
    const id = account.accountId;
    const mfa = totp(ops);
    let newcomer = { id: 0, email: 'walk-ops-2@example.com' };
    let clientId = '';
    // a bank transfer the account's user announces on the dashboard, for the operator to decide
    const payer = await dashboardSession(server, id, 'walk-payer@example.com');
    const announce = async () => {
      const day = server.clock.now().toISOString().slice(0, 10);
      const made = await payer.post('/api/funding/transfers', { amount: '12.50', transferDate: day });
      assert.equal(made.status, 200, made.text);
      return made.body.transferId as number;
    };
    const actions = await walk('console', ops, [
      [
        'POST /api/welcome',
        async () => {
          const invited = await server.admin.call('POST', '/operators', { email: newcomer.email });
          newcomer = { id: invited.body.userId, email: newcomer.email };
          const token = new URL(invited.body.link).hash.split('/').pop() as string;
          secrets.push(token);
          return { open: true, body: { token, password: WEB_PASSWORD }, as: newcomer };
        },
      ],
      [
        'POST /api/sign-in',
        () => ({ open: true, body: { email: newcomer.email, password: WEB_PASSWORD }, as: newcomer }),
      ],
      ['POST /api/password-reset', () => ({ open: true, body: { email: newcomer.email }, as: 'anonymous' })],
      [
        'POST /api/accounts',
        () => ({
          body: { name: 'Console walk', currency: 'USD', country: 'US', environment: 'sandbox', fund: '500' },
          after: (a) => {
            clientId = a.body.clientId;
            secrets.push(a.body.clientSecret);
          },
        }),
      ],
      [
        'POST /api/accounts/{accountId}/fund',
        () => ({ path: { accountId: id }, body: { environment: 'sandbox', amount: '20', reason: 'wire' } }),
      ],
      [
        'POST /api/accounts/{accountId}/adjust',
        () => ({ path: { accountId: id }, body: { environment: 'sandbox', amount: '-2', reason: 'fee' } }),
      ],
      [
        'POST /api/accounts/{accountId}/limits',
        () => ({ path: { accountId: id }, body: { dailyCountLimit: 9, dailyAmountLimit: null } }),
      ],
      [
        'POST /api/accounts/{accountId}/status',
        () => ({ path: { accountId: id }, body: { status: 'ACTIVE' } }),
      ],
      [
        'POST /api/accounts/{accountId}/shapes',
        () => ({ path: { accountId: id }, body: { shapes: 'documented' } }),
      ],
      [
        'POST /api/accounts/{accountId}/users',
        () => ({
          path: { accountId: id },
          body: { email: 'console-invited@example.com' },
          after: (a) => secrets.push(new URL(a.body.link).hash.split('/').pop() as string),
        }),
      ],
      ['POST /api/credentials/{clientId}/revoke', () => ({ path: { clientId } })],
      [
        'POST /api/bank-details/{currencyCode}',
        () => ({
          path: { currencyCode: 'USD' },
          body: { accountHolder: 'Airgift Ltd', accountNumber: 'GB33BUKB20201555555555', bankName: 'Bank' },
        }),
      ],
      [
        'POST /api/funding/transfers/{transferId}/confirm',
        async () => ({ path: { transferId: await announce() } }),
      ],
      [
        'POST /api/funding/transfers/{transferId}/reject',
        async () => ({ path: { transferId: await announce() }, body: { reason: 'never arrived' } }),
      ],
      [
        'POST /api/fx/{currencyCode}',
        () => ({ path: { currencyCode: 'EUR' }, body: { unitsPerUsd: '0.91' } }),
      ],
      [
        'POST /api/products/{productId}/status',
        () => ({ path: { productId: 1840 }, body: { status: 'ACTIVE' } }),
      ],
      [
        'POST /api/topup-operators/{operatorId}/status',
        () => ({ path: { operatorId: 1001 }, body: { status: 'ACTIVE' } }),
      ],
      ...teamSteps('walk-ops-team@example.com', 'support', 'admin'),
      ['POST /api/totp/enrol', () => ({ after: mfa.enrolled })],
      ['POST /api/totp/confirm', () => ({ body: { code: mfa.next() }, after: mfa.recovery })],
      ['POST /api/totp/recovery-codes', () => ({ body: { code: mfa.next() }, after: mfa.recovery })],
      ['POST /api/totp/disable', () => ({ body: { code: mfa.next() } })],
      ['POST /api/sign-out', () => ({})],
    ]);
    assert.ok(actions.has('account.active') && actions.has('session.sign-in') && actions.has('totp.on'));
    server.clock.set(new Date());
  });

  test('every dashboard mutation writes one line naming the user and their account', async () => {
    const customer = await dashboardSession(server, account.accountId, 'walk@example.com');
    const mfa = totp(customer);
    let newcomer = { id: 0, email: 'walk-2@example.com' };
    let clientId = '';
    let endpointId = 0;
    let deliveryId = 0;
    const token = await server.admin.token(account, AUDIENCES.giftcardsSandbox);
    const order = await server.http.post(
      '/giftcards-sandbox/orders',
      { productId: 11, quantity: 1, unitPrice: 10, senderName: 'Walk', recipientEmail: 'friend@example.com' },
      { token, headers: { accept: 'application/com.reloadly.giftcards-v1+json' } },
    );
    assert.equal(order.status, 200, order.text);
    await walk('dashboard', customer, [
      [
        'POST /api/welcome',
        async () => {
          const invited = await server.admin.call('POST', `/accounts/${account.accountId}/users`, {
            email: newcomer.email,
          });
          newcomer = { id: invited.body.userId, email: newcomer.email };
          const invitation = new URL(invited.body.link).hash.split('/').pop() as string;
          secrets.push(invitation);
          return { open: true, body: { token: invitation, password: WEB_PASSWORD }, as: newcomer };
        },
      ],
      [
        'POST /api/sign-in',
        () => ({ open: true, body: { email: newcomer.email, password: WEB_PASSWORD }, as: newcomer }),
      ],
      [
        'POST /api/password-reset',
        () => ({ open: true, body: { email: 'nobody@example.com' }, as: 'anonymous' }),
      ],
      [
        'POST /api/credentials',
        () => ({
          body: { environment: 'sandbox', scopes: ['developer'] },
          after: (a) => {
            clientId = a.body.clientId;
            secrets.push(a.body.clientSecret);
          },
        }),
      ],
      ['POST /api/credentials/{clientId}/revoke', () => ({ path: { clientId } })],
      [
        'POST /api/giftcards/transactions/{transactionId}/codes',
        () => ({
          path: { transactionId: order.body.transactionId },
          query: 'environment=sandbox',
          after: (a) => {
            for (const card of a.body.cards) secrets.push(card.cardNumber, card.pinCode);
          },
        }),
      ],
      [
        'POST /api/giftcards/transactions/{transactionId}/deliveries',
        () => ({ path: { transactionId: order.body.transactionId }, query: 'environment=sandbox', body: {} }),
      ],
      [
        'POST /api/branding',
        () => ({
          body: {
            displayName: 'Walk Ltd',
            logoUrl: null,
            color: '#123456',
            footer: null,
            codeInEmail: false,
          },
        }),
      ],
      ['POST /api/settings', () => ({ body: { shapes: 'documented' } })],
      [
        'POST /api/funding/transfers',
        async () => {
          const bank = {
            accountHolder: 'Airgift Ltd',
            accountNumber: 'GB33BUKB20201555555555',
            bankName: 'Bank',
          };
          await server.admin.call('PUT', '/bank-details/USD', bank);
          return { body: { amount: '99.99', transferDate: server.clock.now().toISOString().slice(0, 10) } };
        },
      ],
      [
        'POST /api/webhooks',
        () => ({
          body: { environment: 'sandbox', url: 'https://hooks.example.com/airgift', events: ['topup.*'] },
          after: (a) => {
            endpointId = a.body.id;
            secrets.push(a.body.secret);
          },
        }),
      ],
      [
        'POST /api/webhooks/{endpointId}/rotate-secret',
        () => ({ path: { endpointId }, after: (a) => secrets.push(a.body.secret) }),
      ],
      [
        'POST /api/webhooks/{endpointId}/test',
        () => ({ path: { endpointId }, after: (a) => (deliveryId = a.body.id) }),
      ],
      ['POST /api/webhooks/deliveries/{deliveryId}/replay', () => ({ path: { deliveryId } })],
      ['POST /api/webhooks/{endpointId}/remove', () => ({ path: { endpointId } })],
      ...teamSteps('walk-team@example.com', 'developer', 'viewer'),
      ['POST /api/totp/enrol', () => ({ after: mfa.enrolled })],
      ['POST /api/totp/confirm', () => ({ body: { code: mfa.next() }, after: mfa.recovery })],
      ['POST /api/totp/recovery-codes', () => ({ body: { code: mfa.next() }, after: mfa.recovery })],
      ['POST /api/totp/disable', () => ({ body: { code: mfa.next() } })],
      ['POST /api/sign-out', () => ({})],
    ]);
    server.clock.set(new Date());
    const reveal = (await server.admin.call('GET', '/audit?action=codes.reveal')).body.items[0];
    assert.equal(reveal.target, `gift card order ${order.body.transactionId} (sandbox)`);
    assert.equal(reveal.after, null, 'never the codes');
  });

  test('no audit line holds a code, a PIN, a secret, a password, an invitation or a TOTP code', async () => {
    const stored = JSON.stringify((await server.admin.call('GET', '/audit?size=1000')).body.items);
    for (const secret of [...secrets, WEB_PASSWORD]) {
      assert.ok(
        secret.length >= 6 && !stored.includes(secret),
        `an audit line holds ${secret.slice(0, 10)}…`,
      );
    }
    assert.equal((await server.admin.call('GET', '/audit/verify')).body.ok, true);
  });
});
