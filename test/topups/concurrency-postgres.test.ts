import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { postgresForTests, startTestServer, type TestServer } from '../harness/server.ts';
import { retryAgainstTwin } from '../harness/twin-order.ts';

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
  const c = await server.caller('topups', 'sandbox', { fund: '376.00' });
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
  const c = await server.caller('topups', 'sandbox', { fund: 1000 });
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
  const c = await server.caller('topups', 'sandbox', { fund: '18.80' });
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
  const answer = await retryAgainstTwin(
    server,
    {
      product: 'topups',
      accountId,
      price: '9.40',
      copyOf: first.body.transactionId,
      columns: { custom_identifier: 'twin', recipient_phone: '2348036100002' },
    },
    () => send('twin', '08036100003'),
  );
  assert.equal(answer.status, 400, answer.text);
  assert.equal(answer.body.errorCode, 'CUSTOM_IDENTIFIER_ALREADY_USED');
  assert.equal((await c.get('/accounts/balance')).body.balance, 0);
  assert.deepEqual(await server.admin.audit(), []);
});
