import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { sql } from 'kysely';
import { ERROR_CODES } from '../../src/errors/error-codes.ts';
import { ADMIN_KEY, AUDIENCES } from '../harness/client.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';
import { type FuzzCredentials, type FuzzRequest, requestFor, tokenRequests } from './fuzz-requests.ts';
import { type Operation, operationsOf, PRODUCT_ACCEPT } from './operations.ts';

/**
 * Generated bad requests against every operation of every base's published OpenAPI document, sent
 * in-process (`app.inject`, through a trusted proxy that says HTTPS). Every answer: no 5xx; every
 * error in the envelope with a catalogue code and that code's status (OAuth's form on the token
 * endpoint); no answer echoes a token, secret or the admin key; and a rejected request changes no
 * state (every table's contents hashed before and after). FUZZ_RUNS sets the count (default 1,500;
 * the README's figures come from FUZZ_RUNS=100000), FUZZ_SEED the seed.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 1500);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const BATCH = 250;
const OAUTH_ERRORS = new Set([
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'invalid_scope',
  'invalid_target',
  'too_many_requests',
]);
const ENVELOPE_KEYS = ['details', 'errorCode', 'infoLink', 'message', 'path', 'timeStamp'].join();
/** Operations whose every answer is the whole catalogue (or database): drawn a tenth as often, for speed. */
const HEAVY = new Set([
  'admin GET /catalog/export',
  'admin GET /backup',
  'giftcards GET /redeem-instructions',
  'giftcards GET /product-categories',
]);
const READ_ONLY = new Set(['GET', 'HEAD', 'OPTIONS']);

let server: TestServer;
let ops: Operation[];
let credentials: FuzzCredentials;
let secrets: string[];

before(async () => {
  server = await startTestServer({
    env: {
      TRUSTED_PROXIES: '127.0.0.1',
      RATE_LIMIT_API_REQUESTS: '0',
      RATE_LIMIT_TOKEN_REQUESTS: '0',
      RATE_LIMIT_ADMIN_FAILURES: '0',
    },
  });
  const caller = await server.admin.createAccount({ fund: 1_000_000 });
  const victim = await server.admin.createAccount({ fund: 100 });
  const giftcards = await server.admin.token(caller, AUDIENCES.giftcardsSandbox);
  const topups = await server.admin.token(caller, AUDIENCES.topupsSandbox);
  ops = [
    ...(await operationsOf(server.http, '/giftcards-sandbox', 'giftcards')),
    ...(await operationsOf(server.http, '/topups-sandbox', 'topups')),
    ...(await operationsOf(server.http, '/admin', 'admin')),
  ];
  credentials = {
    authorization: {
      giftcards: `Bearer ${giftcards}`,
      topups: `Bearer ${topups}`,
      admin: `Bearer ${ADMIN_KEY}`,
    },
    clientId: caller.clientId,
    clientSecret: caller.clientSecret,
    prefix: { giftcards: '/giftcards-sandbox', topups: '/topups-sandbox', admin: '/admin', auth: '/auth' },
    accept: Object.fromEntries(Object.entries(PRODUCT_ACCEPT).map(([k, v]) => [k, v.accept as string])),
    samples: { accountId: String(victim.accountId), clientId: 'ag_test_not_a_client' },
  };
  secrets = [giftcards, topups, caller.clientSecret, victim.clientSecret, ADMIN_KEY];
  assert.ok((await countRowChanges()) >= 15);
});
after(() => server?.close());

/**
 * Counts every row written to any table (a row trigger on each, test database only): equal counts
 * before and after a request mean it changed nothing. A write rolled back with its transaction rolls
 * its count back too, so only changes that stayed are seen. The API request log is a record of the
 * requests, rejected ones included, written in batches later: not state.
 */
async function countRowChanges() {
  const db = server.db.kysely;
  const tables = await sql<{ name: string }>`
    SELECT table_name AS name FROM information_schema.tables
    WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name NOT IN ('api_request_log', 'api_request_reads')`.execute(
    db,
  );
  await sql`CREATE TABLE fuzz_row_changes (table_name text PRIMARY KEY, n bigint NOT NULL DEFAULT 0)`.execute(
    db,
  );
  await sql`CREATE FUNCTION fuzz_count_row() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO fuzz_row_changes (table_name, n) VALUES (TG_TABLE_NAME, 1)
      ON CONFLICT (table_name) DO UPDATE SET n = fuzz_row_changes.n + 1;
      RETURN NULL;
    END $$`.execute(db);
  for (const { name } of tables.rows) {
    await sql`CREATE TRIGGER fuzz_count_row AFTER INSERT OR UPDATE OR DELETE ON ${sql.table(name)}
      FOR EACH ROW EXECUTE FUNCTION fuzz_count_row()`.execute(db);
  }
  return tables.rows.length;
}

async function stateFingerprint(): Promise<string> {
  const result = await sql<{ s: string | null }>`
    SELECT string_agg(table_name || '=' || n, ',' ORDER BY table_name) AS s FROM fuzz_row_changes`.execute(
    server.db.kysely,
  );
  return result.rows[0]?.s ?? '';
}

interface Failure {
  label: string;
  request: FuzzRequest;
  status: number;
  problem: string;
  body: string;
}

function checkAnswer(req: FuzzRequest, status: number, body: string, isAuth: boolean): string | null {
  if (status >= 500) return `status ${status}`;
  for (const secret of secrets) if (body.includes(secret)) return 'the answer echoes a secret';
  if (status < 400 || req.method === 'HEAD') return null;
  let parsed: any;
  try {
    parsed = JSON.parse(body);
  } catch {
    return 'the error body is not JSON';
  }
  if (isAuth && typeof parsed?.error === 'string') {
    if (!OAUTH_ERRORS.has(parsed.error)) return `unknown OAuth error ${parsed.error}`;
    return typeof parsed.error_description === 'string' ? null : 'OAuth error without error_description';
  }
  if (
    Object.keys(parsed ?? {})
      .sort()
      .join() !== ENVELOPE_KEYS
  )
    return `not the envelope: ${Object.keys(parsed ?? {})}`;
  const info = ERROR_CODES[parsed.errorCode as keyof typeof ERROR_CODES];
  if (!info) return `undocumented code ${parsed.errorCode}`;
  if (info.status !== status)
    return `${parsed.errorCode} answered ${status}, the catalogue says ${info.status}`;
  if (!String(parsed.infoLink).endsWith(`#${parsed.errorCode}`)) return 'infoLink does not name the code';
  if (
    !Array.isArray(parsed.details) ||
    typeof parsed.message !== 'string' ||
    typeof parsed.timeStamp !== 'number'
  )
    return 'envelope fields of the wrong type';
  return null;
}

test(`${RUNS} generated bad requests: no 5xx, every error documented, no state change from a rejected one`, async (t) => {
  const started = Date.now();
  const arbitrary = fc.oneof(
    ...ops.map((op) => ({
      weight: HEAVY.has(`${op.kind} ${op.key}`) ? 2 : 10,
      arbitrary: requestFor(op, credentials),
    })),
    {
      weight: 30,
      arbitrary: tokenRequests(credentials, [
        AUDIENCES.giftcardsSandbox,
        AUDIENCES.topupsSandbox,
        AUDIENCES.giftcardsLive,
      ]),
    },
  );
  const failures: Failure[] = [];
  const statuses = new Map<number, number>();
  const perOperation = new Map<string, number>();
  let sent = 0;
  let unsendable = 0;
  let stateChecks = 0;
  let stateChanges = 0;
  let envelopeFailures = 0;
  let fiveHundreds = 0;
  let last = await stateFingerprint();
  for (let batch = 0; sent + unsendable < RUNS; batch++) {
    const requests = fc.sample(arbitrary, {
      numRuns: Math.min(BATCH, RUNS - sent - unsendable),
      seed: SEED + batch,
    });
    for (const req of requests) {
      const isAuth = req.url.startsWith('/auth/');
      let response: { statusCode: number; body: string };
      try {
        response = await server.app.inject({
          method: req.method as 'GET',
          url: req.url,
          headers: req.headers,
          ...(req.payload !== undefined ? { payload: req.payload } : {}),
        });
      } catch (error) {
        // light-my-request refuses what no HTTP client could send either (a header value with a
        // control character, say); counted apart, never a server failure.
        unsendable++;
        if (!/Invalid character|invalid|ERR_/i.test(String(error))) throw error;
        continue;
      }
      sent++;
      // The long run says how far it is (and what it found so far) every 10,000 requests.
      if (process.env.FUZZ_REPORT && sent % 10_000 === 0) {
        const s = (Date.now() - started) / 1000;
        console.log(JSON.stringify({ sent, fiveHundreds, envelopeFailures, stateChanges, seconds: s }));
      }
      const key = req.label.split(' | ')[0] as string;
      perOperation.set(key, (perOperation.get(key) ?? 0) + 1);
      statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
      const problem = checkAnswer(req, response.statusCode, response.body, isAuth);
      if (problem) {
        if (response.statusCode >= 500) fiveHundreds++;
        else envelopeFailures++;
        failures.push({
          label: req.label,
          request: req,
          status: response.statusCode,
          problem,
          body: response.body.slice(0, 300),
        });
      }
      if (!READ_ONLY.has(req.method) || sent % 100 === 0) {
        const now = await stateFingerprint();
        if (response.statusCode >= 400 || READ_ONLY.has(req.method)) {
          stateChecks++;
          if (now !== last) {
            stateChanges++;
            failures.push({
              label: req.label,
              request: req,
              status: response.statusCode,
              problem: 'a rejected request changed the state',
              body: response.body.slice(0, 300),
            });
          }
        }
        last = now;
      }
    }
  }
  const seconds = (Date.now() - started) / 1000;
  const summary = {
    seed: SEED,
    requests: sent,
    unsendable,
    operations: perOperation.size,
    fiveHundreds,
    envelopeFailures,
    stateChecks,
    stateChanges,
    seconds,
    statuses: Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])),
  };
  t.diagnostic(JSON.stringify(summary));
  if (process.env.FUZZ_REPORT) console.log(JSON.stringify(summary));
  const shown = failures
    .slice(0, 10)
    .map(
      (f) =>
        `${f.problem}: ${f.request.method} ${f.request.url.slice(0, 200)}\n  ${f.label}\n  -> ${f.status} ${f.body}`,
    );
  assert.equal(failures.length, 0, `seed ${SEED}:\n${shown.join('\n')}`);
  // Every published operation (and the token endpoint) was exercised (a short run may miss a rare one).
  if (RUNS >= 2000)
    assert.equal(
      perOperation.size,
      ops.length + 1,
      `operations reached: ${perOperation.size} of ${ops.length + 1}`,
    );
  assert.ok(
    statuses.has(200) && statuses.has(400) && statuses.has(401),
    'both accepted and refused requests',
  );
});

test('regressions the full run found: an id above 2^31-1 for an integer column is a 400, not a 500', async () => {
  for (const path of ['/admin/products/2147483648/deactivate', '/admin/products/2147483648/activate']) {
    const answer = await server.app.inject({
      method: 'POST',
      url: path,
      headers: { host: 'localhost', 'x-forwarded-proto': 'https', authorization: `Bearer ${ADMIN_KEY}` },
    });
    assert.equal(answer.statusCode, 400, answer.body);
    assert.equal(JSON.parse(answer.body).errorCode, 'INVALID_REQUEST');
  }
});

test('regressions the default run found: an FX rate that rounds to 0 in the table (12 decimals) is a 400, not a 500', async () => {
  for (const unitsPerUsd of ['0.0000000000001', 1e-13]) {
    const answer = await server.app.inject({
      method: 'PUT',
      url: '/admin/fx-rates/EUR',
      headers: { host: 'localhost', 'x-forwarded-proto': 'https', authorization: `Bearer ${ADMIN_KEY}` },
      payload: { unitsPerUsd },
    });
    assert.equal(answer.statusCode, 400, answer.body);
    assert.equal(JSON.parse(answer.body).details[0].field, 'unitsPerUsd');
  }
});

test('regressions the default run found (seed 385927945): a client_id with a NUL byte is invalid_client, not a 500', async () => {
  const answer = await server.app.inject({
    method: 'POST',
    url: '/auth/oauth/token',
    headers: {
      host: 'localhost',
      'x-forwarded-proto': 'https',
      'content-type': 'application/x-www-form-urlencoded',
    },
    payload: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: 'a\u0000b',
      client_secret: 'not the secret',
      audience: 'https://localhost/giftcards-sandbox',
    }).toString(),
  });
  assert.equal(answer.statusCode, 401, answer.body);
  assert.equal(JSON.parse(answer.body).error, 'invalid_client');
});
