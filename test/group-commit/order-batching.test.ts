import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { AUDIENCES } from '../harness/client.ts';
import { postgresForTests, startTestServer, type TestServer } from '../harness/server.ts';
import { VENDOR_ACCEPT } from '../topups/helpers.ts';

// The ledger batches the concurrent orders of one account into one transaction (ledger/batcher.ts).
// Mixed into one burst: good orders, pairs sharing a customIdentifier, orders past the daily count
// limit and past the balance. Each must get exactly the answer it would get alone, batches must
// really have formed, and the money must agree: balance == ledger sum == funding - accepted costs.
// Product 11, 10.00 USD: 10.40 per order.
const ORDER = { productId: 11, quantity: 1, unitPrice: 10, senderName: 'Ada' };

for (const database of ['pglite', 'postgres'] as const) {
  describe(`order batching (${database})`, async () => {
    const available = database === 'pglite' || (await postgresForTests());
    let server: TestServer;
    before(async () => {
      if (available) server = await startTestServer({ database });
    });
    after(() => server?.close());

    async function money(accountId: number) {
      const row = await sql<{ balance: string; sum: string; orders: string; debited: string }>`
        SELECT (SELECT balance FROM balances WHERE account_id = ${accountId} AND environment = 'sandbox')::text AS balance,
               (SELECT COALESCE(SUM(amount), 0) FROM ledger_entries WHERE account_id = ${accountId})::text AS sum,
               (SELECT COUNT(*) FROM giftcard_transactions WHERE account_id = ${accountId})::text AS orders,
               (SELECT COALESCE(SUM(amount), 0) FROM giftcard_transactions WHERE account_id = ${accountId})::text AS debited`.execute(
        server.db.kysely,
      );
      return row.rows[0];
    }

    test('a burst of good and bad orders: each its own answer, the batch-mates of a bad one unharmed', {
      skip: !available && 'PostgreSQL not reachable',
    }, async () => {
      const before = server.runtime.services.ledger.batchStats();
      // 416.00 pays for 40 orders; 60 are sent, 10 of them pairs sharing a customIdentifier.
      const client = await server.caller('giftcards', 'sandbox', { fund: '416.00' });
      const answers = await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          client.post('/orders', { ...ORDER, customIdentifier: `burst-${i < 20 ? Math.floor(i / 2) : i}` }),
        ),
      );
      const accepted = answers.filter((a) => a.status === 200);
      const refused = answers.filter((a) => a.status !== 200);
      // Each pair gives at most one transaction; the rest are refused for the pair or for money.
      const ids = accepted.map((a) => a.body.customIdentifier);
      assert.equal(new Set(ids).size, ids.length, 'a customIdentifier used twice');
      for (const a of refused) {
        assert.ok(
          (a.status === 400 && a.body.errorCode === 'CUSTOM_IDENTIFIER_ALREADY_USED') ||
            (a.status === 403 && a.body.errorCode === 'INSUFFICIENT_BALANCE'),
          `unexpected answer ${a.status} ${a.text}`,
        );
      }
      // A pair's second order is refused either way: CUSTOM_IDENTIFIER_ALREADY_USED once its mate has
      // committed, or INSUFFICIENT_BALANCE when the money ran out while its mate's batch was still in
      // flight (two batches of one account can be: its look-up could not see the mate yet).
      const pairs = Array.from({ length: 10 }, (_, p) => `burst-${p}`);
      for (const p of pairs) assert.ok(ids.filter((i) => i === p).length <= 1, `pair ${p} accepted twice`);
      const reused = refused.filter((a) => a.body.errorCode === 'CUSTOM_IDENTIFIER_ALREADY_USED').length;
      assert.ok(reused >= 1 && reused <= 10, `${reused} refused as already used`);
      assert.equal(accepted.length, 40, 'every affordable order with a fresh reference is accepted');
      const state = await money(client.account.accountId);
      assert.equal(Number(state.balance), 0);
      assert.equal(Number(state.sum), Number(state.balance));
      assert.equal(Number(state.orders), 40);
      assert.equal(Number(state.debited), 416);
      assert.deepEqual(await server.admin.audit(), []);
      const after = server.runtime.services.ledger.batchStats();
      assert.ok(
        after.orders - before.orders > after.batches - before.batches,
        `no batch of more than one order formed: ${JSON.stringify({ before, after })}`,
      );
    });

    test("the group commit's figures on /metrics: batches, orders in them, orders in flight", {
      skip: !available && 'PostgreSQL not reachable',
    }, async () => {
      const figure = (text: string, name: string) =>
        Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(text)?.[1]);
      const scrape = async () => (await server.admin.call('GET', '/metrics')).body as string;
      const before = await scrape();
      const client = await server.caller('giftcards', 'sandbox', { fund: '1000.00' });
      const answers = await Promise.all(Array.from({ length: 20 }, () => client.post('/orders', ORDER)));
      for (const a of answers) assert.equal(a.status, 200, a.text);
      const after = await scrape();
      const stats = server.runtime.services.ledger.batchStats();
      assert.equal(figure(after, 'airgift_order_batches_total'), stats.batches);
      assert.equal(figure(after, 'airgift_order_batch_orders_total'), stats.orders);
      assert.equal(figure(after, 'airgift_order_batch_fallbacks_total'), stats.fallbacks);
      assert.equal(figure(after, 'airgift_order_commits_behind_total'), stats.commitsBehind);
      const orders =
        figure(after, 'airgift_order_batch_orders_total') -
        figure(before, 'airgift_order_batch_orders_total');
      const batches =
        figure(after, 'airgift_order_batches_total') - figure(before, 'airgift_order_batches_total');
      assert.ok(orders >= 20, `${orders} orders counted for 20 placed`);
      assert.ok(batches >= 1 && batches < orders, `${batches} batches for ${orders} orders`);
      assert.equal(figure(after, 'airgift_orders_in_flight'), 0);
    });

    test("a batch's rows and cards, written by its debits' statement, read back as answered", {
      skip: !available && 'PostgreSQL not reachable',
    }, async () => {
      const before = server.runtime.services.ledger.batchStats();
      const client = await server.caller('giftcards', 'sandbox', { fund: '1000.00' });
      const answers = await Promise.all(
        Array.from({ length: 24 }, (_, i) =>
          client.post('/orders', { ...ORDER, customIdentifier: `rows-${i}` }),
        ),
      );
      for (const a of answers) assert.equal(a.status, 200, a.text);
      const after = server.runtime.services.ledger.batchStats();
      assert.ok(after.orders - before.orders > after.batches - before.batches, 'no batch formed');
      // Each order's balances are the ones its ledger entry left; together, one unbroken chain
      // from the funding down (each order's old balance is the new balance of the one before it).
      const entries = await sql<{ transaction_id: string; amount: string; balance_after: string }>`
        SELECT transaction_id::text, amount::text, balance_after::text FROM ledger_entries
        WHERE account_id = ${client.account.accountId} AND kind = 'ORDER_DEBIT'`.execute(server.db.kysely);
      const entryOf = new Map(entries.rows.map((e) => [Number(e.transaction_id), e]));
      const chain = answers
        .map((a) => a.body)
        .sort((x, y) => y.balanceInfo.oldBalance - x.balanceInfo.oldBalance);
      assert.equal(chain[0].balanceInfo.oldBalance, 1000);
      chain.forEach((t, i) => {
        const entry = entryOf.get(t.transactionId);
        assert.ok(entry, `no entry for ${t.transactionId}`);
        assert.equal(t.balanceInfo.newBalance, Number(entry.balance_after));
        assert.equal(
          t.balanceInfo.oldBalance,
          Number((Number(entry.balance_after) - Number(entry.amount)).toFixed(6)),
        );
        if (i > 0) assert.equal(t.balanceInfo.oldBalance, chain[i - 1].balanceInfo.newBalance);
      });
      assert.equal(chain.at(-1).balanceInfo.newBalance, Number((1000 - 24 * 10.4).toFixed(2)));
      for (const t of answers.map((a) => a.body)) {
        const read = await client.get(`/reports/transactions/${t.transactionId}`);
        assert.deepEqual(read.body, t, 'the stored transaction differs from the answer');
        const cards = await client.get(`/orders/transactions/${t.transactionId}/cards`);
        assert.equal(cards.status, 200, cards.text);
        assert.equal(cards.body.length, 1);
      }
      assert.deepEqual(await server.admin.audit(), []);
    });

    test('gift card orders and top-ups of one account in one burst: each kind posted together, the money exact', {
      skip: !available && 'PostgreSQL not reachable',
    }, async () => {
      const before = server.runtime.services.ledger.batchStats();
      const client = await server.caller('giftcards', 'sandbox', { fund: '1000.00' });
      const topupToken = await server.admin.token(client.account, AUDIENCES.topupsSandbox);
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          i % 2 === 0
            ? client.post('/orders', { ...ORDER, customIdentifier: `mixed-${i}` })
            : server.http.post(
                '/topups-sandbox/topups',
                {
                  operatorId: 1001,
                  amount: 5,
                  recipientPhone: { countryCode: 'NG', number: `0803${6100000 + i}` },
                  customIdentifier: `mixed-${i}`,
                },
                { token: topupToken, headers: { accept: VENDOR_ACCEPT } },
              ),
        ),
      );
      for (const a of answers) assert.equal(a.status, 200, a.text);
      const after = server.runtime.services.ledger.batchStats();
      assert.ok(after.orders - before.orders > after.batches - before.batches, 'no batch formed');
      const spent = answers.reduce((sum, a) => sum + Math.round(a.body.balanceInfo.cost * 100), 0);
      const state = await money(client.account.accountId);
      assert.equal(Math.round(Number(state.balance) * 100), 100_000 - spent);
      assert.equal(Number(state.sum), Number(state.balance));
      assert.deepEqual(await server.admin.audit(), []);
    });

    test("a batch's PIN top-ups: each voucher sealed in its row, and read back whole", {
      skip: !available && 'PostgreSQL not reachable',
    }, async () => {
      const before = server.runtime.services.ledger.batchStats();
      const client = await server.caller('topups', 'sandbox', { fund: '5000.00' });
      const operator = (await client.get('/operators/1004')).body; // MTN Nigeria PIN, FIXED
      assert.equal(operator.pin, true);
      const answers = await Promise.all(
        Array.from({ length: 16 }, (_, i) =>
          client.post('/topups', {
            operatorId: 1004,
            amount: operator.fixedAmounts[0],
            recipientPhone: { countryCode: 'NG', number: `0803${6200000 + i}` },
          }),
        ),
      );
      for (const a of answers) assert.equal(a.status, 200, a.text);
      const after = server.runtime.services.ledger.batchStats();
      assert.ok(after.orders - before.orders > after.batches - before.batches, 'no batch formed');
      const stored = await sql<{ id: string; pin_detail: string | null }>`
        SELECT id::text, pin_detail::text FROM topup_transactions
        WHERE account_id = ${client.account.accountId}`.execute(server.db.kysely);
      assert.equal(stored.rows.length, 16);
      const raw = new Map(stored.rows.map((r) => [Number(r.id), r.pin_detail]));
      for (const t of answers.map((a) => a.body)) {
        const { code, serial } = t.pinDetail;
        assert.ok(code && serial, `no voucher in ${JSON.stringify(t)}`);
        const column = raw.get(t.transactionId);
        assert.ok(column, `no sealed voucher stored for ${t.transactionId}`);
        assert.ok(!column.includes(code) && !column.includes(serial), 'the voucher is stored in the clear');
        const read = await client.get(`/topups/reports/transactions/${t.transactionId}`);
        assert.deepEqual(read.body.pinDetail, t.pinDetail, 'the voucher reads back whole');
      }
      assert.deepEqual(await server.admin.audit(), []);
    });

    test('daily count limit under a burst: exactly the limit is accepted', {
      skip: !available && 'PostgreSQL not reachable',
    }, async () => {
      const client = await server.caller('giftcards', 'sandbox', { fund: 1000 });
      const limited = await server.admin.call('PATCH', `/accounts/${client.account.accountId}`, {
        dailyCountLimit: 7,
      });
      assert.equal(limited.status, 200, limited.text);
      const answers = await Promise.all(Array.from({ length: 30 }, () => client.post('/orders', ORDER)));
      assert.equal(answers.filter((a) => a.status === 200).length, 7);
      for (const a of answers.filter((x) => x.status !== 200)) {
        assert.equal(a.body.errorCode, 'MAX_DAILY_TRANSACTION_COUNT_REACHED', a.text);
      }
      const state = await money(client.account.accountId);
      assert.equal(Number(state.sum), Number(state.balance));
      assert.equal(Number(state.balance), 1000 - 7 * 10.4);
      assert.deepEqual(await server.admin.audit(), []);
    });

    test('orders with one tag never share a batch: each sees the writes of the one before', {
      skip: !available && 'PostgreSQL not reachable',
    }, async () => {
      const { ledger } = server.runtime.services;
      const c = await server.caller('giftcards', 'sandbox', { fund: 10 });
      await sql`CREATE TABLE IF NOT EXISTS batch_probe (tag text)`.execute(server.db.kysely);
      const key = { accountId: c.account.accountId, environment: 'sandbox' as const };
      const probe = (tag: string) =>
        ledger.orderTransaction({ ...key, tag }, async (trx) => {
          const seen = await sql<{
            n: number;
          }>`SELECT count(*)::int AS n FROM batch_probe WHERE tag = ${tag}`.execute(trx);
          await sql`INSERT INTO batch_probe (tag) VALUES (${tag})`.execute(trx);
          return seen.rows[0].n;
        });
      // A slow first order, so the others queue up behind it and form batches.
      const first = ledger.orderTransaction(key, async (trx) => {
        await sql`SELECT pg_sleep(0.2)`.execute(trx);
        return -1;
      });
      const same = Array.from({ length: 6 }, () => probe('same'));
      const others = Array.from({ length: 6 }, (_, i) => probe(`other-${i}`));
      assert.equal(await first, -1);
      assert.deepEqual((await Promise.all(same)).sort(), [0, 1, 2, 3, 4, 5]);
      assert.deepEqual(await Promise.all(others), [0, 0, 0, 0, 0, 0]);
    });

    test('top-ups of a burst that share a number never share a batch: one of them, the rest refused', {
      skip: !available && 'PostgreSQL not reachable',
    }, async () => {
      const c = await server.caller('topups', 'sandbox', { fund: 1000 });
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          c.post('/topups', {
            operatorId: 1001,
            amount: 10,
            recipientPhone: { countryCode: 'NG', number: `0803${String(6000000 + (i % 3 === 0 ? 0 : i))}` },
          }),
        ),
      );
      // 10 sends to 08036000000, 20 to numbers of their own: 1 + 20 accepted.
      assert.equal(answers.filter((a) => a.status === 200).length, 21);
      for (const a of answers.filter((x) => x.status !== 200)) {
        assert.equal(a.body.errorCode, 'PHONE_RECENTLY_RECHARGED', a.text);
      }
      assert.deepEqual(await server.admin.audit(), []);
    });
  });
}
