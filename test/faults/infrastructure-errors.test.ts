import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import { DatabaseConnectError, type Db, fromPGlite, openDatabase } from '../../src/db/database.ts';
import { isInfrastructureError } from '../../src/errors/infrastructure-errors.ts';
import { postgresForTests } from '../harness/server.ts';
import { adminQuery, cutDatabase, restoreDatabase } from '../harness/server-process.ts';
import { createPostgresDatabase, loadPgliteTemplate } from '../harness/templates.ts';

// The classification of `errors/infrastructure-errors.ts`, fed with the errors a real PostgreSQL and
// a real pool produce (nothing hand-made but the negative cases), and the pool's healing: the same
// Db answers again once its database is back, and a connection that dies while checked out does not
// end the process (this test process would die with it).
const postgres = await postgresForTests();
const skip = !postgres && 'PostgreSQL not reachable';

let database: { url: string; drop(): Promise<void> };
let name: string;
let db: Db;
before(async () => {
  if (!postgres) return;
  database = await createPostgresDatabase();
  name = new URL(database.url).pathname.slice(1);
  db = await openDatabase({ url: database.url, poolSize: 4 });
});
after(async () => {
  await db?.close();
  await database?.drop();
});

const failureOf = (work: Promise<unknown>) =>
  work.then(
    () => assert.fail('expected a failure'),
    (error: unknown) => error,
  );

test('a refused connection is an infrastructure error', { skip }, async () => {
  const nowhere = await openDatabase({ url: 'postgres://postgres@127.0.0.1:1/none', poolSize: 1 });
  try {
    const error = await failureOf(sql`SELECT 1`.execute(nowhere.kysely));
    assert.ok(error instanceof DatabaseConnectError, String(error));
    assert.equal((error as DatabaseConnectError).code, 'ECONNREFUSED');
    assert.ok(isInfrastructureError(error));
  } finally {
    await nowhere.close();
  }
});

test('a terminated backend (57P01) and a refused database are infrastructure errors; the pool heals', {
  skip,
}, async () => {
  await sql`SELECT 1`.execute(db.kysely);
  // A transaction holds its connection while the database goes away under it.
  const inFlight = failureOf(
    db.kysely.transaction().execute(async (trx) => {
      await sql`SELECT 1`.execute(trx);
      await sql`SELECT pg_sleep(5)`.execute(trx);
    }),
  );
  await new Promise((resolve) => setTimeout(resolve, 200));
  await cutDatabase(name);
  const terminated = await inFlight;
  assert.ok(isInfrastructureError(terminated), String(terminated));

  const refused = await failureOf(sql`SELECT 1`.execute(db.kysely));
  assert.ok(refused instanceof DatabaseConnectError, String(refused));
  assert.equal((refused as DatabaseConnectError).code, '55000'); // not currently accepting connections
  assert.ok(isInfrastructureError(refused));

  await restoreDatabase(name);
  const healed = await sql<{ one: number }>`SELECT 1 AS one`.execute(db.kysely);
  assert.deepEqual(healed.rows, [{ one: 1 }]);
});

test('too many connections (53300) is an infrastructure error', { skip }, async () => {
  // Superusers pass a database's connection limit: a role of the test's own meets it.
  const role = `airgift_faults_${process.pid}`;
  await adminQuery(`CREATE ROLE ${role} LOGIN`);
  await adminQuery(`ALTER DATABASE ${name} WITH CONNECTION LIMIT 1`);
  const url = new URL(database.url);
  url.username = role;
  const holder = new pg.Client({ connectionString: url.toString() });
  try {
    await holder.connect().catch(() => undefined); // the limit may already be taken by the pool
    const crowded = await openDatabase({ url: url.toString(), poolSize: 1 });
    try {
      const error = await failureOf(sql`SELECT 1`.execute(crowded.kysely));
      assert.equal((error as DatabaseConnectError).code, '53300', String(error));
      assert.ok(isInfrastructureError(error));
    } finally {
      await crowded.close();
    }
  } finally {
    await holder.end().catch(() => undefined);
    await adminQuery(`ALTER DATABASE ${name} WITH CONNECTION LIMIT -1`);
    await adminQuery(`DROP ROLE ${role}`);
  }
});

test("the application's own failures are not infrastructure errors", { skip }, async () => {
  const syntax = await failureOf(sql`SELEC 1`.execute(db.kysely));
  assert.equal((syntax as { code?: string }).code, '42601');
  assert.equal(isInfrastructureError(syntax), false);
  const clash = await failureOf(sql`SELECT 1/0`.execute(db.kysely));
  assert.equal(isInfrastructureError(clash), false);
  assert.equal(isInfrastructureError(new Error('boom')), false);
  assert.equal(isInfrastructureError(null), false);
  // A cause chain is followed: a wrapped ECONNRESET is still the infrastructure's.
  const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
  assert.ok(isInfrastructureError(new Error('query failed', { cause: reset })));
});

test('a closed PGlite (the embedded database at shutdown) is an infrastructure error', async () => {
  const embedded = fromPGlite(await loadPgliteTemplate());
  await embedded.close();
  const error = await failureOf(sql`SELECT 1`.execute(embedded.kysely));
  assert.ok(isInfrastructureError(error), String(error));
});
