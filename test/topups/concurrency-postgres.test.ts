import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import Pg from 'pg';
import { postgresForTests, startTestServer, type TestServer } from '../harness/server.ts';
import { ADMIN_PG_URL, withDatabase } from '../harness/templates.ts';
import { until } from '../harness/until.ts';
import { sandboxCaller } from './helpers.ts';

// On the real PostgreSQL server: 100 concurrent top-ups from an account that can afford 40 give
// exactly 40 transactions and 40 debits; balance == sum of entries; never below zero.
const pg = await postgresForTests();

let server: TestServer;
before(async () => {
  if (pg) server = await startTestServer({ database: 'postgres' });
});
after(() => server?.close());

test('100 concurrent top-ups that can afford 40 -> exactly 40', {
  skip: !pg && 'PostgreSQL not reachable',
}, async () => {
  // MTN Nigeria, 6% international discount: a 10.00 top-up costs 9.40; 376.00 pays for exactly 40.
  const c = await sandboxCaller(server, { fund: '376.00' });
  const answers = await Promise.all(
    Array.from({ length: 100 }, (_, i) =>
      c.post('/topups', {
        operatorId: 1001,
        amount: 10,
        customIdentifier: `load-${i}`,
        recipientPhone: { countryCode: 'NG', number: `0803${String(5000000 + i)}` },
      }),
    ),
  );
  const ok = answers.filter((a) => a.status === 200);
  assert.equal(ok.length, 40);
  const refused = answers.filter((a) => a.status !== 200);
  assert.ok(refused.every((a) => a.status === 403 && a.body.errorCode === 'INSUFFICIENT_BALANCE'));
  assert.equal((await c.get('/accounts/balance')).body.balance, 0);
  const rows = await sql<{ n: string; debits: string }>`
    SELECT (SELECT count(*) FROM topup_transactions WHERE account_id = ${c.account.accountId})::text AS n,
           (SELECT count(*) FROM ledger_entries WHERE account_id = ${c.account.accountId} AND kind = 'ORDER_DEBIT')::text AS debits`.execute(
    server.db.kysely,
  );
  assert.deepEqual(rows.rows[0], { n: '40', debits: '40' });
  assert.deepEqual(await server.admin.audit(), []);
});

test('concurrent sends to one number: one top-up, the rest PHONE_RECENTLY_RECHARGED', {
  skip: !pg && 'PostgreSQL not reachable',
}, async () => {
  const c = await sandboxCaller(server, { fund: 1000 });
  const answers = await Promise.all(
    Array.from({ length: 10 }, () =>
      c.post('/topups', {
        operatorId: 1001,
        amount: 10,
        recipientPhone: { countryCode: 'NG', number: '08039999000' },
      }),
    ),
  );
  assert.equal(answers.filter((a) => a.status === 200).length, 1);
  assert.ok(
    answers.filter((a) => a.status !== 200).every((a) => a.body.errorCode === 'PHONE_RECENTLY_RECHARGED'),
  );
  assert.deepEqual(await server.admin.audit(), []);
});

test('a retry that waited for the account while its twin committed hears CUSTOM_IDENTIFIER_ALREADY_USED, not that the money is gone', {
  skip: !pg && 'PostgreSQL not reachable',
}, async () => {
  // two top-ups of 10.00 at 9.40 each
  const c = await sandboxCaller(server, { fund: '18.80' });
  const accountId = c.account.accountId;
  const send = (customIdentifier: string, number: string) =>
    c.post('/topups', {
      operatorId: 1001,
      amount: 10,
      customIdentifier,
      recipientPhone: { countryCode: 'NG', number },
    });
  const first = await send('first', '08036100001');
  assert.equal(first.status, 200, first.text);
  // The twin: another process's top-up with the same customIdentifier, in flight. Its transaction
  // holds the balance row and takes the rest of the money; it commits while the retry waits.
  const { rows: named } = await sql<{ name: string }>`SELECT current_database() AS name`.execute(
    server.db.kysely,
  );
  const twin = new Pg.Client({ connectionString: withDatabase(ADMIN_PG_URL, named[0].name) });
  await twin.connect();
  try {
    await twin.query('BEGIN');
    // a top-up as a process writes it: its row, the balance, and its ORDER_DEBIT entry (the ledger audit holds)
    const { rows: twinIds } = await twin.query(
      `SELECT nextval(pg_get_serial_sequence('topup_transactions', 'id')) AS id`,
    );
    await twin.query(
      `UPDATE balances SET balance = balance - 9.40 WHERE account_id = $1 AND environment = 'sandbox'`,
      [accountId],
    );
    await twin.query(
      `INSERT INTO ledger_entries
         (account_id, environment, kind, amount, balance_after, currency_code, reason, product, transaction_id)
       VALUES ($1, 'sandbox', 'ORDER_DEBIT', -9.40, 0, 'USD', 'the twin', 'topups', $2)`,
      [accountId, twinIds[0].id],
    );
    await twin.query(
      `INSERT INTO topup_transactions
       SELECT (jsonb_populate_record(t, jsonb_build_object(
                'id', $2::bigint, 'custom_identifier', 'twin', 'recipient_phone', '2348036100002'))).*
       FROM topup_transactions t WHERE id = $1`,
      [first.body.transactionId, twinIds[0].id],
    );
    const retry = send('twin', '08036100003');
    // its customIdentifier was free when it looked; now it waits for the balance row
    await until('the retry to wait for the balance row', async () => {
      const { rows } = await twin.query(
        `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
      );
      return rows.length > 0;
    });
    await twin.query('COMMIT');
    const answer = await retry;
    assert.equal(answer.status, 400, answer.text);
    assert.equal(answer.body.errorCode, 'CUSTOM_IDENTIFIER_ALREADY_USED');
  } finally {
    await twin.end();
  }
  assert.equal((await c.get('/accounts/balance')).body.balance, 0);
  assert.deepEqual(await server.admin.audit(), []);
});
