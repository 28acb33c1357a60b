import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Kysely, sql } from 'kysely';
import { openDatabase } from '../../src/db/database.ts';
import type { Database } from '../../src/db/schema.ts';
import {
  createGathering,
  createGroupCommit,
  StatementRefused,
} from '../../src/modules/group-commit/index.ts';
import { postgresForTests, startTestServer, type TestServer } from '../harness/server.ts';
import { startTcpProxy } from '../harness/tcp-proxy.ts';
import { createPostgresDatabase } from '../harness/templates.ts';
import { until } from '../harness/until.ts';

// The COMMIT pipelined behind a batch's last statement (modules/group-commit/batcher.ts, PostgreSQL):
// batches of gift card orders commit that way, and so does a gift card order alone; a batch or an
// order alone that does not fit rolls back whole, the day's usage row included (the refusal is raised
// inside the statement), and the order alone still gets its own error; and a batch or an order whose
// COMMIT was sent is never run again, even when the COMMIT's answer is lost: it would be debited twice.
const available = await postgresForTests();
const ORDER = { productId: 11, quantity: 1, unitPrice: 10, senderName: 'Ada' }; // 10.40 USD each
// one server on PostgreSQL for the gift card and top-up suites below
let server: TestServer;
before(async () => {
  if (available) server = await startTestServer({ database: 'postgres' });
});
after(() => server?.close());

/**
 * Our orders (`ours`, placed meanwhile) while another server's order of `accountId` holds the balance
 * row's lock: its debit of `cost` takes the lock, then `writeRow` writes its row (answering its id)
 * and its ledger entry follows; it commits only once one of ours is seen waiting for that lock, so
 * our look-ups before the lock cannot have seen it, only what runs after the lock. Answers what
 * `ours` settled to.
 */
async function whileAnotherServerOrders<T>(o: {
  accountId: number;
  product: 'giftcards' | 'topups';
  cost: string;
  writeRow: (conn: Kysely<Database>, debited: { old: string; new: string }) => Promise<string>;
  ours: () => Promise<T>;
}): Promise<T> {
  let locked!: (pid: number) => void;
  const lockTaken = new Promise<number>((resolve) => {
    locked = resolve;
  });
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const other = server.db.kysely.connection().execute(async (conn) => {
    await sql`BEGIN`.execute(conn);
    const [{ pid }] = (await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(conn)).rows;
    const [debited] = (
      await sql<{ old: string; new: string; currency: string }>`
        UPDATE balances SET balance = balance - ${o.cost}::numeric, updated_at = now()
        WHERE account_id = ${o.accountId} AND environment = 'sandbox'
        RETURNING (balance + ${o.cost}::numeric)::text AS old, balance::text AS new, currency_code AS currency`.execute(
        conn,
      )
    ).rows;
    locked(pid);
    const id = await o.writeRow(conn, debited);
    await sql`
      INSERT INTO ledger_entries (account_id, environment, kind, amount, balance_after, currency_code, reason,
                                  product, transaction_id, created_at)
      VALUES (${o.accountId}, 'sandbox', 'ORDER_DEBIT', -${o.cost}::numeric, ${debited.new}::numeric,
              ${debited.currency}, 'an order by another server', ${o.product}, ${id}::bigint, now())`.execute(
      conn,
    );
    await released;
    await sql`COMMIT`.execute(conn);
  });
  const otherPid = await lockTaken;
  const placing = o.ours();
  try {
    await until('our orders wait for the other transaction', async () => {
      const { rows } = await sql<{ n: number }>`
        SELECT count(*)::int AS n FROM pg_stat_activity WHERE ${otherPid}::int = ANY(pg_blocking_pids(pid))`.execute(
        server.db.kysely,
      );
      return rows[0].n > 0;
    });
  } finally {
    release();
  }
  const settled = await placing;
  await other;
  return settled;
}

describe('the COMMIT behind the last statement, through the server (PostgreSQL)', {
  skip: !available && 'PostgreSQL not reachable',
}, () => {
  const usage = async (accountId: number) =>
    (
      await sql<{ count: number; amount: string }>`
        SELECT COALESCE(SUM(order_count), 0)::int AS count, COALESCE(SUM(order_amount), 0)::numeric(20, 2)::text AS amount
        FROM daily_order_usage WHERE account_id = ${accountId}`.execute(server.db.kysely)
    ).rows[0];

  test('a burst of orders commits in batches whose COMMIT went behind their debits', async () => {
    const before = server.runtime.services.ledger.batchStats();
    const client = await server.caller('giftcards', 'sandbox', { fund: '1000.00' });
    const answers = await Promise.all(Array.from({ length: 40 }, () => client.post('/orders', ORDER)));
    for (const a of answers) assert.equal(a.status, 200, a.text);
    const after = server.runtime.services.ledger.batchStats();
    assert.ok(after.commitsBehind > before.commitsBehind, JSON.stringify({ before, after }));
    assert.deepEqual(await usage(client.account.accountId), { count: 40, amount: '416.00' });
    assert.equal((await client.get('/accounts/balance')).body.balance, 584);
    assert.deepEqual(await server.admin.audit(), []);
  });

  test("a batch that does not fit the balance keeps nothing, not even the day's usage", async () => {
    // 31.20 pays for three orders: batches of the eight do not fit and fall back to one at a time.
    const client = await server.caller('giftcards', 'sandbox', { fund: '31.20' });
    const before = server.runtime.services.ledger.batchStats();
    const answers = await Promise.all(Array.from({ length: 8 }, () => client.post('/orders', ORDER)));
    const after = server.runtime.services.ledger.batchStats();
    assert.ok(after.fallbacks > before.fallbacks, 'no batch was refused');
    const accepted = answers.filter((a) => a.status === 200);
    assert.equal(accepted.length, 3);
    for (const a of answers.filter((x) => x.status !== 200)) {
      assert.equal(a.body.errorCode, 'INSUFFICIENT_BALANCE', a.text);
    }
    assert.deepEqual(await usage(client.account.accountId), { count: 3, amount: '31.20' });
    assert.deepEqual(await server.admin.audit(), []);
  });

  test('an order alone commits behind its debit; refused alone, it keeps nothing and gets its own error', async () => {
    const { ledger } = server.runtime.services;
    const client = await server.caller('giftcards', 'sandbox', { fund: '20.80' });
    const id = client.account.accountId;
    // one order at a time: each alone, its COMMIT behind the statement that debits it and writes its rows
    const before = ledger.batchStats();
    const first = await client.post('/orders', { ...ORDER, customIdentifier: 'alone-1' });
    assert.equal(first.status, 200, first.text);
    assert.equal(ledger.batchStats().commitsBehind, before.commitsBehind + 1);
    assert.equal(ledger.batchStats().batches, before.batches + 1);
    // a used customIdentifier: found by its look-up before the debit (the next test: by the debit's statement)
    const again = await client.post('/orders', { ...ORDER, customIdentifier: 'alone-1' });
    assert.equal(again.body.errorCode, 'CUSTOM_IDENTIFIER_ALREADY_USED', again.text);
    assert.equal((await client.post('/orders', ORDER)).status, 200);
    // the balance is 0: refused for it, with the balance named
    const poor = await client.post('/orders', ORDER);
    assert.equal(poor.status, 403, poor.text);
    assert.equal(
      poor.body.message,
      'The account balance (0 USD) is too low for this operation, which costs 10.4 USD.',
    );
    assert.deepEqual(await usage(id), { count: 2, amount: '20.80' }, "the refused orders' usage was kept");

    // the day's count, then the day's amount: each refusal by its own limit, none of it kept
    await server.admin.fund(id, '100.00');
    await server.admin.ok('PATCH', `/accounts/${id}`, { dailyCountLimit: 2 });
    const counted = await client.post('/orders', ORDER);
    assert.equal(counted.body.errorCode, 'MAX_DAILY_TRANSACTION_COUNT_REACHED', counted.text);
    await server.admin.ok('PATCH', `/accounts/${id}`, { dailyCountLimit: null, dailyAmountLimit: '25' });
    const capped = await client.post('/orders', ORDER);
    assert.equal(capped.body.errorCode, 'MAX_DAILY_TRANSACTION_AMOUNT_REACHED', capped.text);
    assert.deepEqual(await usage(id), { count: 2, amount: '20.80' });
    // each refused in its statement (nothing committed), then run again to be answered its exact error
    assert.equal(ledger.batchStats().fallbacks, before.fallbacks + 3);
    assert.deepEqual(await server.admin.audit(), []);
  });
  test("an order alone whose customIdentifier another server's order takes while it waits for the lock: its statement's unique violation, nothing kept", async () => {
    const c = await server.caller('giftcards', 'sandbox', { fund: '100.00' });
    const { accountId, clientId } = c.account;
    const model = await c.post('/orders', ORDER); // the other server's order copies its row
    assert.equal(model.status, 200, model.text);
    const principal = { accountId, environment: 'sandbox' as const, clientId, scopes: ['developer'] };
    const { ledger, giftcards } = server.runtime.services;
    const before = ledger.batchStats();
    // the other server's order takes customIdentifier 'taken' while ours waits for the lock: only the
    // unique index, in our debit's statement, can refuse ours
    const answer = await whileAnotherServerOrders({
      accountId,
      product: 'giftcards',
      cost: '10.40',
      writeRow: async (conn) => {
        const [{ id }] = (
          await sql<{ id: string }>`SELECT nextval('giftcard_transaction_ids')::text AS id`.execute(conn)
        ).rows;
        await sql`
          INSERT INTO giftcard_transactions
          SELECT (json_populate_record(t, json_build_object('id', ${id}::bigint, 'custom_identifier', 'taken',
                                                            'created_at', now()))).*
          FROM giftcard_transactions t WHERE t.id = ${model.body.transactionId}`.execute(conn);
        return id;
      },
      ours: () =>
        giftcards.orders.place(principal, { ...ORDER, customIdentifier: 'taken' }).then(
          () => 'placed',
          (error: { code?: string }) => error.code,
        ),
    });
    assert.equal(answer, 'CUSTOM_IDENTIFIER_ALREADY_USED');
    const after = ledger.batchStats();
    assert.equal(after.commitsBehind, before.commitsBehind + 1, 'its COMMIT did not go behind its statement');
    assert.equal(after.fallbacks, before.fallbacks, 'an order refused by the unique index was run again');
    // its COMMIT rolled back its debit and the day's usage with it (the other server's order here
    // counts no usage: the model order's alone is there)
    assert.deepEqual(await usage(accountId), { count: 1, amount: '10.40' });
    assert.equal((await c.get('/accounts/balance')).body.balance, 79.2);
    assert.deepEqual(await server.admin.audit(), []);
  });
});

describe('top-ups: the COMMIT behind their rows (PostgreSQL)', {
  skip: !available && 'PostgreSQL not reachable',
}, () => {
  const topup = (c: Awaited<ReturnType<TestServer['caller']>>, number: string) =>
    c.post('/topups', { operatorId: 1001, amount: 10, recipientPhone: { countryCode: 'NG', number } });

  test('a top-up alone commits behind its debit, which writes its row', async () => {
    const { ledger } = server.runtime.services;
    const c = await server.caller('topups', 'sandbox', { fund: 100 });
    const before = ledger.batchStats();
    const answer = await topup(c, '08036000000');
    assert.equal(answer.status, 200, answer.text);
    const after = ledger.batchStats();
    assert.equal(after.commitsBehind, before.commitsBehind + 1);
    assert.equal(after.batches, before.batches + 1);
    const read = await c.get(`/topups/reports/transactions/${answer.body.transactionId}`);
    assert.equal(read.status, 200, read.text);
    // its row was written with the balances its debit left, by the same statement
    assert.deepEqual(read.body.balanceInfo, answer.body.balanceInfo);
    assert.equal(read.body.balanceInfo.oldBalance, 100);
    assert.equal(read.body.balanceInfo.newBalance, Number((100 - answer.body.balanceInfo.cost).toFixed(2)));
    assert.deepEqual(await server.admin.audit(), []);
  });

  test('a burst of top-ups to numbers of their own commits behind their rows', async () => {
    const before = server.runtime.services.ledger.batchStats();
    const c = await server.caller('topups', 'sandbox', { fund: 1000 });
    const answers = await Promise.all(Array.from({ length: 24 }, (_, i) => topup(c, `0803${7000000 + i}`)));
    for (const a of answers) assert.equal(a.status, 200, a.text);
    const after = server.runtime.services.ledger.batchStats();
    assert.ok(after.commitsBehind > before.commitsBehind, JSON.stringify({ before, after }));
    assert.deepEqual(await server.admin.audit(), []);
  });

  // a batch of four, whose refused statement sends its top-ups alone; and a top-up alone, whose refused
  // statement sends it once more the way that answers the refusal (the writer's `one`)
  const variants = [
    {
      what: 'a batch waits for the lock: the batch is refused, its top-ups run alone',
      numbers: ['08038000002', '08038000003', '08038000001', '08038000004'],
      answers: ['SUCCESSFUL', 'SUCCESSFUL', 'PHONE_RECENTLY_RECHARGED', 'SUCCESSFUL'],
    },
    {
      what: 'a top-up alone waits for the lock: its statement is refused, it runs again and is answered',
      numbers: ['08038000001'],
      answers: ['PHONE_RECENTLY_RECHARGED'],
    },
  ];
  for (const variant of variants)
    test(`a number another server tops up while ${variant.what}, the number is topped up once`, async () => {
      const c = await server.caller('topups', 'sandbox', { fund: 1000 });
      const first = await topup(c, '08038000000'); // the other server's top-up copies its row; it warms the caches
      assert.equal(first.status, 200, first.text);
      const { accountId, clientId } = c.account;
      const principal = { accountId, environment: 'sandbox' as const, clientId, scopes: ['developer'] };
      const body = (number: string) => ({
        operatorId: 1001,
        amount: 10,
        recipientPhone: { countryCode: 'NG', number },
      });
      const [model] = (
        await sql<{
          cost: string;
        }>`SELECT cost::text FROM topup_transactions WHERE id = ${first.body.transactionId}`.execute(
          server.db.kysely,
        )
      ).rows;
      const before = server.runtime.services.ledger.batchStats();
      const { orders } = server.runtime.services.topups;
      // The other server's top-up to 08038000001, as its order path writes one, while ours wait for
      // the lock: placed in one turn, ours are one batch (or one top-up alone), whose checks before
      // the lock pass (the other top-up is not committed yet), so the check that finds it can only be
      // the one after the lock.
      const answers = await whileAnotherServerOrders({
        accountId,
        product: 'topups',
        cost: model.cost,
        writeRow: async (conn, debited) => {
          const [{ id }] = (
            await sql<{
              id: string;
            }>`SELECT nextval(pg_get_serial_sequence('topup_transactions', 'id'))::text AS id`.execute(conn)
          ).rows;
          await sql`
            INSERT INTO topup_transactions
            SELECT (json_populate_record(t, json_build_object(
              'id', ${id}::bigint, 'recipient_phone', left(t.recipient_phone, -1) || '1', 'custom_identifier', NULL,
              'old_balance', ${debited.old}::numeric, 'new_balance', ${debited.new}::numeric, 'created_at', now()))).*
            FROM topup_transactions t WHERE t.id = ${first.body.transactionId}`.execute(conn);
          return id;
        },
        ours: () => Promise.allSettled(variant.numbers.map((n) => orders.place(principal, body(n)))),
      });
      const { numbers } = variant;
      const after = server.runtime.services.ledger.batchStats();
      assert.deepEqual(
        answers.map((a) =>
          a.status === 'fulfilled' ? a.value.status : (a.reason as { code?: string }).code,
        ),
        variant.answers,
      );
      assert.equal(after.fallbacks, before.fallbacks + 1, 'the statement did not see the other top-up');
      const [{ n }] = (
        await sql<{ n: number }>`
        SELECT count(*)::int AS n FROM topup_transactions
        WHERE account_id = ${accountId} AND recipient_phone LIKE '%8038000001'`.execute(server.db.kysely)
      ).rows;
      assert.equal(n, 1, 'the number was topped up twice');
      // the refused batch kept nothing, its day's usage included (its COMMIT went behind the raise)
      const [usage] = (
        await sql<{ count: number }>`
        SELECT COALESCE(SUM(order_count), 0)::int AS count FROM daily_order_usage WHERE account_id = ${accountId}`.execute(
          server.db.kysely,
        )
      ).rows;
      assert.equal(usage.count, numbers.length, 'the first top-up and those placed once refused');
      assert.deepEqual(await server.admin.audit(), []);
      // the check sees what committed meanwhile only as a VOLATILE function (a snapshot per query)
      const [fn] = (
        await sql<{
          volatility: string;
        }>`SELECT provolatile AS volatility FROM pg_proc WHERE proname = 'topup_recipients_free'`.execute(
          server.db.kysely,
        )
      ).rows;
      assert.equal(fn.volatility, 'v');
    });
});

describe('a batch whose COMMIT answer is lost is never run again (PostgreSQL)', {
  skip: !available && 'PostgreSQL not reachable',
}, () => {
  for (const commitBehind of [true, false]) {
    test(`${commitBehind ? 'the COMMIT pipelined behind the last statement' : 'the COMMIT sent after the work'}`, async (t) => {
      const database = await createPostgresDatabase();
      const proxy = await startTcpProxy();
      proxy.setTarget(Number(new URL(database.url).port || 5432));
      const proxied = new URL(database.url);
      proxied.hostname = '127.0.0.1';
      proxied.port = String(proxy.port);
      const db = await openDatabase({ url: proxied.toString(), poolSize: 2 }, { guard: false });
      t.after(async () => {
        await db.close();
        await proxy.close();
        await database.drop();
      });
      await sql`CREATE TABLE commit_probe (id serial PRIMARY KEY, job int NOT NULL)`.execute(db.kysely);
      const commits = createGroupCommit(db.kysely, { commitBehind });
      // each job's one statement, gathered for the batch, and the last statement of its work
      const inserts = createGathering<number, number>({
        gathers: commits.inBatch,
        one: async (trx, job) =>
          (
            await commits.runLast(
              trx,
              sql<{ id: number }>`INSERT INTO commit_probe (job) VALUES (${job}) RETURNING id`,
              1,
            )
          ).rows[0].id,
        many: async (trx, jobs) =>
          (
            await commits.runLast(
              trx,
              sql<{ id: number }>`INSERT INTO commit_probe (job) SELECT unnest(${jobs}::int[]) RETURNING id`,
              jobs.length,
            )
          ).rows.map((r) => r.id),
      });
      const run = (job: number) =>
        commits.run({ accountId: 1, environment: 'sandbox' }, (trx: Kysely<Database>) =>
          inserts.run(trx, job),
        );

      // a batch that commits normally first: the connections are open, the statement prepared
      assert.equal((await Promise.all([1, 2, 3].map(run))).length, 3);
      proxy.loseAnswersAfter('COMMIT');
      const outcomes = await Promise.allSettled([11, 12, 13, 14, 15].map(run));
      for (const o of outcomes) {
        assert.equal(o.status, 'rejected', 'an order whose commit was not answered was told it succeeded');
        assert.equal((o.reason as { code?: string }).code, '08007', String(o.reason));
      }
      const stats = commits.stats();
      assert.equal(stats.fallbacks, 0, 'the batch was run again');
      if (commitBehind) assert.equal(stats.commitsBehind, 2);
      // the COMMIT did reach PostgreSQL: the batch is there, once
      const rows = await sql<{
        job: number;
      }>`SELECT job FROM commit_probe WHERE job > 10 ORDER BY job`.execute(db.kysely);
      assert.deepEqual(
        rows.rows.map((r) => r.job),
        [11, 12, 13, 14, 15],
      );
      if (!commitBehind) return;
      // an order alone: its COMMIT behind its one statement too, and never run again either
      proxy.loseAnswersAfter('COMMIT');
      const lone = await run(21).then(
        () => assert.fail('an order alone whose commit was not answered was told it succeeded'),
        (error: { code?: string }) => error,
      );
      assert.equal(lone.code, '08007', String(lone));
      assert.equal(commits.stats().commitsBehind, 3);
      assert.equal(commits.stats().fallbacks, 0);
      const alone = await sql<{
        n: number;
      }>`SELECT count(*)::int AS n FROM commit_probe WHERE job = 21`.execute(db.kysely);
      assert.equal(alone.rows[0].n, 1, 'the order alone was not committed once');

      // an order alone whose statement raised its refusal: run once more (where its refusal is its
      // answer) when the COMMIT behind it answered; never when the answers were lost (the refusal's
      // and the COMMIT's, which come back together): its outcome is unknown
      let runs = 0;
      const refused = () =>
        commits.run({ accountId: 2, environment: 'sandbox' }, async (trx: Kysely<Database>) => {
          runs++;
          return commits
            .runLast(trx, sql`SELECT refuse_batch('refused')`, 1)
            .catch((error: { code?: string }) => {
              throw error.code === 'AG001' ? new StatementRefused('refused') : error;
            });
        });
      const answered = await refused().then(
        () => assert.fail('a refused order succeeded'),
        (error: unknown) => error,
      );
      assert.ok(answered instanceof StatementRefused, String(answered));
      assert.equal(runs, 2, 'the refused order alone was not run once more');
      runs = 0;
      proxy.loseAnswersAfter('COMMIT');
      const lost = await refused().then(
        () => assert.fail('a refused order succeeded'),
        (error: { code?: string }) => error,
      );
      assert.equal(lost.code, '08007', String(lost));
      assert.equal(runs, 1, 'an order alone whose COMMIT answer was lost was run again');
    });
  }
});
