import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import pg from 'pg';
import { AUDIENCES } from '../harness/client.ts';
import { postgresForTests } from '../harness/server.ts';
import { queryDatabase, type ServerProcess, startServerProcess } from '../harness/server-process.ts';
import { ADMIN_PG_URL } from '../harness/templates.ts';
import { sleep } from '../harness/until.ts';

// SIGTERM to the real server process (src/main.ts): it drains, and it always ends, even when its
// stdout reader goes away at the same moment or a request never finishes; a second signal ends it
// at once. Each test starts its own server; cleanup kills it by pid if a test left it running.
const postgres = await postgresForTests();
const skip = !postgres && 'PostgreSQL not reachable';
const GIFTCARDS = { accept: 'application/com.reloadly.giftcards-v1+json' };

const servers: ServerProcess[] = [];
after(async () => {
  for (const s of servers) await s.cleanup();
});

async function start(env: Record<string, string> = {}) {
  const server = await startServerProcess(env);
  servers.push(server);
  return server;
}

/** Resolves with the exit, or rejects when the process is still running `ms` later. */
async function exitWithin(server: ServerProcess, ms: number) {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still running ${ms} ms after the signal`)), ms);
  });
  try {
    return await Promise.race([server.exited, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Holds the row lock of the account's sandbox balance in a transaction of the test's own, so that
 * an order (whose debit locks that row) stays in flight until `release()`.
 */
async function holdBalance(server: ServerProcess) {
  const u = new URL(ADMIN_PG_URL);
  u.pathname = `/${server.database}`;
  const client = new pg.Client({ connectionString: u.toString() });
  await client.connect();
  await client.query('BEGIN');
  await client.query(
    `SELECT balance FROM balances WHERE account_id = $1 AND environment = 'sandbox' FOR UPDATE`,
    [server.credentials.accountId],
  );
  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      await client.query('ROLLBACK').catch(() => undefined);
      await client.end().catch(() => undefined);
    },
  };
}

/** An order that waits on the held balance row; resolves with its status or the socket error. */
async function orderInFlight(server: ServerProcess, token: string, customIdentifier: string) {
  let connection: string | string[] | undefined;
  const answer = server.http
    .post(
      '/giftcards-sandbox/orders',
      { productId: 11, quantity: 1, unitPrice: 10, senderName: 'Ada', customIdentifier },
      { token, headers: GIFTCARDS },
    )
    .then(
      (a) => {
        connection = a.headers.connection;
        return a.status;
      },
      (error: Error) => error.message,
    );
  // Wait until its transaction is blocked on the lock.
  for (let i = 0; i < 50; i++) {
    const [row] = await queryDatabase<{ n: number }>(
      server.database,
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
    );
    // `connection`: the answer's Connection header, once answered
    if (row.n > 0) return { answer, connection: () => connection };
    await sleep(50);
  }
  throw new Error('the order never waited on the lock');
}

test('SIGTERM under load while the stdout reader goes away: exits 0 within 10 s', {
  skip,
  timeout: 60_000,
}, async (t) => {
  // A log line per request: stdout is busy. Unlimited: a third of the load is token requests of one
  // client, as many as the machine can take (every answer must be a 200).
  const server = await start({
    LOG_LEVEL: 'info',
    RATE_LIMIT_TOKEN_REQUESTS: '0',
    RATE_LIMIT_API_REQUESTS: '0',
  });
  const token = await server.token(AUDIENCES.giftcardsSandbox);
  assert.equal((await server.http.get('/ready')).status, 200);

  let loading = true;
  const statuses: number[] = [];
  let refused = 0;
  const load = Array.from({ length: 32 }, async () => {
    for (let i = 0; loading; i++) {
      // Orders, reads, and token requests, whose scrypt keeps libuv's thread pool (and with it the
      // log writes' completions) busy: the way the issue's server was left hanging.
      const sent =
        i % 3 === 0
          ? server.http.post(
              '/giftcards-sandbox/orders',
              { productId: 11, quantity: 1, unitPrice: 10, senderName: 'Ada' },
              { token, headers: GIFTCARDS },
            )
          : i % 3 === 1
            ? server.http.post('/auth/oauth/token', {
                client_id: server.credentials.clientId,
                client_secret: server.credentials.clientSecret,
                grant_type: 'client_credentials',
                audience: AUDIENCES.giftcardsSandbox,
              })
            : server.http.get('/giftcards-sandbox/accounts/balance', { token, headers: GIFTCARDS });
      await sent.then(
        (a) => statuses.push(a.status),
        () => {
          refused++; // the listener is closed: the connection is refused or closed
        },
      );
      if (refused > 0) await sleep(20);
    }
  });
  // The load stops whatever happens, so a failing assertion never leaves its loops running.
  t.after(() => {
    loading = false;
  });
  // Under load from other test files the first answers can take seconds: wait for them (bounded).
  const loadStarted = performance.now();
  while (statuses.length <= 20 && performance.now() - loadStarted < 20_000) await sleep(100);
  assert.ok(statuses.length > 20, `only ${statuses.length} answers under load`);

  const signalledAt = performance.now();
  server.child.stdout?.destroy();
  server.child.kill('SIGTERM');
  const exit = await exitWithin(server, 10_000);
  const exitMs = exit.at - signalledAt;
  loading = false;
  await Promise.all(load);

  assert.equal(exit.code, 0, `exit ${exit.code} ${exit.signal}\n${server.output().slice(-2000)}`);
  assert.ok(exitMs < 10_000);
  // What was answered was answered properly: no 5xx while draining.
  assert.deepEqual(
    statuses.filter((s) => s !== 200),
    [],
  );
  t.diagnostic(
    `exited ${Math.round(exitMs)} ms after SIGTERM, ${statuses.length} answers, ${refused} refused after it`,
  );
});

test('a stdout reader that stops reading: requests still answered, SIGTERM exits within 10 s', {
  skip,
  timeout: 60_000,
}, async (t) => {
  const server = await start({ LOG_LEVEL: 'info' });
  const token = await server.token(AUDIENCES.giftcardsSandbox);
  server.child.stdout?.pause(); // the pipe fills up (64 KiB) and stays full
  // Two log lines per request: far more than the pipe holds. Logging must never hold a request.
  const started = performance.now();
  for (let round = 0; round < 20; round++) {
    const answers = await Promise.all(
      Array.from({ length: 25 }, () =>
        server.http.get('/giftcards-sandbox/accounts/balance', { token, headers: GIFTCARDS }),
      ),
    );
    assert.ok(answers.every((a) => a.status === 200));
  }
  const loadMs = performance.now() - started;
  const signalledAt = performance.now();
  server.child.kill('SIGTERM');
  const exit = await exitWithin(server, 10_000);
  assert.equal(exit.code, 0);
  t.diagnostic(
    `500 requests in ${Math.round(loadMs)} ms with stdout unread; exited ${Math.round(exit.at - signalledAt)} ms after SIGTERM`,
  );
});

test('SIGTERM drains: a request in flight is answered, then the process exits 0', {
  skip,
  timeout: 60_000,
}, async () => {
  const server = await start();
  const token = await server.token(AUDIENCES.giftcardsSandbox);
  const lock = await holdBalance(server);
  try {
    const { answer, connection } = await orderInFlight(server, token, 'drained-order');
    server.child.kill('SIGTERM');
    await sleep(1000);
    assert.equal(server.child.exitCode, null, 'exited before the request in flight was answered');
    await lock.release();
    assert.equal(await answer, 200);
    // the answer of a request in flight at the signal tells its client not to send another on it
    assert.equal(connection(), 'close');
    const exit = await exitWithin(server, 5000);
    assert.equal(exit.code, 0);
  } finally {
    await lock.release();
  }
  const rows = await queryDatabase(
    server.database,
    `SELECT status FROM giftcard_transactions WHERE custom_identifier = 'drained-order'`,
  );
  assert.equal(rows.length, 1);
});

test('a request that outlasts SHUTDOWN_GRACE_SECONDS is cut: exit in time, nothing written, no money moved', {
  skip,
  timeout: 60_000,
}, async (t) => {
  const server = await start({ SHUTDOWN_GRACE_SECONDS: '1' });
  const token = await server.token(AUDIENCES.giftcardsSandbox);
  const [before] = await queryDatabase<{ balance: string }>(
    server.database,
    `SELECT balance::text FROM balances WHERE account_id = $1 AND environment = 'sandbox'`,
    [server.credentials.accountId],
  );
  const lock = await holdBalance(server);
  try {
    const { answer } = await orderInFlight(server, token, 'cut-order');
    const signalledAt = performance.now();
    server.child.kill('SIGTERM');
    // grace 1 s, then each shutdown step is bounded (1.5 s); the hard deadline is grace + 5 s
    const exit = await exitWithin(server, 7000);
    const exitMs = exit.at - signalledAt;
    assert.ok(exitMs >= 1000, `exited after ${exitMs} ms, before the grace was over`);
    // the database's close ended the cut order's backend rather than waiting out its step's 1.5 s
    assert.ok(exitMs < 2400, `exited after ${Math.round(exitMs)} ms: a shutdown step ran out of time`);
    assert.equal(exit.code, 1, 'a shutdown that had to cut a request is not a clean one');
    assert.notEqual(await answer, 200);
    t.diagnostic(
      `exited ${Math.round(exitMs)} ms after SIGTERM with a request stuck (grace 1 s), code ${exit.code}`,
    );
  } finally {
    await lock.release();
  }
  const rows = await queryDatabase(
    server.database,
    `SELECT id FROM giftcard_transactions WHERE custom_identifier = 'cut-order'`,
  );
  assert.equal(rows.length, 0, 'the cut order was recorded');
  const [afterwards] = await queryDatabase<{ balance: string; entries: number }>(
    server.database,
    `SELECT b.balance::text,
            (SELECT count(*)::int FROM ledger_entries e WHERE e.account_id = b.account_id AND e.kind = 'ORDER_DEBIT') AS entries
       FROM balances b WHERE account_id = $1 AND environment = 'sandbox'`,
    [server.credentials.accountId],
  );
  assert.equal(afterwards.balance, before.balance);
  assert.equal(afterwards.entries, 0);
});

test('a second SIGTERM exits at once', { skip, timeout: 60_000 }, async (t) => {
  const server = await start(); // grace 10 s: the first signal alone would wait for the request
  const token = await server.token(AUDIENCES.giftcardsSandbox);
  const lock = await holdBalance(server);
  try {
    const { answer } = await orderInFlight(server, token, 'second-signal');
    server.child.kill('SIGTERM');
    await sleep(300);
    assert.equal(server.child.exitCode, null);
    const secondAt = performance.now();
    server.child.kill('SIGTERM');
    const exit = await exitWithin(server, 1000);
    assert.equal(exit.code, 143);
    assert.notEqual(await answer, 200);
    t.diagnostic(`exited ${Math.round(exit.at - secondAt)} ms after the second SIGTERM`);
  } finally {
    await lock.release();
  }
});
