import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { AUDIENCES, type TestAccount } from '../harness/client.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';
import { consoleSession, dashboardSession, type WebSession } from '../harness/web-session.ts';
import { type Operation, operationsOf } from './operations.ts';

/**
 * The authorization matrix of the web pages (the product and admin bases are
 * authorization-matrix.test.ts): every operation the dashboard and the console publish, without a
 * session, with the other page's session and (mutations) without the CSRF token, is refused and
 * changes nothing; and a dashboard user reads their own account's request log only, whatever the
 * request says, while the console reads any account's.
 */
const PUBLIC = new Set(['POST /api/sign-in', 'POST /api/welcome', 'POST /api/password-reset']);

let server: TestServer;
let mine: TestAccount;
let theirs: TestAccount;
let customer: WebSession;
let operator: WebSession;
const pages: Record<'dashboard' | 'console', Operation[]> = { dashboard: [], console: [] };

const SAMPLES: Record<string, string> = {
  clientId: 'ag_test_none',
  transactionId: '1',
  product: 'giftcards',
  endpointId: '1',
  deliveryId: '1',
  accountId: '1',
  productId: '1840',
  operatorId: '1001',
  currencyCode: 'EUR',
  userId: '1',
  environment: 'sandbox',
  entryId: '1',
  transferId: '1',
  month: '2026-11',
};

function urlOf(page: string, op: Operation): string {
  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = SAMPLES[name];
    if (value === undefined) throw new Error(`add a sample for "${name}" (${page} ${op.key})`);
    return value;
  });
  const query = op.requiredQuery.map((name) => {
    const value = SAMPLES[name];
    if (value === undefined)
      throw new Error(`add a sample for the query parameter "${name}" (${page} ${op.key})`);
    return `${name}=${value}`;
  });
  return `/${page}${path}${query.length ? `?${query.join('&')}` : ''}`;
}

/** Requests the account's credential makes, each with a request id naming the account. */
async function traffic(account: TestAccount, tag: string) {
  const token = await server.admin.token(account, AUDIENCES.giftcardsSandbox);
  const headers = { accept: 'application/com.reloadly.giftcards-v1+json', authorization: `Bearer ${token}` };
  for (let i = 0; i < 3; i++) {
    await server.http.get(`/giftcards-sandbox/reports/transactions/${900 + i}`, {
      headers: { ...headers, 'x-request-id': `req-${tag}-${i}` },
    });
  }
}

before(async () => {
  server = await startTestServer({ env: { RATE_LIMIT_API_REQUESTS: '0' } });
  mine = await server.admin.createAccount({ fund: 10 });
  theirs = await server.admin.createAccount({ fund: 10 });
  customer = await dashboardSession(server, mine.accountId, 'mine@example.com');
  operator = await consoleSession(server, 'ops-matrix@example.com');
  for (const page of ['dashboard', 'console'] as const)
    pages[page] = await operationsOf(server.http, `/${page}`, page);
  await traffic(mine, 'mine');
  await traffic(theirs, 'theirs');
  await server.runtime.services.requestLog.flush();
});
after(() => server?.close());

describe('authorization matrix, dashboard and console', () => {
  test("every operation without a session, or with the other page's, is 401; a mutation without the CSRF token 403", async () => {
    const lastAudit = async () => (await server.admin.call('GET', '/audit?size=1')).body.items[0].auditId;
    const before = await lastAudit();
    let cells = 0;
    for (const page of ['dashboard', 'console'] as const) {
      assert.ok(
        pages[page].some(
          (o) => o.key === 'GET /api/requests' || o.key === 'GET /api/accounts/{accountId}/requests',
        ),
      );
      const other = page === 'dashboard' ? operator : customer;
      const own = page === 'dashboard' ? customer : operator;
      for (const op of pages[page].filter((o) => !PUBLIC.has(o.key))) {
        const url = urlOf(page, op);
        const body = op.method === 'GET' ? undefined : {};
        for (const [what, headers] of [
          ['no session', {}],
          ['a forged cookie', { cookie: `airgift_${page}=forged` }],
          ["the other page's session", { cookie: other.cookie, 'x-csrf-token': other.csrfToken }],
        ] as const) {
          const answer = await server.http.call(op.method, url, { headers, body });
          assert.equal(answer.status, 401, `${page} ${op.key}, ${what}: ${answer.text.slice(0, 200)}`);
          cells++;
        }
        if (op.method !== 'GET') {
          const answer = await server.http.call(op.method, url, { headers: { cookie: own.cookie }, body });
          assert.equal(answer.status, 403, `${page} ${op.key} without the CSRF token`);
          cells++;
        }
      }
    }
    assert.ok(cells >= 100, `${cells} cells`);
    assert.equal(await lastAudit(), before, 'nothing refused was changed, so nothing was audited');
  });

  test("a dashboard user never sees another account's request log, whatever the request names", async () => {
    for (const query of [
      'environment=sandbox&size=200',
      `environment=sandbox&accountId=${theirs.accountId}`,
      `environment=sandbox&clientId=${theirs.clientId}`,
      'environment=sandbox&path=reports',
    ]) {
      const answer = await customer.get(`/api/requests?${query}`);
      assert.equal(answer.status, 200, `${query}: ${answer.text}`);
      const ids = answer.body.items.map((r: { requestId: string }) => r.requestId);
      assert.ok(!ids.some((id: string) => id.startsWith('req-theirs')), `${query} shows the other account's`);
      assert.ok(!answer.text.includes(theirs.clientId), `${query} names the other account's client`);
      if (!query.includes('clientId')) assert.ok(ids.includes('req-mine-0'), `${query} shows the user's own`);
    }
    // the other account's own user sees theirs, and only theirs
    const them = await dashboardSession(server, theirs.accountId, 'theirs@example.com');
    const own = (await them.get('/api/requests?environment=sandbox&size=200')).body.items;
    assert.ok(own.length >= 3 && own.every((r: { clientId: string }) => r.clientId === theirs.clientId));
  });

  test("the console reads any account's request log; a dashboard session cannot", async () => {
    const read = await operator.get(`/api/accounts/${theirs.accountId}/requests?environment=sandbox`);
    assert.equal(read.status, 200);
    assert.ok(read.body.items.some((r: { requestId: string }) => r.requestId === 'req-theirs-0'));
    assert.ok(!read.body.items.some((r: { requestId: string }) => r.requestId.startsWith('req-mine')));
    const refused = await server.http.get(
      `/console/api/accounts/${theirs.accountId}/requests?environment=sandbox`,
      {
        headers: { cookie: customer.cookie },
      },
    );
    assert.equal(refused.status, 401);
  });
});
