import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  accountOn,
  deploymentForSuite,
  queryDatabase,
  type ServerProcess,
} from '../harness/server-process.ts';
import { msUntil } from '../harness/until.ts';

// Two real server processes (src/main.ts) of one deployment on one PostgreSQL database, each keeping
// balances in memory (modules/ledger/balance-cache.ts). The promise (docs/decisions.md, "The balance
// read"): the server that made a change shows it at once; the other within 1 s, also when the change
// was made in the database by no server at all, and also when its listening connection was cut.
const suite = await deploymentForSuite(2);

async function newAccount(server: ServerProcess) {
  const { accountId, token } = await accountOn(server, { name: 'Balance' });
  return {
    accountId,
    balance: async (server: ServerProcess) => {
      const read = await server.http.call('GET', '/giftcards-sandbox/accounts/balance', {
        token,
      });
      assert.equal(read.status, 200, read.text);
      return read.body.balance as number;
    },
    order: (server: ServerProcess) =>
      server.http.call('POST', '/giftcards-sandbox/orders', {
        token,
        body: { productId: 11, quantity: 1, unitPrice: 10, senderName: 'T' },
      }),
    fund: (server: ServerProcess, amount: number) =>
      server.admin.call('POST', `/accounts/${accountId}/fund`, {
        environment: 'sandbox',
        amount,
        reason: 'two servers',
      }),
  };
}

/** The committed balance, read in the database itself. */
async function stored(server: ServerProcess, accountId: number) {
  const rows = await queryDatabase<{ balance: string }>(
    server.database,
    `SELECT balance::text AS balance FROM balances WHERE account_id = $1 AND environment = 'sandbox'`,
    [accountId],
  );
  return Number(rows[0].balance);
}

/** Milliseconds until `read` gives `expected`, polling every 10 ms for at most 5 s. */
const readsWithin = (read: () => Promise<number>, expected: number) =>
  msUntil(async () => (await read()) === expected, { everyMs: 10 });

test('a change made through one server: that one at once, the other within 1 s', {
  skip: suite.skip,
}, async () => {
  const [a, b] = suite.servers;
  const account = await newAccount(a);
  // Both keep the balance now.
  for (const s of [a, b, a, b]) assert.equal(await account.balance(s), 1000);

  for (const [writer, other, write] of [
    [a, b, () => account.order(a)],
    [b, a, () => account.fund(b, 25.5)],
    [a, b, () => account.fund(a, 0.01)],
    [b, a, () => account.order(b)],
  ] as const) {
    const answer = await write();
    assert.equal(answer.status, 200, answer.text);
    const expected = await stored(a, account.accountId);
    assert.equal(await account.balance(writer), expected, 'the writer reads its own write at once');
    const ms = await readsWithin(() => account.balance(other), expected);
    assert.ok(ms < 1000, `the other server read the new balance after ${ms} ms`);
  }

  // And both answer from memory: a change announced to no one (triggers off for that session) stays
  // unseen by both, until the next announced change of the row, which puts it right.
  const kept = await stored(a, account.accountId);
  await queryDatabase(
    a.database,
    `SET session_replication_role = replica;
     UPDATE balances SET balance = balance + 1 WHERE account_id = ${account.accountId} AND environment = 'sandbox'`,
  );
  await new Promise((r) => setTimeout(r, 300));
  for (const s of [a, b]) assert.equal(await account.balance(s), kept, 'read from memory');
  await queryDatabase(
    a.database,
    `UPDATE balances SET balance = balance - 1 WHERE account_id = $1 AND environment = 'sandbox'`,
    [account.accountId],
  );
  for (const s of [a, b]) assert.equal((await readsWithin(() => account.balance(s), kept)) < 1000, true);
});

test('a change made in the database by no server reaches both within 1 s', {
  skip: suite.skip,
}, async () => {
  const [a, b] = suite.servers;
  const account = await newAccount(a);
  for (const s of [a, b]) assert.equal(await account.balance(s), 1000);
  // An operator's correction in SQL (entry and balance together, as the ledger would).
  await queryDatabase(
    a.database,
    `WITH moved AS (UPDATE balances SET balance = balance + 5, updated_at = now()
                    WHERE account_id = $1 AND environment = 'sandbox' RETURNING balance, currency_code)
     INSERT INTO ledger_entries (account_id, environment, kind, amount, balance_after, currency_code, reason, created_at)
     SELECT $1, 'sandbox', 'ADJUSTMENT', 5, balance, currency_code, 'by hand', now() FROM moved`,
    [account.accountId],
  );
  for (const s of [a, b]) {
    const ms = await readsWithin(() => account.balance(s), 1005);
    assert.ok(ms < 1000, `a server read the corrected balance after ${ms} ms`);
  }
});

test('a server whose listening connection was cut never answers a missed change after 1 s', {
  skip: suite.skip,
}, async () => {
  const [a, b] = suite.servers;
  const account = await newAccount(a);
  for (const s of [a, b]) assert.equal(await account.balance(s), 1000);
  const cut = await queryDatabase<{ n: string }>(
    a.database,
    `SELECT count(pg_terminate_backend(pid))::text AS n FROM pg_stat_activity
     WHERE datname = current_database() AND application_name = 'airgift listener airgift_balances'`,
  );
  assert.equal(Number(cut[0].n), 2, 'one listening connection per server');
  // Announced while nobody listens: lost for both.
  assert.equal((await account.order(a)).status, 200);
  const expected = await stored(a, account.accountId);
  assert.equal(await account.balance(a), expected);
  const ms = await readsWithin(() => account.balance(b), expected);
  assert.ok(ms < 1000, `the server without its listener read the new balance after ${ms} ms`);
  // Listening again, and kept again: later changes are heard.
  const listening = await readsWithin(async () => {
    const rows = await queryDatabase<{ n: string }>(
      a.database,
      `SELECT count(*)::text AS n FROM pg_stat_activity
       WHERE datname = current_database() AND application_name = 'airgift listener airgift_balances'`,
    );
    return Number(rows[0].n);
  }, 2);
  assert.ok(listening < 3000, 'both servers listen again');
  assert.equal((await account.fund(a, 1)).status, 200);
  const again = await readsWithin(() => account.balance(b), expected + 1);
  assert.ok(again < 1000, `after reconnecting, the other server read the new balance after ${again} ms`);
});
