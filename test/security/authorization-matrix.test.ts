import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SignJWT } from 'jose';
import { ALL_SCOPES } from '../../src/modules/auth/scopes.ts';
import { ADMIN_KEY, AUDIENCES, type TestAccount } from '../harness/client.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';
import { type Operation, operationsOf, PRODUCT_ACCEPT } from './operations.ts';
import { BODIES, ngPhone, SAMPLES } from './samples.ts';

/**
 * The authorization matrix: every operation of every product base's published OpenAPI document (so a
 * new route is covered without editing this file) against every way a caller can be wrong about who
 * it is, plus every admin operation without the admin key. Every answer goes through the harness's
 * contract checker too, so each status is one the document describes. Another account's ids are
 * never found (404, not 403) and no answer to one account ever carries another account's data.
 */
const PRODUCTS = [
  {
    kind: 'giftcards',
    sandbox: '/giftcards-sandbox',
    live: '/giftcards',
    audience: AUDIENCES.giftcardsSandbox,
  },
  { kind: 'topups', sandbox: '/topups-sandbox', live: '/topups', audience: AUDIENCES.topupsSandbox },
] as const;

/** Operations that move money: refused with 403 INACTIVE_ACCOUNT for a deactivated account (docs/decisions.md). */
/** Refused for a deactivated account: orders move money, a resend sends a message. */
const MONEY_MOVING = new Set([
  'POST /orders',
  'POST /topups',
  'POST /orders/transactions/{transactionId}/deliveries',
]);

interface Caller {
  account: TestAccount;
  tokens: Record<string, string>;
  /** Own transaction id per product. */
  transactions: Record<string, number>;
  customIdentifiers: string[];
}

let server: TestServer;
let ops: Operation[];
let adminOps: Operation[];
let mine: Caller;
let other: Caller;
/** Strings only the other account's answers may carry: its custom identifiers, card numbers and PINs. */
const otherSecrets: string[] = [];

function urlOf(op: Operation, base: string, transactionId?: number): string {
  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (name === 'transactionId' && transactionId !== undefined) return String(transactionId);
    const value = SAMPLES[name];
    if (value === undefined)
      throw new Error(`add a sample value for the path parameter "${name}" (${op.key})`);
    return encodeURIComponent(value);
  });
  const query = op.requiredQuery.map((name) => {
    const value = SAMPLES[name];
    if (value === undefined)
      throw new Error(`add a sample value for the query parameter "${name}" (${op.key})`);
    return `${name}=${encodeURIComponent(value)}`;
  });
  return `${base}${path}${query.length ? `?${query.join('&')}` : ''}`;
}

async function call(op: Operation, base: string, authorization: string | undefined, transactionId?: number) {
  const headers: Record<string, string> = { ...PRODUCT_ACCEPT[op.kind] };
  if (authorization !== undefined) headers.authorization = authorization;
  const body = op.hasBody ? (BODIES[`${op.kind} ${op.key}`]?.() ?? {}) : undefined;
  return server.http.call(op.method, urlOf(op, base, transactionId), { headers, body });
}

async function callerWith(scopes?: string[]): Promise<Caller> {
  const account = await server.admin.createAccount({ fund: 1000, ...(scopes ? { scopes } : {}) });
  const tokens: Record<string, string> = {};
  for (const p of PRODUCTS) {
    const answer = await server.http.post('/auth/oauth/token', {
      client_id: account.clientId,
      client_secret: account.clientSecret,
      grant_type: 'client_credentials',
      audience: p.audience,
    });
    // A credential with no scope of a product gets no token for it at all (400 invalid_scope).
    if (answer.status === 400 && answer.body.error === 'invalid_scope' && scopes) continue;
    assert.equal(answer.status, 200, answer.text);
    tokens[p.kind] = answer.body.access_token;
  }
  return { account, tokens, transactions: {}, customIdentifiers: [] };
}

async function placeOrders(caller: Caller, tag: string) {
  const bearer = (kind: string) => ({
    ...PRODUCT_ACCEPT[kind],
    authorization: `Bearer ${caller.tokens[kind]}`,
  });
  const order = await server.http.post(
    '/giftcards-sandbox/orders',
    {
      productId: 11,
      quantity: 1,
      unitPrice: 10,
      senderName: 'Ada',
      customIdentifier: `gc-${tag}`,
      // a recipient, so the order's deliveries can be resent (issue 26)
      recipientEmail: `recipient-${tag}@example.org`,
    },
    { headers: bearer('giftcards') },
  );
  assert.equal(order.status, 200, order.text);
  caller.transactions.giftcards = order.body.transactionId;
  const topup = await server.http.post(
    '/topups-sandbox/topups',
    { operatorId: 1001, amount: 10, recipientPhone: ngPhone(), customIdentifier: `tu-${tag}` },
    { headers: bearer('topups') },
  );
  assert.equal(topup.status, 200, topup.text);
  caller.transactions.topups = topup.body.transactionId;
  caller.customIdentifiers.push(`gc-${tag}`, `tu-${tag}`);
}

async function forge(claims: Record<string, unknown>, key: string, expiresAt: number) {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(server.config.authUrl)
    .setSubject(mine.account.clientId)
    .setIssuedAt(expiresAt - 3600)
    .setExpirationTime(expiresAt)
    .sign(new TextEncoder().encode(key));
}

before(async () => {
  server = await startTestServer({
    env: { RATE_LIMIT_API_REQUESTS: '0', RATE_LIMIT_TOKEN_REQUESTS: '0', RATE_LIMIT_ADMIN_FAILURES: '0' },
  });
  ops = [];
  for (const p of PRODUCTS) ops.push(...(await operationsOf(server.http, p.sandbox, p.kind)));
  adminOps = await operationsOf(server.http, '/admin', 'admin');
  mine = await callerWith();
  other = await callerWith();
  await placeOrders(mine, 'mine');
  await placeOrders(other, 'theirs');
  otherSecrets.push(...other.customIdentifiers);
  const cards = await server.http.get(
    `/giftcards-sandbox/orders/transactions/${other.transactions.giftcards}/cards`,
    {
      headers: { ...PRODUCT_ACCEPT.giftcards, authorization: `Bearer ${other.tokens.giftcards}` },
    },
  );
  assert.equal(cards.status, 200, cards.text);
  for (const card of cards.body)
    otherSecrets.push(...[card.cardNumber, card.pinCode].map(String).filter((s) => s.length >= 6));
  assert.ok(otherSecrets.length >= 3);
});
after(() => server?.close());

function assertError(
  answer: { status: number; body: any; text: string },
  status: number,
  code: string,
  what: string,
) {
  assert.equal(answer.status, status, `${what}: ${answer.text.slice(0, 300)}`);
  assert.equal(answer.body.errorCode, code, what);
  for (const secret of otherSecrets) assert.ok(!answer.text.includes(secret), `${what} leaks ${secret}`);
}

describe('authorization matrix, product bases', () => {
  test('the matrix covers every published operation of both products', () => {
    assert.ok(ops.filter((o) => o.kind === 'giftcards').length >= 17);
    assert.ok(ops.filter((o) => o.kind === 'topups').length >= 19);
    assert.ok(
      ops.every((o) => o.scope),
      'every product operation names its scope',
    );
  });

  test('no token, malformed tokens, forged, expired, and tokens of another base or environment -> 401', async () => {
    const now = Math.floor(server.clock.now().getTime() / 1000);
    const liveAccount = await server.admin.createAccount({ environment: 'live', fund: 10 });
    let cells = 0;
    for (const p of PRODUCTS) {
      const claims = {
        scope: ALL_SCOPES.join(' '),
        acc: mine.account.accountId,
        env: 'sandbox',
        aud: p.audience,
      };
      const expired = await forge(claims, server.config.tokenSigningKey as string, now - 10);
      const otherKey = await forge(claims, 'another-signing-key-0123456789abcdef0123', now + 3600);
      const noneAlg = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from(JSON.stringify({ ...claims, sub: mine.account.clientId, exp: now + 3600 })).toString('base64url')}.`;
      const otherProduct = PRODUCTS.find((q) => q.kind !== p.kind) as (typeof PRODUCTS)[number];
      const liveToken = await server.admin.token(
        liveAccount,
        p.kind === 'giftcards' ? AUDIENCES.giftcardsLive : AUDIENCES.topupsLive,
      );
      const cases: [string, string | undefined, string, string][] = [
        ['no token', undefined, 'AUTHENTICATION_FAILURE', p.sandbox],
        ['empty bearer', 'Bearer ', 'AUTHENTICATION_FAILURE', p.sandbox],
        ['not a JWT', 'Bearer not-a-token', 'AUTHENTICATION_FAILURE', p.sandbox],
        [
          'basic scheme',
          `Basic ${Buffer.from(`${mine.account.clientId}:${mine.account.clientSecret}`).toString('base64')}`,
          'AUTHENTICATION_FAILURE',
          p.sandbox,
        ],
        [
          'client secret as bearer',
          `Bearer ${mine.account.clientSecret}`,
          'AUTHENTICATION_FAILURE',
          p.sandbox,
        ],
        ['tampered signature', `Bearer ${mine.tokens[p.kind]}x`, 'AUTHENTICATION_FAILURE', p.sandbox],
        ['alg none', `Bearer ${noneAlg}`, 'AUTHENTICATION_FAILURE', p.sandbox],
        ['expired', `Bearer ${expired}`, 'TOKEN_EXPIRED', p.sandbox],
        ['signed with another key', `Bearer ${otherKey}`, 'AUTHENTICATION_FAILURE', p.sandbox],
        [
          "other product's token",
          `Bearer ${mine.tokens[otherProduct.kind]}`,
          'AUTHENTICATION_FAILURE',
          p.sandbox,
        ],
        ['live token on the sandbox base', `Bearer ${liveToken}`, 'AUTHENTICATION_FAILURE', p.sandbox],
        ['sandbox token on the live base', `Bearer ${mine.tokens[p.kind]}`, 'AUTHENTICATION_FAILURE', p.live],
        ['no token on the live base', undefined, 'AUTHENTICATION_FAILURE', p.live],
      ];
      for (const op of ops.filter((o) => o.kind === p.kind)) {
        for (const [what, authorization, code, base] of cases) {
          const answer = await call(op, base, authorization, mine.transactions[p.kind]);
          assertError(answer, 401, code, `${base} ${op.key}, ${what}`);
          cells++;
        }
      }
    }
    assert.ok(cells >= 36 * 13);
  });

  test('a revoked credential: its tokens -> 401, and it gets no new token', async () => {
    const created = await server.admin.call('POST', `/accounts/${mine.account.accountId}/credentials`, {
      environment: 'sandbox',
    });
    assert.equal(created.status, 200, created.text);
    const credential = { clientId: created.body.clientId, clientSecret: created.body.clientSecret };
    const tokens: Record<string, string> = {};
    for (const p of PRODUCTS) tokens[p.kind] = await server.admin.token(credential, p.audience);
    const works = await server.http.get('/giftcards-sandbox/accounts/balance', {
      headers: { ...PRODUCT_ACCEPT.giftcards, authorization: `Bearer ${tokens.giftcards}` },
    });
    assert.equal(works.status, 200);
    assert.equal((await server.admin.call('POST', `/credentials/${credential.clientId}/revoke`)).status, 200);
    for (const p of PRODUCTS) {
      for (const op of ops.filter((o) => o.kind === p.kind)) {
        const answer = await call(op, p.sandbox, `Bearer ${tokens[p.kind]}`, mine.transactions[p.kind]);
        assertError(answer, 401, 'AUTHENTICATION_FAILURE', `${op.key}, revoked credential`);
      }
    }
    const refused = await server.http.post('/auth/oauth/token', {
      ...{ client_id: credential.clientId, client_secret: credential.clientSecret },
      grant_type: 'client_credentials',
      audience: AUDIENCES.giftcardsSandbox,
    });
    assert.equal(refused.status, 401);
    assert.equal(refused.body.error, 'invalid_client');
  });

  test('a token without the scope an operation names -> 403 NOT_AUTHORIZED', async () => {
    const scopes = [...new Set(ops.map((o) => o.scope as string))];
    for (const scope of scopes) {
      const narrow = await callerWith(ALL_SCOPES.filter((s) => s !== scope));
      for (const op of ops.filter((o) => o.scope === scope)) {
        // without its product's only scope, the credential was refused a token: stricter than a 403
        if (narrow.tokens[op.kind] === undefined) continue;
        const base = PRODUCTS.find((p) => p.kind === op.kind)?.sandbox as string;
        const answer = await call(op, base, `Bearer ${narrow.tokens[op.kind]}`, mine.transactions[op.kind]);
        assertError(answer, 403, 'NOT_AUTHORIZED', `${op.key} without ${scope}`);
      }
    }
  });

  test("another account's transactions, cards and top-ups -> 404; lists and answers never carry its data", async () => {
    let byId = 0;
    for (const p of PRODUCTS) {
      for (const op of ops.filter((o) => o.kind === p.kind && o.path.includes('{transactionId}'))) {
        const answer = await call(op, p.sandbox, `Bearer ${mine.tokens[p.kind]}`, other.transactions[p.kind]);
        assertError(answer, 404, 'RESOURCE_NOT_FOUND', `${op.key} with another account's id`);
        const own = await call(op, p.sandbox, `Bearer ${other.tokens[p.kind]}`, other.transactions[p.kind]);
        assert.equal(own.status, 200, `${op.key} for its owner`);
        byId++;
      }
      for (const op of ops.filter(
        (o) => o.kind === p.kind && o.method === 'GET' && o.path.endsWith('/reports/transactions'),
      )) {
        for (const id of other.customIdentifiers) {
          const answer = await server.http.get(`${p.sandbox}${op.path}?customIdentifier=${id}`, {
            headers: { ...PRODUCT_ACCEPT[p.kind], authorization: `Bearer ${mine.tokens[p.kind]}` },
          });
          assert.equal(answer.status, 200);
          const rows = Array.isArray(answer.body) ? answer.body : answer.body.content;
          assert.equal(rows.length, 0, `${op.key} filtered by another account's customIdentifier`);
        }
      }
    }
    assert.ok(byId >= 3, 'gift card reports and cards, top-up reports');
  });

  test("every operation answers the caller's own data; then, deactivated, it reads the same and moves no money", async () => {
    const active = new Map<string, number>();
    for (const p of PRODUCTS) {
      for (const op of ops.filter((o) => o.kind === p.kind)) {
        const answer = await call(op, p.sandbox, `Bearer ${mine.tokens[p.kind]}`, mine.transactions[p.kind]);
        assert.ok(answer.status < 500, `${op.key}: ${answer.text}`);
        for (const secret of otherSecrets)
          assert.ok(!answer.text.includes(secret), `${op.key} leaks ${secret}`);
        if (op.method === 'GET' && !op.path.includes('{promotionId}'))
          assert.equal(
            answer.status,
            200,
            `${op.key} with its own ids and samples: ${answer.text.slice(0, 300)}`,
          );
        active.set(`${p.kind} ${op.key}`, answer.status);
      }
    }
    const balance = async () =>
      (await server.admin.call('GET', `/accounts/${mine.account.accountId}`)).body.balances.sandbox.balance;
    assert.equal(
      (await server.admin.call('POST', `/accounts/${mine.account.accountId}/deactivate`)).status,
      200,
    );
    const before = await balance();
    for (const p of PRODUCTS) {
      for (const op of ops.filter((o) => o.kind === p.kind)) {
        const answer = await call(op, p.sandbox, `Bearer ${mine.tokens[p.kind]}`, mine.transactions[p.kind]);
        if (MONEY_MOVING.has(op.key)) assertError(answer, 403, 'INACTIVE_ACCOUNT', `${op.key}, deactivated`);
        else
          assert.equal(
            answer.status,
            active.get(`${p.kind} ${op.key}`),
            `${op.key}, deactivated: ${answer.text.slice(0, 300)}`,
          );
      }
    }
    assert.equal(await balance(), before, 'a deactivated account moved no money');
    assert.equal(
      (await server.admin.call('POST', `/accounts/${mine.account.accountId}/activate`)).status,
      200,
    );
  });
});

describe('authorization matrix, admin base', () => {
  test('every admin operation without the admin key, with a wrong one or with a product token -> 401, and changes nothing', async () => {
    assert.ok(adminOps.length >= 20);
    const before = await server.admin.call('GET', `/accounts/${mine.account.accountId}`);
    const accountsBefore = await server.runtime.services.accounts.count();
    const cases: [string, Record<string, string>][] = [
      ['no key', {}],
      ['wrong bearer', { authorization: `Bearer ${ADMIN_KEY}x` }],
      ['wrong X-Admin-Key', { 'x-admin-key': ADMIN_KEY.slice(0, -1) }],
      ['key prefix', { authorization: `Bearer ${ADMIN_KEY.slice(0, 8)}` }],
      ['a product token', { authorization: `Bearer ${mine.tokens.giftcards}` }],
      ['a client secret', { authorization: `Bearer ${mine.account.clientSecret}` }],
      ['basic scheme', { authorization: `Basic ${Buffer.from(`admin:${ADMIN_KEY}`).toString('base64')}` }],
    ];
    const samples: Record<string, string> = {
      accountId: String(mine.account.accountId),
      clientId: mine.account.clientId,
      productId: '1840',
      operatorId: '1001',
      currencyCode: 'EUR',
      product: 'giftcards',
      endpointId: '1',
      deliveryId: '1',
      transferId: '1',
    };
    for (const op of adminOps) {
      const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
        const value = samples[name];
        if (value === undefined) throw new Error(`add an admin sample for "${name}" (${op.key})`);
        return value;
      });
      for (const [what, headers] of cases) {
        const answer = await server.http.call(op.method, `/admin${path}`, {
          headers,
          body: op.hasBody ? { environment: 'sandbox', amount: 5, reason: 'x', name: 'x' } : undefined,
        });
        assertError(answer, 401, 'AUTHENTICATION_FAILURE', `admin ${op.key}, ${what}`);
      }
    }
    const after = await server.admin.call('GET', `/accounts/${mine.account.accountId}`);
    assert.deepEqual(after.body, before.body);
    assert.equal(await server.runtime.services.accounts.count(), accountsBefore);
    const token = await server.admin.token(mine.account, AUDIENCES.giftcardsSandbox);
    assert.ok(token, 'the credential was not revoked');
  });
});
