import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { Decimal } from 'decimal.js';
import { base32Decode, stepAt, totpCode } from '../../src/lib/totp.ts';
import { adminKeyId } from '../../src/modules/admin/index.ts';
import { ADMIN_KEY, AUDIENCES, CA_FILE } from '../harness/client.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';

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
      AIRGIFT_CA_FILE: CA_FILE,
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

  test("an invited address follows airgift's one e-mail rule (lib/email.ts), as a gift card recipient's", async () => {
    for (const email of ['ops@localhost', `${'a'.repeat(65)}@example.com`, 'a@example..com']) {
      const refused = await server.admin.call('POST', `/accounts/${account.accountId}/users`, { email });
      assert.equal(refused.status, 400, email);
      assert.equal(refused.body.errorCode, 'INVALID_REQUEST');
      assert.deepEqual(refused.body.details, [{ field: 'email', issue: 'expected name@domain' }]);
      const operator = await server.admin.call('POST', '/operators', { email });
      assert.equal(operator.status, 400, email);
    }
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
      audit.items.slice(0, 5).map((e: { actor: string; action: string }) => [e.actor, e.action]),
      [
        ['ops@example.com', 'account.inactive'],
        ['ops@example.com', 'account.limits'],
        ['ops@example.com', 'session.sign-in'],
        ['ops@example.com', 'user.accept-invitation'],
        [`admin key ${adminKeyId(ADMIN_KEY)}`, 'operator.create'],
      ],
    );
    assert.deepEqual(audit.items[1].details, { dailyCountLimit: 7, dailyAmountLimit: '250.5' });
    assert.equal(audit.items[1].before.dailyCountLimit, null, 'the limits before');
    assert.equal(audit.items[1].after.dailyCountLimit, 7);
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

  test('TOTP: enrol, confirm, sign-in asks for the code, a code is used once, wrong codes lock out, off', async () => {
    const invited = await invite(account.accountId, 'totp@example.com');
    await post('/dashboard/api/welcome', { token: tokenOf(invited.link), password: 'totp passphrase' });
    const first = await signIn('totp@example.com', 'totp passphrase');
    assert.equal(first.answer.body.totpEnabled, false);
    const headers = { cookie: first.cookie, 'x-csrf-token': first.answer.body.csrfToken };
    const enrolled = await post('/dashboard/api/totp/enrol', {}, headers);
    assert.equal(enrolled.status, 200, enrolled.text);
    assert.match(enrolled.body.secret, /^[A-Z2-7]{32}$/);
    const uri = new URL(enrolled.body.uri);
    assert.equal(uri.searchParams.get('secret'), enrolled.body.secret);
    const secret = base32Decode(enrolled.body.secret);
    const stored = await server.db.kysely
      .withTables<{ web_users: { email: string; totp_secret: string | null } }>()
      .selectFrom('web_users')
      .select('totp_secret')
      .where('email', '=', 'totp@example.com')
      .executeTakeFirstOrThrow();
    assert.ok(stored.totp_secret && !stored.totp_secret.includes(enrolled.body.secret), 'sealed at rest');
    const now = () => server.clock.now().getTime();
    const codeAt = (step: number) => totpCode(secret, step);
    // still off until confirmed: sign-in needs no code
    assert.equal((await signIn('totp@example.com', 'totp passphrase')).answer.status, 200);
    const wrong = await post('/dashboard/api/totp/confirm', { code: codeAt(stepAt(now()) + 5) }, headers);
    assert.equal(wrong.status, 400);
    const step = stepAt(now());
    const confirmed = await post('/dashboard/api/totp/confirm', { code: codeAt(step) }, headers);
    assert.deepEqual(
      [confirmed.status, confirmed.body.totpEnabled, confirmed.body.recoveryCodesLeft],
      [200, true, 10],
    );

    const asked = await signIn('totp@example.com', 'totp passphrase');
    assert.equal(asked.answer.status, 401);
    assert.deepEqual(asked.answer.body.details, [{ field: 'code', issue: 'required' }]);
    const send = (code: string) =>
      post('/dashboard/api/sign-in', { email: 'totp@example.com', password: 'totp passphrase', code });
    assert.equal((await send(codeAt(step))).status, 401, 'the code used to confirm is not taken again');
    const next = await send(codeAt(step + 1));
    assert.equal(next.status, 200, next.text);
    assert.equal(next.body.totpEnabled, true);
    assert.equal((await send(codeAt(step + 1))).status, 401, 'nor twice on sign-in');
    // wrong codes count toward the lock-out: with the replay above, five failures lock the e-mail
    const wrongCode = (i: number) => {
      const code = String(100000 + i * 111111).slice(0, 6);
      return [step, step + 1, step + 2].some((x) => codeAt(x) === code) ? '000000' : code;
    };
    for (let i = 1; i < 5; i++) assert.equal((await send(wrongCode(i))).status, 401);
    assert.equal((await send(codeAt(step + 2))).status, 429, 'locked, even with a right code');
    server.clock.advance(15 * 60_000 + 1000);
    try {
      const later = stepAt(now());
      const session = await send(codeAt(later));
      assert.equal(session.status, 200, session.text);
      const cookie = String(session.headers['set-cookie']).split(';')[0];
      const h2 = { cookie, 'x-csrf-token': session.body.csrfToken };
      assert.equal((await post('/dashboard/api/totp/enrol', {}, h2)).status, 400, 'on already');
      assert.equal((await post('/dashboard/api/totp/disable', { code: codeAt(later) }, h2)).status, 400);
      // one code sent twice at once: exactly one sign-in gets through
      const pair = await Promise.all([send(codeAt(later + 1)), send(codeAt(later + 1))]);
      assert.deepEqual(pair.map((a) => a.status).sort(), [200, 401]);
      server.clock.advance(30_000);
      const off = await post('/dashboard/api/totp/disable', { code: codeAt(later + 2) }, h2);
      assert.deepEqual([off.status, off.body], [200, { totpEnabled: false, recoveryCodesLeft: 0 }]);
      assert.equal((await signIn('totp@example.com', 'totp passphrase')).answer.status, 200);
    } finally {
      server.clock.set(new Date());
    }
  });

  test('console: top-up operators listed with their status, deactivated and activated, audited', async () => {
    const { answer, cookie } = await signIn('ops@example.com', 'ops passphrase', '/console');
    const headers = { cookie, 'x-csrf-token': answer.body.csrfToken };
    const list = await server.http.get('/console/api/topup-operators?search=1001', { headers: { cookie } });
    assert.deepEqual(
      list.body.items.map((o: { operatorId: number; status: string }) => [o.operatorId, o.status]),
      [[1001, 'ACTIVE']],
    );
    const off = await post('/console/api/topup-operators/1001/status', { status: 'INACTIVE' }, headers);
    assert.deepEqual(off.body, { operatorId: 1001, status: 'INACTIVE' });
    const token = await server.admin.token(account, AUDIENCES.topupsSandbox);
    const read = () => server.http.get('/topups-sandbox/operators/1001', { token });
    assert.equal((await read()).status, 404);
    const again = await server.http.get('/console/api/topup-operators?search=1001', { headers: { cookie } });
    assert.equal(again.body.items[0].status, 'INACTIVE');
    await post('/console/api/topup-operators/1001/status', { status: 'ACTIVE' }, headers);
    assert.equal((await read()).status, 200);
    const unknown = await post('/console/api/topup-operators/999999/status', { status: 'ACTIVE' }, headers);
    assert.equal(unknown.status, 404);
    const audit = (await server.admin.call('GET', '/audit')).body.items;
    assert.deepEqual(
      audit.slice(0, 2).map((e: { action: string; target: string }) => [e.action, e.target]),
      [
        ['topup-operator.active', 'topup operator 1001'],
        ['topup-operator.inactive', 'topup operator 1001'],
      ],
    );
  });

  test('console chart: revenue of every currency converted to USD at the FX table, exact to the cent', async () => {
    const eur = await server.admin.createAccount({ environment: 'sandbox', currency: 'EUR', fund: 1000 });
    const usd = await server.admin.createAccount({ environment: 'sandbox', fund: 1000 });
    const order = async (who: typeof eur, customIdentifier: string) => {
      const token = await server.admin.token(who, AUDIENCES.giftcardsSandbox);
      const placed = await server.http.post(
        '/giftcards-sandbox/orders',
        { productId: 11, quantity: 1, unitPrice: 10, senderName: 'Chart', customIdentifier },
        { token },
      );
      assert.equal(placed.status, 200, placed.text);
      return placed.body.amount as number;
    };
    const paidEur = await order(eur, 'chart-eur');
    const paidUsd = await order(usd, 'chart-usd');
    const { answer, cookie } = await signIn('ops@example.com', 'ops passphrase', '/console');
    assert.equal(answer.status, 200);
    const chart = (await server.http.get('/console/api/chart?environment=sandbox', { headers: { cookie } }))
      .body;
    assert.equal(chart.reportingCurrency, 'USD');
    const today = server.clock.now().toISOString().slice(0, 10);
    const rows = chart.byCurrency.filter(
      (r: { day: string; product: string }) => r.day === today && r.product === 'giftcards',
    );
    const rates = new Map(
      chart.rates.map((r: { currencyCode: string; unitsPerUsd: number }) => [r.currencyCode, r]),
    );
    assert.ok(rates.has('EUR') && rates.has('USD'));
    const expected = rows
      .reduce(
        (sum: Decimal, r: { currencyCode: string; revenue: number }) =>
          sum.plus(
            new Decimal(r.revenue).div((rates.get(r.currencyCode) as { unitsPerUsd: number }).unitsPerUsd),
          ),
        new Decimal(0),
      )
      .toDecimalPlaces(2, Decimal.ROUND_HALF_UP)
      .toNumber();
    const total = chart.series.find(
      (s: { day: string; product: string }) => s.day === today && s.product === 'giftcards',
    );
    assert.equal(total.revenue, expected);
    assert.ok(
      rows.some(
        (r: { currencyCode: string; revenue: number }) => r.currencyCode === 'EUR' && r.revenue >= paidEur,
      ),
    );
    assert.ok(
      rows.some(
        (r: { currencyCode: string; revenue: number }) => r.currencyCode === 'USD' && r.revenue >= paidUsd,
      ),
    );
    assert.equal(
      total.orders,
      rows.reduce((n: number, r: { orders: number }) => n + r.orders, 0),
    );
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
      '/api/topup-operators',
      '/api/topup-operators/{operatorId}/status',
      '/api/totp/enrol',
      '/api/totp/confirm',
      '/api/totp/disable',
    ])
      assert.ok(consoleDoc.paths[path], `${path} documented`);
    const docs = await server.http.get('/dashboard/docs');
    // the same reference page as the product bases, over the dashboard's document
    assert.equal(docs.status, 200);
    assert.match(docs.text, /airgift account dashboard[^<]*API reference/);
    assert.match(docs.text, /data-document="\/dashboard\/openapi.json"/);
  });

  test('the gift card shapes (issue 27): the console and the customer on the dashboard switch them, audited', async () => {
    const owner = await server.admin.createAccount({ environment: 'sandbox', fund: 10 });
    const token = await server.admin.token(owner, AUDIENCES.giftcardsSandbox);
    const products = async () =>
      (await server.http.get('/giftcards-sandbox/products?size=1', { token })).body;
    // the operator, on the account's page
    const ops = await airgift('operators', 'create', '--email', 'shapes-ops@example.com');
    await post('/console/api/welcome', { token: tokenOf(ops.link), password: 'shapes passphrase' });
    const operator = await signIn('shapes-ops@example.com', 'shapes passphrase', '/console');
    const opsHeaders = { cookie: operator.cookie, 'x-csrf-token': operator.answer.body.csrfToken };
    const path = `/console/api/accounts/${owner.accountId}/shapes`;
    assert.equal((await post(path, { shapes: 'service' }, { cookie: operator.cookie })).status, 403);
    assert.equal((await post(path, { shapes: 'paged' }, opsHeaders)).status, 400);
    const switched = await post(path, { shapes: 'service' }, opsHeaders);
    assert.equal(switched.status, 200, switched.text);
    assert.equal(switched.body.shapes, 'service');
    assert.equal((await products()).first, true, 'the paged wrapper');
    const shown = await server.http.get(`/console/api/accounts/${owner.accountId}`, { headers: opsHeaders });
    assert.equal(shown.body.account.shapes, 'service');
    // the customer, on the dashboard's settings
    const invited = await invite(owner.accountId, 'shapes@example.com');
    await post('/dashboard/api/welcome', { token: tokenOf(invited.link), password: 'shapes passphrase' });
    const customer = await signIn('shapes@example.com', 'shapes passphrase');
    const headers = { cookie: customer.cookie, 'x-csrf-token': customer.answer.body.csrfToken };
    const read = await server.http.get('/dashboard/api/settings', { headers });
    assert.deepEqual(read.body, { shapes: 'service' });
    const noCsrf = await post(
      '/dashboard/api/settings',
      { shapes: 'documented' },
      { cookie: customer.cookie },
    );
    assert.equal(noCsrf.status, 403);
    const back = await post('/dashboard/api/settings', { shapes: 'documented' }, headers);
    assert.deepEqual(back.body, { shapes: 'documented' });
    assert.ok(Array.isArray(await products()), 'bare arrays again');
    const recorded = (await server.admin.call('GET', '/audit')).body.items.filter(
      (e: { action: string }) => e.action === 'account.shapes',
    );
    assert.deepEqual(
      recorded.map((e: { actor: string; target: string; details: unknown }) => [
        e.actor,
        e.target,
        e.details,
      ]),
      [
        ['shapes@example.com', `account ${owner.accountId}`, { shapes: 'documented' }],
        ['shapes-ops@example.com', `account ${owner.accountId}`, { shapes: 'service' }],
      ],
    );
  });
});
