import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { ADMIN_KEY, AUDIENCES, startTestServer, type TestServer } from '../harness/server.ts';
import { CACHE_DIR } from '../harness/templates.ts';

/**
 * Dashboard users, operators and sessions without a browser (the browser suite is dashboard.test.ts):
 * the CLI's invitations, the password rules, the invitation's and the session's lifetimes, the
 * lock-out window, the audit log, credentials' last use, and the pages' OpenAPI documents.
 */
const run = promisify(execFile);
const BIN = join(import.meta.dirname, '..', '..', 'bin', 'airgift.mjs');

describe('dashboard users and sessions', () => {
  let server: TestServer;
  let airgift: (...args: string[]) => Promise<any>;
  let account: { accountId: number; clientId: string; clientSecret: string };

  before(async () => {
    server = await startTestServer();
    const env = {
      ...process.env,
      AIRGIFT_URL: server.url,
      AIRGIFT_ADMIN_KEY: ADMIN_KEY,
      AIRGIFT_CA_FILE: join(CACHE_DIR, 'tls', 'ca.crt'),
    };
    airgift = async (...args) =>
      JSON.parse((await run(process.execPath, [BIN, ...args, '--json'], { env })).stdout);
    account = await server.admin.createAccount({ environment: 'sandbox', fund: 100 });
  });
  after(() => server.close());

  /** The admin API's invitation, without the CLI's process start (the first test runs the CLI). */
  const invite = async (accountId: number, email: string) => {
    const answer = await server.admin.call('POST', `/accounts/${accountId}/users`, { email });
    if (answer.status !== 200) throw new Error(`${answer.status} ${answer.text}`);
    return answer.body;
  };
  const tokenOf = (link: string) => new URL(link).hash.split('/').pop() as string;
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    server.http.post(path, body, { headers });
  const signIn = async (email: string, password: string, page = '/dashboard') => {
    const answer = await post(`${page}/api/sign-in`, { email, password });
    const cookie = String(answer.headers['set-cookie'] ?? '').split(';')[0];
    return { answer, cookie };
  };

  test('users invite --json prints a one-time link valid 72 hours; the password needs 12 characters', async () => {
    const invited = await airgift(
      'users',
      'invite',
      '--account',
      String(account.accountId),
      '--email',
      'a@example.com',
    );
    assert.equal(invited.accountId, account.accountId);
    assert.equal(invited.active, false);
    assert.match(invited.link, /^https:\/\/localhost\/dashboard\/#\/welcome\/[\w-]{40,}$/);
    const hours = (Date.parse(`${invited.expiresAt}Z`) - server.clock.now().getTime()) / 3_600_000;
    assert.ok(hours > 71.9 && hours <= 72, `valid ${hours} h`);
    const short = await post('/dashboard/api/welcome', {
      token: tokenOf(invited.link),
      password: '11 letters!',
    });
    assert.equal(short.status, 400);
    const set = await post('/dashboard/api/welcome', {
      token: tokenOf(invited.link),
      password: '12 letters!!',
    });
    assert.equal(set.status, 200);
    assert.equal(set.body.active, true);
    const again = await post('/dashboard/api/welcome', {
      token: tokenOf(invited.link),
      password: 'another one!!',
    });
    assert.equal(again.status, 404, 'the link works once');
    const { answer, cookie } = await signIn('A@example.com', '12 letters!!');
    assert.equal(answer.status, 200);
    assert.equal(answer.body.accountId, account.accountId);
    assert.match(
      String(answer.headers['set-cookie']),
      /; Path=\/dashboard; Expires=.*; Secure; HttpOnly; SameSite=Lax$/,
    );
    const listed = await airgift('users', 'list', '--account', String(account.accountId));
    assert.deepEqual(
      listed.items.map((u: { email: string; active: boolean }) => [u.email, u.active]),
      [['a@example.com', true]],
    );
    assert.equal((await server.http.get('/dashboard/api/session', { headers: { cookie } })).status, 200);
  });

  test('an invitation expires after 72 hours; a session after WEB_SESSION_HOURS (12)', async () => {
    const invited = await invite(account.accountId, 'b@example.com');
    const first = await invite(account.accountId, 'c@example.com');
    await post('/dashboard/api/welcome', { token: tokenOf(first.link), password: 'c passphrase!' });
    const { cookie } = await signIn('c@example.com', 'c passphrase!');
    server.clock.advance(12 * 3_600_000 + 1000);
    try {
      assert.equal((await server.http.get('/dashboard/api/session', { headers: { cookie } })).status, 401);
      server.clock.advance(60 * 3_600_000);
      const late = await post('/dashboard/api/welcome', {
        token: tokenOf(invited.link),
        password: 'b passphrase!',
      });
      assert.equal(late.status, 404);
    } finally {
      server.clock.set(new Date());
    }
  });

  test('one e-mail is a user of one account only', async () => {
    const other = await server.admin.createAccount({ environment: 'sandbox' });
    await assert.rejects(invite(other.accountId, 'a@example.com'), /another account/);
  });

  test('the lock-out ends when its window (WEB_LOCKOUT_MINUTES) has passed', async () => {
    for (let i = 0; i < 5; i++)
      assert.equal((await signIn('a@example.com', 'wrong password!')).answer.status, 401);
    assert.equal((await signIn('a@example.com', '12 letters!!')).answer.status, 429);
    server.clock.advance(15 * 60_000 + 1000);
    try {
      assert.equal((await signIn('a@example.com', '12 letters!!')).answer.status, 200);
    } finally {
      server.clock.set(new Date());
    }
  });

  test('operators create --json, a console session, and the audit log of its changes (audit --json)', async () => {
    const invited = await airgift('operators', 'create', '--email', 'ops@example.com');
    assert.equal(invited.kind, 'operator');
    assert.match(invited.link, /^https:\/\/localhost\/console\/#\/welcome\//);
    await post('/console/api/welcome', { token: tokenOf(invited.link), password: 'ops passphrase' });
    assert.equal(
      (await signIn('ops@example.com', 'ops passphrase')).answer.status,
      401,
      'not a dashboard user',
    );
    const { answer, cookie } = await signIn('ops@example.com', 'ops passphrase', '/console');
    assert.equal(answer.status, 200);
    const headers = { cookie, 'x-csrf-token': answer.body.csrfToken };
    const limits = await post(
      `/console/api/accounts/${account.accountId}/limits`,
      { dailyCountLimit: 7, dailyAmountLimit: '250.5' },
      headers,
    );
    assert.equal(limits.status, 200, limits.text);
    assert.equal(limits.body.dailyCountLimit, 7);
    const refused = await post(
      `/console/api/accounts/${account.accountId}/status`,
      { status: 'INACTIVE' },
      { cookie },
    );
    assert.equal(refused.status, 403, 'no CSRF token, no change');
    const off = await post(
      `/console/api/accounts/${account.accountId}/status`,
      { status: 'INACTIVE' },
      headers,
    );
    assert.equal(off.body.status, 'INACTIVE');
    const audit = await airgift('audit');
    assert.deepEqual(
      audit.items.slice(0, 3).map((e: { actor: string; action: string }) => [e.actor, e.action]),
      [
        ['ops@example.com', 'account.inactive'],
        ['ops@example.com', 'account.limits'],
        ['admin key', 'operator.create'],
      ],
    );
    assert.deepEqual(audit.items[1].details, { dailyCountLimit: 7, dailyAmountLimit: '250.5' });
    await post(`/console/api/accounts/${account.accountId}/status`, { status: 'ACTIVE' }, headers);
    // the FX table, through the same service as PUT /admin/fx-rates, recorded too
    const rate = await post('/console/api/fx/EUR', { unitsPerUsd: '0.9215' }, headers);
    assert.equal(rate.status, 200, rate.text);
    const table = await server.http.get('/admin/fx-rates', {
      headers: { authorization: `Bearer ${ADMIN_KEY}` },
    });
    assert.equal(
      table.body.rates.find((r: { currencyCode: string }) => r.currencyCode === 'EUR').unitsPerUsd,
      0.9215,
    );
    const last = (await server.admin.call('GET', '/audit')).body.items[0];
    assert.deepEqual(
      [last.actor, last.action, last.target, last.details],
      ['ops@example.com', 'fx.set', 'EUR', { unitsPerUsd: '0.9215' }],
    );
  });

  test("a credential's last use is the last token issued for it", async () => {
    const invited = await invite(account.accountId, 'd@example.com');
    await post('/dashboard/api/welcome', { token: tokenOf(invited.link), password: 'd passphrase!' });
    const { cookie } = await signIn('d@example.com', 'd passphrase!');
    const before = await server.http.get('/dashboard/api/credentials', { headers: { cookie } });
    await server.admin.token(account, AUDIENCES.giftcardsSandbox);
    const afterToken = await server.http.get('/dashboard/api/credentials', { headers: { cookie } });
    const find = (list: { items: { clientId: string; lastUsedAt: string | null }[] }) =>
      list.items.find((c) => c.clientId === account.clientId);
    assert.ok(find(afterToken.body)?.lastUsedAt);
    assert.notEqual(find(afterToken.body)?.lastUsedAt, find(before.body)?.lastUsedAt ?? 'x');
  });

  test('the dashboard and the console publish OpenAPI documents of their JSON endpoints', async () => {
    const dashboard = (await server.http.get('/dashboard/openapi.json')).body;
    assert.equal(dashboard.servers[0].url, 'https://localhost/dashboard');
    for (const path of [
      '/api/overview',
      '/api/credentials',
      '/api/transactions',
      '/api/transactions.csv',
      '/api/ledger',
      '/api/sign-in',
    ])
      assert.ok(dashboard.paths[path], `${path} documented`);
    assert.ok(dashboard.paths['/api/giftcards/transactions/{transactionId}/codes'].post);
    const consoleDoc = (await server.http.get('/console/openapi.json')).body;
    for (const path of [
      '/api/accounts',
      '/api/accounts/{accountId}/fund',
      '/api/audit',
      '/api/chart',
      '/api/stock',
      '/api/upstreams',
    ])
      assert.ok(consoleDoc.paths[path], `${path} documented`);
    const docs = await server.http.get('/dashboard/docs');
    // the same reference page as the product bases, over the dashboard's document
    assert.equal(docs.status, 200);
    assert.match(docs.text, /airgift account dashboard[^<]*API reference/);
    assert.match(docs.text, /data-document="\/dashboard\/openapi.json"/);
  });
});
