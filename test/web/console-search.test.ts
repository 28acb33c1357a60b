import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { AUDIENCES } from '../harness/client.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';
import { consoleSession, dashboardSession, type WebSession } from '../harness/web-session.ts';

/**
 * Issue 28, support work: the console finds any transaction of either product across accounts by
 * status, account, customIdentifier, transaction id, recipient and dates, alone and combined; pages
 * through them; downloads the same search as CSV (a header line, every row, exact money); shows
 * money in each currency's minor unit; and opens on the environment that has transactions.
 */
const GIFTCARDS = { accept: 'application/com.reloadly.giftcards-v1+json' };
const TOPUPS = { accept: 'application/com.reloadly.topups-v1+json' };

interface Line {
  product: string;
  transactionId: number;
  accountId: number;
  status: string;
  customIdentifier: string | null;
  recipient: string | null;
  cost: string;
  costText: string;
  currencyCode: string;
}

describe('the console transaction search', () => {
  let server: TestServer;
  let ops: WebSession;
  let usd: number;
  let jpy: number;
  const made: Record<string, { product: string; id: number }> = {};

  const search = async (query: string) => {
    const a = await ops.get(`/api/transactions?environment=sandbox&size=200&${query}`);
    assert.equal(a.status, 200, `${query}: ${a.text}`);
    return a.body as { environment: string; items: Line[]; hasMore: boolean };
  };
  const keys = async (query: string) =>
    (await search(query)).items.map((t) => `${t.product} ${t.transactionId}`).sort();
  const key = (name: string) => `${made[name].product} ${made[name].id}`;

  before(async () => {
    server = await startTestServer();
    const a = await server.admin.createAccount({ name: 'Dollar shop', fund: 1000 });
    const b = await server.admin.createAccount({
      name: 'Yen shop',
      currency: 'JPY',
      country: 'JP',
      fund: 100000,
    });
    usd = a.accountId;
    jpy = b.accountId;
    for (const [account, name] of [
      [a, 'usd'],
      [b, 'jpy'],
    ] as const) {
      const giftToken = await server.admin.token(account, AUDIENCES.giftcardsSandbox);
      const topToken = await server.admin.token(account, AUDIENCES.topupsSandbox);
      const order = async (label: string, body: Record<string, unknown>) => {
        const r = await server.http.post(
          '/giftcards-sandbox/orders',
          { quantity: 1, unitPrice: 10, senderName: 'Ada', customIdentifier: label, ...body },
          { token: giftToken, headers: GIFTCARDS },
        );
        assert.equal(r.status, 200, r.text);
        made[label] = { product: 'giftcards', id: r.body.transactionId };
      };
      const topup = async (label: string, number: string) => {
        const r = await server.http.post(
          '/topups-sandbox/topups',
          {
            operatorId: 1001,
            amount: name === 'usd' ? 10 : 1000,
            customIdentifier: label,
            recipientPhone: { countryCode: 'NG', number },
          },
          { token: topToken, headers: TOPUPS },
        );
        assert.equal(r.status, 200, r.text);
        made[label] = { product: 'topups', id: r.body.transactionId };
      };
      if (name === 'usd') {
        await order('usd-mail', { productId: 11, recipientEmail: 'Ada.Lovelace@Example.com' });
        await order('usd-refunded', { productId: 25 });
        await topup('usd-topup', '08031234567');
      } else {
        await order('jpy-phone', {
          productId: 11,
          recipientPhoneDetails: { countryCode: 'NG', phoneNumber: '08031234567' },
        });
        await topup('jpy-topup', '08037654321');
      }
    }
    ops = await consoleSession(server, 'support@example.com');
  });

  after(() => server?.close());

  test('each filter alone finds what it names', async () => {
    const all = await keys('');
    assert.deepEqual(all, Object.keys(made).map(key).sort());
    assert.deepEqual(await keys('status=REFUNDED'), [key('usd-refunded')]);
    assert.deepEqual(await keys(`accountId=${jpy}`), [key('jpy-phone'), key('jpy-topup')].sort());
    assert.deepEqual(await keys('customIdentifier=usd-topup'), [key('usd-topup')]);
    assert.deepEqual(await keys('customIdentifier=usd'), [], 'customIdentifier is matched exactly');
    const byId = await search(`transactionId=${made['usd-mail'].id}`);
    assert.ok(byId.items.some((t) => `${t.product} ${t.transactionId}` === key('usd-mail')));
    assert.ok(byId.items.every((t) => t.transactionId === made['usd-mail'].id));
    assert.deepEqual(await keys('recipient=ada.lovelace%40example.COM'), [key('usd-mail')], 'any case');
    // gift cards keep E.164 with '+', top-ups the digits: the same number finds both
    assert.deepEqual(
      await keys(`recipient=${encodeURIComponent('+234 803 123 4567')}`),
      [key('usd-topup'), key('jpy-phone')].sort(),
    );
    assert.deepEqual(await keys('product=topups'), [key('usd-topup'), key('jpy-topup')].sort());
    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    assert.deepEqual(await keys(`startDate=${today}&endDate=${today}`), all, 'endDate is inclusive');
    assert.deepEqual(await keys(`startDate=${tomorrow}`), []);
    assert.deepEqual(await keys('endDate=2020-01-01'), []);
  });

  test('filters combine', async () => {
    const phone = encodeURIComponent('2348031234567');
    assert.deepEqual(await keys(`recipient=${phone}&accountId=${usd}`), [key('usd-topup')]);
    assert.deepEqual(await keys(`recipient=${phone}&product=giftcards`), [key('jpy-phone')]);
    assert.deepEqual(await keys(`status=REFUNDED&accountId=${jpy}`), []);
    assert.deepEqual(
      await keys(`accountId=${usd}&product=giftcards&status=SUCCESSFUL&customIdentifier=usd-mail`),
      [key('usd-mail')],
    );
    assert.deepEqual(await keys(`transactionId=${made['jpy-topup'].id}&product=topups&accountId=${jpy}`), [
      key('jpy-topup'),
    ]);
  });

  test('bad filters are 400s naming the field, never 500s', async () => {
    for (const [query, field] of [
      ['recipient=nobody', 'recipient'],
      ['startDate=2026-02-30', 'startDate'],
      ['startDate=2026-05-02&endDate=2026-05-01', 'startDate'],
      ['accountId=0', 'accountId'],
      ['status=LOST', 'status'],
    ]) {
      const a = await ops.get(`/api/transactions?${query}`);
      assert.equal(a.status, 400, query);
      assert.ok(JSON.stringify(a.body.details).includes(field), `${query}: ${a.text}`);
    }
  });

  test("money in each currency's minor unit, exact in the answer", async () => {
    const items = (await search('')).items;
    const mail = items.find((t) => t.customIdentifier === 'usd-mail') as Line;
    assert.match(mail.costText, /^\d+\.\d{2} USD$/);
    assert.match(mail.cost, /^\d+\.\d{2,}$/);
    const yen = items.find((t) => t.customIdentifier === 'jpy-phone') as Line;
    assert.equal(yen.currencyCode, 'JPY');
    assert.match(yen.costText, /^[\d,]+ JPY$/, 'JPY has no decimals');
    const stored = await sql<{ amount: string }>`
      SELECT amount::text AS amount FROM giftcard_transactions WHERE id = ${made['usd-mail'].id}`.execute(
      server.db.kysely,
    );
    assert.equal(Number(mail.cost), Number(stored.rows[0].amount), 'the stored amount, exactly');
    assert.equal(mail.recipient, 'Ada.Lovelace@Example.com');
    const phone = items.find((t) => t.customIdentifier === 'jpy-topup') as Line;
    assert.equal(phone.recipient, '+2348037654321');
  });

  test('pages and the CSV hold the same rows: its line count is the paged total', async () => {
    // 1100 more gift card orders and 1100 more top-ups of the dollar shop, copied from real ones (a
    // search reads rows only): two of each product a second, and each top-up at the very
    // (created_at, id) of a gift card order, so that wherever a CSV batch (1000 rows) ends, it ends
    // on a tie, which the next batch must neither skip nor repeat
    const base = new Date(Math.floor(Date.now() / 1000) * 1000 - 3_600_000);
    for (const [table, row] of [
      ['giftcard_transactions', made['usd-mail'].id],
      ['topup_transactions', made['usd-topup'].id],
    ] as const) {
      await sql`
        INSERT INTO ${sql.table(table)}
        SELECT (jsonb_populate_record(t, jsonb_build_object(
                  'id', 5000000 + g,
                  'custom_identifier', 'bulk-' || g,
                  'created_at', ${base}::timestamptz - make_interval(secs => g / 2)))).*
          FROM ${sql.table(table)} t, generate_series(1, 1100) g
         WHERE t.id = ${row}`.execute(server.db.kysely);
    }
    for (const query of ['', `accountId=${usd}&product=giftcards`, 'status=REFUNDED']) {
      const paged: string[] = [];
      for (let page = 1; ; page++) {
        const a = await ops.get(`/api/transactions?environment=sandbox&size=97&page=${page}&${query}`);
        assert.equal(a.status, 200, a.text);
        paged.push(...a.body.items.map((t: Line) => `${t.product} ${t.transactionId}`));
        if (!a.body.hasMore) break;
      }
      const csv = await ops.get(`/api/transactions.csv?environment=sandbox&${query}`);
      assert.equal(csv.status, 200, csv.text);
      assert.match(String(csv.headers['content-type']), /^text\/csv/);
      assert.match(String(csv.headers['content-disposition']), /transactions-sandbox\.csv/);
      const lines = csv.text.split('\r\n').filter((l) => l !== '');
      assert.equal(
        lines[0],
        'product,transactionId,accountId,accountName,environment,status,description,customIdentifier,recipient,cost,currencyCode,createdAt',
      );
      assert.equal(lines.length - 1, paged.length, `${query}: CSV rows = paged total`);
      assert.equal(new Set(paged).size, paged.length, 'no row twice');
      assert.deepEqual(
        lines.slice(1).map((l) => l.split(',').slice(0, 2).join(' ')),
        paged,
        'the same rows in the same order',
      );
    }
    const all = (await ops.get('/api/transactions.csv?environment=sandbox')).text;
    assert.equal(all.split('\r\n').length - 2, 5 + 2200, 'a header, every row, a last CRLF');
    assert.match(all, /,Yen shop,sandbox,SUCCESSFUL,[^\r\n]*,jpy-phone,'\+2348031234567,\d+,JPY,/);
  });

  test('without an environment the page opens on the one with transactions', async () => {
    assert.equal((await ops.get('/api/transactions')).body.environment, 'sandbox', 'no live transaction yet');
    assert.deepEqual((await ops.get('/api/opening')).body, { environment: 'sandbox' });
    // the dashboard of a sandbox-only account opens on sandbox; of an account with a live credential, on live
    const customer = await dashboardSession(server, usd, 'dev@example.com');
    assert.deepEqual((await customer.get('/api/opening')).body, { environment: 'sandbox' });
    const live = await server.admin.createAccount({ name: 'Live shop', environment: 'live', fund: 0 });
    const liveUser = await dashboardSession(server, live.accountId, 'live@example.com');
    assert.deepEqual((await liveUser.get('/api/opening')).body, { environment: 'live' });
    await sql`
      INSERT INTO topup_transactions
      SELECT (jsonb_populate_record(t, jsonb_build_object(
                'id', (SELECT max(id) FROM topup_transactions) + 1000, 'environment', 'live',
                'custom_identifier', 'live-one'))).*
        FROM topup_transactions t WHERE t.id = ${made['usd-topup'].id}`.execute(server.db.kysely);
    const opened = (await ops.get('/api/transactions')).body;
    assert.equal(opened.environment, 'live');
    assert.deepEqual((await ops.get('/api/opening')).body, { environment: 'live' });
    assert.deepEqual(
      opened.items.map((t: Line) => t.customIdentifier),
      ['live-one'],
    );
    assert.equal((await ops.get(`/api/transactions?accountId=${jpy}`)).body.environment, 'sandbox');
  });

  test('the console publishes both routes in its OpenAPI document', async () => {
    const doc = (await server.http.get('/console/openapi.json')).body;
    const search = doc.paths['/api/transactions'].get;
    for (const name of [
      'environment',
      'status',
      'accountId',
      'customIdentifier',
      'transactionId',
      'recipient',
      'startDate',
      'endDate',
    ])
      assert.ok(
        search.parameters.some((p: { name: string }) => p.name === name),
        name,
      );
    assert.ok(doc.paths['/api/transactions.csv'].get);
  });
});
