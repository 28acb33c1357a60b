import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { postgresForTests, startTestServer, type TestServer } from '../harness/server.ts';

// decisions §5: balance == sum of its ledger entries, always; never below zero; entries append-only.
async function ledgerSum(server: TestServer, accountId: number, environment = 'sandbox') {
  const row = await sql<{ sum: string; balance: string }>`
    SELECT COALESCE((SELECT SUM(amount) FROM ledger_entries WHERE account_id = ${accountId} AND environment = ${environment}), 0)::text AS sum,
           (SELECT balance FROM balances WHERE account_id = ${accountId} AND environment = ${environment})::text AS balance`.execute(
    server.db.kysely,
  );
  return { sum: Number(row.rows[0].sum), balance: Number(row.rows[0].balance) };
}

describe('ledger on PGlite', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  test('funding and adjusting write one entry each and keep balance == sum of entries', async () => {
    const account = await server.admin.createAccount({ fund: '100.10' });
    const id = account.accountId;
    const steps: [string, string][] = [
      ['fund', '50.25'],
      ['adjust', '-20.35'],
      ['adjust', '5'],
    ];
    for (const [action, amount] of steps) {
      const answer = await server.admin.call('POST', `/accounts/${id}/${action}`, {
        environment: 'sandbox',
        amount,
        reason: `test ${action}`,
      });
      assert.equal(answer.status, 200);
    }
    const { sum, balance } = await ledgerSum(server, id);
    assert.equal(balance, 135);
    assert.equal(sum, balance);
    const entries = await server.admin.call('GET', `/accounts/${id}/ledger?environment=sandbox`);
    assert.deepEqual(
      entries.body.items.map((e: any) => [e.kind, e.amount, e.balanceAfter]),
      [
        ['ADJUSTMENT', 5, 135],
        ['ADJUSTMENT', -20.35, 130],
        ['FUNDING', 50.25, 150.35],
        ['FUNDING', 100.1, 100.1],
      ],
    );
    assert.deepEqual(await server.admin.audit(), []);
  });

  test('an adjustment below zero is refused with INSUFFICIENT_BALANCE and writes nothing', async () => {
    const account = await server.admin.createAccount({ fund: 10 });
    const answer = await server.admin.call('POST', `/accounts/${account.accountId}/adjust`, {
      environment: 'sandbox',
      amount: '-10.01',
      reason: 'too much',
    });
    assert.equal(answer.status, 403);
    assert.equal(answer.body.errorCode, 'INSUFFICIENT_BALANCE');
    assert.deepEqual(await ledgerSum(server, account.accountId), { sum: 10, balance: 10 });
  });

  test('the balances of the two environments are separate', async () => {
    const account = await server.admin.createAccount({ fund: 10 });
    await server.admin.fund(account.accountId, 7, 'live');
    const shown = await server.admin.call('GET', `/accounts/${account.accountId}`);
    assert.equal(shown.body.balances.sandbox.balance, 10);
    assert.equal(shown.body.balances.live.balance, 7);
  });

  test('the database refuses to change or delete a ledger entry', async () => {
    const account = await server.admin.createAccount({ fund: 10 });
    await assert.rejects(
      sql`UPDATE ledger_entries SET amount = 1000 WHERE account_id = ${account.accountId}`.execute(
        server.db.kysely,
      ),
      /append-only/,
    );
    await assert.rejects(
      sql`DELETE FROM ledger_entries WHERE account_id = ${account.accountId}`.execute(server.db.kysely),
      /append-only/,
    );
  });

  test('the database refuses a negative balance even from a direct write', async () => {
    const account = await server.admin.createAccount({ fund: 10 });
    await assert.rejects(
      sql`UPDATE balances SET balance = -1 WHERE account_id = ${account.accountId}`.execute(server.db.kysely),
      /check constraint/,
    );
  });
});

describe('ledger under concurrency on PostgreSQL', async () => {
  const available = await postgresForTests();
  let server: TestServer;
  before(async () => {
    if (available) server = await startTestServer({ database: 'postgres' });
  });
  after(() => server?.close());

  test('50 concurrent fund/adjust calls on one account keep balance == sum and never go below zero', {
    skip: !available && 'PostgreSQL not reachable',
  }, async () => {
    const account = await server.admin.createAccount({ fund: 100 });
    const id = account.accountId;
    // 25 fundings of 1.10 and 25 withdrawals of 5.00: the withdrawals can't all succeed on 100 + 27.50.
    const calls = Array.from({ length: 50 }, (_, i) =>
      i % 2 === 0
        ? server.admin.call('POST', `/accounts/${id}/fund`, {
            environment: 'sandbox',
            amount: '1.10',
            reason: `f${i}`,
          })
        : server.admin.call('POST', `/accounts/${id}/adjust`, {
            environment: 'sandbox',
            amount: '-5.00',
            reason: `a${i}`,
          }),
    );
    const answers = await Promise.all(calls);
    for (const a of answers)
      assert.ok(
        a.status === 200 || (a.status === 403 && a.body.errorCode === 'INSUFFICIENT_BALANCE'),
        a.text,
      );
    const okFund = answers.filter((a, i) => i % 2 === 0 && a.status === 200).length;
    const okAdjust = answers.filter((a, i) => i % 2 === 1 && a.status === 200).length;
    assert.equal(okFund, 25);
    const { sum, balance } = await ledgerSum(server, id);
    assert.equal(sum, balance);
    assert.ok(balance >= 0);
    assert.equal(Math.round(balance * 100), Math.round((100 + okFund * 1.1 - okAdjust * 5) * 100));
    assert.deepEqual(await server.admin.audit(), []);
  });

  test('a withdrawal race on a small balance lets exactly the affordable ones through', {
    skip: !available && 'PostgreSQL not reachable',
  }, async () => {
    const account = await server.admin.createAccount({ fund: 30 });
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        server.admin.call('POST', `/accounts/${account.accountId}/adjust`, {
          environment: 'sandbox',
          amount: '-1',
          reason: `w${i}`,
        }),
      ),
    );
    assert.equal(answers.filter((a) => a.status === 200).length, 30);
    assert.deepEqual(await ledgerSum(server, account.accountId), { sum: 0, balance: 0 });
  });
});
