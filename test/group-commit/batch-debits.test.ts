import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { dec } from '../../src/lib/money.ts';
import { AUDIENCES, type TestAccount } from '../harness/client.ts';
import { debitsOnly } from '../harness/debits-only.ts';
import { postgresForTests, startTestServer, type TestServer } from '../harness/server.ts';
import { VENDOR_ACCEPT } from '../topups/helpers.ts';

// The debits of a batch's orders are posted in one statement (ledger/batch-debits.ts). Each order
// must still get the balance its own entry left, the entries must chain (each balance_after is the
// one before plus its amount), and a gathering that does not fit must leave every order to run
// alone with its own answer.
for (const database of ['pglite', 'postgres'] as const) {
  describe(`batched debits (${database})`, async () => {
    const available = database === 'pglite' || (await postgresForTests());
    let server: TestServer;
    let debit: ReturnType<typeof debitsOnly>;
    before(async () => {
      if (!available) return;
      server = await startTestServer({ database });
      debit = debitsOnly(server.runtime.services.ledger);
    });
    after(() => server?.close());

    async function entries(accountId: number) {
      const { rows } = await sql<{
        amount: string;
        balanceAfter: string;
        product: string;
        transactionId: string;
      }>`
        SELECT amount::text, balance_after::text AS "balanceAfter", product, transaction_id::text AS "transactionId"
        FROM ledger_entries WHERE account_id = ${accountId} AND environment = 'sandbox' ORDER BY id`.execute(
        server.db.kysely,
      );
      return rows;
    }

    function assertChained(rows: Array<{ amount: string; balanceAfter: string }>) {
      for (let i = 1; i < rows.length; i++) {
        assert.equal(
          dec(rows[i - 1].balanceAfter)
            .plus(rows[i].amount)
            .toFixed(),
          dec(rows[i].balanceAfter).toFixed(),
          `entry ${i} does not follow the one before`,
        );
      }
    }

    /** A top-up poster of `account` (a gift card caller's), so that both products debit one balance. */
    async function topupsOf(account: Pick<TestAccount, 'clientId' | 'clientSecret'>) {
      const token = await server.admin.token(account, AUDIENCES.topupsSandbox);
      return (body: unknown) =>
        server.http.post('/topups-sandbox/topups', body, { token, headers: { accept: VENDOR_ACCEPT } });
    }

    /** Runs `debits` as orders of one account that queue behind a slow one, so they form one batch. */
    async function burst(
      accountId: number,
      debits: Array<{ amount: string; product: 'giftcards' | 'topups'; id: number }>,
    ) {
      const { ledger } = server.runtime.services;
      const key = { accountId, environment: 'sandbox' as const };
      const first = ledger.orderTransaction(key, async (trx) => {
        await sql`SELECT pg_sleep(0.2)`.execute(trx);
      });
      const before = ledger.batchStats();
      const results = debits.map((d) =>
        ledger
          .orderTransaction(key, (trx) =>
            debit(trx, {
              ...key,
              amount: dec(d.amount),
              product: d.product,
              transactionId: d.id,
            }),
          )
          .then(
            (r) => ({
              ok: true as const,
              newBalance: r.newBalance.toFixed(),
              oldBalance: r.oldBalance.toFixed(),
            }),
            (e: { code?: string; message?: string }) => ({ ok: false as const, error: e.code ?? e.message }),
          ),
      );
      await first;
      const answers = await Promise.all(results);
      return { answers, stats: { before, after: ledger.batchStats() } };
    }

    test('one gathering: each order its own balances, entries chained, one product per transaction id', {
      skip: !available && 'PostgreSQL not reachable',
    }, async () => {
      const c = await server.caller('giftcards', 'sandbox', { fund: 100 });
      const accountId = c.account.accountId;
      // a gift card and a top-up may carry the same transaction id (two sequences)
      const debits = Array.from({ length: 12 }, (_, i) => ({
        amount: `${i + 1}.25`,
        product: (i % 2 === 0 ? 'giftcards' : 'topups') as 'giftcards' | 'topups',
        id: 900_000 + Math.floor(i / 2),
      }));
      const { answers, stats } = await burst(accountId, debits);
      assert.equal(stats.after.fallbacks, stats.before.fallbacks, 'the batch fell back');
      assert.ok(stats.after.orders - stats.before.orders > stats.after.batches - stats.before.batches);
      let balance = dec(100);
      for (const [i, a] of answers.entries()) {
        assert.ok(a.ok, JSON.stringify(a));
        assert.equal(a.oldBalance, balance.toFixed(), `order ${i}: old balance`);
        balance = balance.minus(debits[i].amount);
        assert.equal(a.newBalance, balance.toFixed(), `order ${i}: new balance`);
      }
      const rows = await entries(accountId);
      assertChained(rows);
      // each order's entry holds the balance it answered
      for (const [i, d] of debits.entries()) {
        const entry = rows.find((r) => r.product === d.product && Number(r.transactionId) === d.id);
        assert.ok(entry, `no entry for order ${i}`);
        assert.equal(dec(entry.balanceAfter).toFixed(), (answers[i] as { newBalance: string }).newBalance);
      }
      assert.deepEqual(await server.admin.auditBalances(), []);
    });

    test('a gathering past the balance: the orders run alone, the ones that fit are accepted', {
      skip: !available && 'PostgreSQL not reachable',
    }, async () => {
      const c = await server.caller('giftcards', 'sandbox', { fund: 10 });
      const debits = Array.from({ length: 6 }, (_, i) => ({
        amount: '3.00',
        product: 'giftcards' as const,
        id: 910_000 + i,
      }));
      const { answers, stats } = await burst(c.account.accountId, debits);
      assert.ok(stats.after.fallbacks > stats.before.fallbacks, 'the batch did not fall back');
      assert.deepEqual(
        answers.map((a) => (a.ok ? a.newBalance : a.error)),
        ['7', '4', '1', 'INSUFFICIENT_BALANCE', 'INSUFFICIENT_BALANCE', 'INSUFFICIENT_BALANCE'],
      );
      assertChained(await entries(c.account.accountId));
      assert.deepEqual(await server.admin.auditBalances(), []);
    });

    test('an amount not in minor units (a pricing bug), in a batch and alone: refused, nothing of it kept', {
      skip: !available && 'PostgreSQL not reachable',
    }, async () => {
      const c = await server.caller('giftcards', 'sandbox', { fund: 10 });
      const accountId = c.account.accountId;
      const debits = ['1.00', '1.005', '2.00'].map((amount, i) => ({
        amount,
        product: 'giftcards' as const,
        id: 920_000 + i,
      }));
      // the batch's statement refuses it (its COMMIT behind it on PostgreSQL), the three run alone,
      // where the ledger's own check refuses the bad one
      const { answers, stats } = await burst(accountId, debits);
      assert.ok(stats.after.fallbacks > stats.before.fallbacks, 'the batch did not fall back');
      assert.deepEqual(answers[0], { ok: true, oldBalance: '10', newBalance: '9' });
      assert.equal(answers[1].ok, false);
      assert.match(String((answers[1] as { error: string }).error), /not in USD minor units/);
      assert.deepEqual(answers[2], { ok: true, oldBalance: '9', newBalance: '7' });
      // alone (its COMMIT behind its debit on PostgreSQL): refused by its statement, then by the check
      const { ledger } = server.runtime.services;
      const key = { accountId, environment: 'sandbox' as const };
      const lone = await ledger
        .orderTransaction(key, (trx) =>
          debit(trx, { ...key, amount: dec('0.125'), product: 'giftcards', transactionId: 920_010 }),
        )
        .then(
          () => 'debited',
          (e: Error) => e.message,
        );
      assert.match(lone, /not in USD minor units/);
      const rows = await entries(accountId);
      assert.deepEqual(
        rows.map((r) => dec(r.amount).toFixed()).filter((a) => a !== '10'),
        ['-1', '-2'],
        'the amount in thousandths was debited',
      );
      const [usage] = (
        await sql<{ count: number }>`
          SELECT COALESCE(SUM(order_count), 0)::int AS count FROM daily_order_usage WHERE account_id = ${accountId}`.execute(
          server.db.kysely,
        )
      ).rows;
      assert.equal(usage.count, 2, "the refused order's usage was kept");
      assert.deepEqual(await server.admin.auditBalances(), []);
    });

    test('a burst of top-ups, pairs sharing a customIdentifier: one of each pair, the rest refused', {
      skip: !available && 'PostgreSQL not reachable',
    }, async () => {
      const cards = await server.caller('giftcards', 'sandbox', { fund: 1000 });
      const topup = await topupsOf(cards.account);
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          topup({
            operatorId: 1001,
            amount: 10,
            customIdentifier: `pair-${i < 20 ? Math.floor(i / 2) : i}`,
            recipientPhone: { countryCode: 'NG', number: `0803${String(7100000 + i)}` },
          }),
        ),
      );
      const accepted = answers.filter((a) => a.status === 200);
      assert.equal(accepted.length, 20, 'one of each pair and every single one');
      for (const a of answers.filter((x) => x.status !== 200)) {
        assert.equal(a.body.errorCode, 'CUSTOM_IDENTIFIER_ALREADY_USED', a.text);
      }
      assert.equal(new Set(accepted.map((a) => a.body.customIdentifier)).size, 20);
      assertChained(await entries(cards.account.accountId));
      assert.deepEqual(await server.admin.auditBalances(), []);
    });

    test('a burst of gift card orders and top-ups on one account: every answer is its own entry', {
      skip: !available && 'PostgreSQL not reachable',
    }, async () => {
      const cards = await server.caller('giftcards', 'sandbox', { fund: 1000 });
      const topup = await topupsOf(cards.account);
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          i % 2 === 0
            ? cards
                .post('/orders', { productId: 11, quantity: 1, unitPrice: 10, senderName: 'Ada' })
                .then((a) => ({ a, product: 'giftcards', balance: a.body.balanceInfo?.newBalance }))
            : topup({
                operatorId: 1001,
                amount: 10,
                recipientPhone: { countryCode: 'NG', number: `0803${String(7000000 + i)}` },
              }).then((a) => ({ a, product: 'topups', balance: a.body.balanceInfo?.newBalance })),
        ),
      );
      for (const { a } of answers) assert.equal(a.status, 200, a.text);
      const rows = await entries(cards.account.accountId);
      assertChained(rows);
      for (const { a, product, balance } of answers) {
        const entry = rows.find(
          (r) => r.product === product && Number(r.transactionId) === a.body.transactionId,
        );
        assert.ok(entry, `no entry for ${product} ${a.body.transactionId}`);
        assert.equal(dec(entry.balanceAfter).toNumber(), balance);
      }
      assert.deepEqual(await server.admin.auditBalances(), []);
    });
  });
}
