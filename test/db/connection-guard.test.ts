import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { type Kysely, PGliteDialect, sql } from 'kysely';
import {
  assertOutsideTransaction,
  NestedConnectionError,
  openGuardedKysely,
  type Stall,
} from '../../src/db/connection-guard.ts';
import { type Db, openDatabase } from '../../src/db/database.ts';
import { createPostgresDatabase, loadPgliteTemplate, postgresAvailable } from '../harness/templates.ts';

/**
 * The database guard (db/connection-guard.ts): a code path that asks for a second connection while
 * it holds one, or calls out inside a transaction, fails at once instead of freezing the embedded
 * database's only connection (and every request behind it); a long hold is reported with its origin.
 */
const dbs: Db[] = [];
after(async () => {
  for (const db of dbs) await db.close();
});

/** Settles with the outcome of `work`, or 'hung' after `ms` (the old code waited forever). */
async function within<T>(work: Promise<T>, ms = 3000): Promise<T | 'hung'> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<'hung'>((resolve) => {
    timer = setTimeout(() => resolve('hung'), ms);
  });
  try {
    return await Promise.race([work, hung]);
  } finally {
    clearTimeout(timer);
  }
}

async function embedded(): Promise<Db> {
  // from the suite's migrated template: a new PGlite runs initdb (seconds), a loaded one does not
  const db = await openDatabase({ pglite: await loadPgliteTemplate() }, { guard: true });
  dbs.push(db);
  return db;
}

test('a query on the database inside a transaction of the embedded database throws instead of hanging', async () => {
  const db = await embedded();
  const outcome = await within(
    db.kysely
      .transaction()
      .execute(async () => sql`SELECT 1 AS one`.execute(db.kysely))
      .then(
        () => 'answered',
        (error: unknown) => error,
      ),
  );
  assert.ok(
    outcome instanceof NestedConnectionError,
    `expected NestedConnectionError, got ${String(outcome)}`,
  );
  assert.match(outcome.message, /connection-guard\.test\.ts/, 'it names where the connection was taken');
  // the database is free again afterwards
  assert.equal((await sql<{ one: number }>`SELECT 1 AS one`.execute(db.kysely)).rows[0]?.one, 1);
});

test('queries of other code paths wait for a transaction and then run (no false alarm)', async () => {
  const db = await embedded();
  let release = () => {};
  const holding = db.kysely.transaction().execute(async (trx) => {
    await sql`SELECT 1`.execute(trx);
    await new Promise<void>((resolve) => {
      release = resolve;
    });
  });
  await new Promise((resolve) => setTimeout(resolve, 20));
  const others = Promise.all(
    [1, 2, 3].map((n) => sql<{ n: number }>`SELECT ${n}::int AS n`.execute(db.kysely)),
  );
  setTimeout(() => release(), 50);
  const answers = await others;
  await holding;
  assert.deepEqual(
    answers.map((a) => a.rows[0]?.n),
    [1, 2, 3],
  );
});

test('a network call inside a transaction is refused; outside it is allowed', async () => {
  const db = await embedded();
  const inside = await db.kysely
    .transaction()
    .execute(async () => assertOutsideTransaction('an upstream call'))
    .then(
      () => 'allowed',
      (error: unknown) => error,
    );
  assert.ok(inside instanceof NestedConnectionError);
  assert.match(inside.message, /^an upstream call while this code path holds a database connection/);
  assert.doesNotThrow(() => assertOutsideTransaction('an upstream call'));
});

test('a connection held for long is reported with where it was taken, once per holder', async () => {
  const pglite = await loadPgliteTemplate();
  const guarded = openGuardedKysely<unknown>(new PGliteDialect({ pglite }), {
    singleConnection: true,
    guard: false,
    stallMs: 200,
  });
  const kysely = guarded.kysely as Kysely<Record<string, never>>;
  const stalls: Stall[] = [];
  guarded.onStall((s) => stalls.push(s));
  const holder = kysely.transaction().execute(async (trx) => {
    await sql`SELECT 1`.execute(trx);
    await new Promise((resolve) => setTimeout(resolve, 1600));
  });
  await new Promise((resolve) => setTimeout(resolve, 20));
  await sql`SELECT 2`.execute(kysely); // waits for the holder
  await holder;
  assert.equal(stalls.length, 1, 'reported once');
  assert.ok(stalls[0].waitedMs >= 200 && stalls[0].heldMs >= stalls[0].waitedMs);
  assert.match(stalls[0].heldBy, /connection-guard\.test\.ts/);
  await kysely.destroy();
});

test('on PostgreSQL too, a second connection asked for inside a transaction throws', async (t) => {
  if (!(await postgresAvailable())) return t.skip('PostgreSQL is not reachable');
  const created = await createPostgresDatabase();
  const db = await openDatabase({ url: created.url, poolSize: 2 }, { guard: true });
  try {
    const outcome = await db.kysely
      .transaction()
      .execute(async () => sql`SELECT 1`.execute(db.kysely))
      .then(
        () => 'answered',
        (error: unknown) => error,
      );
    assert.ok(outcome instanceof NestedConnectionError);
  } finally {
    await db.close();
    await created.drop();
  }
});
