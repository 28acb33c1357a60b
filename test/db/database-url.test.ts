import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { userInfo } from 'node:os';
import { test } from 'node:test';
import { sql } from 'kysely';
import { openDatabase, withDefaultUser } from '../../src/db/database.ts';
import { postgresForTests } from '../harness/server.ts';
import { ADMIN_PG_URL } from '../harness/templates.ts';

// Issue 8: a DATABASE_URL without a user name starts like libpq: PGUSER, else the OS user.
// node-postgres alone takes PGUSER, else $USER (unset under many service managers and containers,
// and then no user at all), so the URL gets the user libpq would pick.
const require = createRequire(import.meta.url);
const ConnectionParameters = require('pg/lib/connection-parameters.js');
/** The user node-postgres would log in as for this connection string. */
const pgUser = (url: string): string => new ConnectionParameters({ connectionString: url }).user;

test('no user name in the URL: PGUSER, else the OS user, as node-postgres will read it', () => {
  const os = userInfo().username;
  assert.equal(pgUser(withDefaultUser('postgres://db.example:5432/airgift', {})), os);
  assert.equal(pgUser(withDefaultUser('postgres://db.example/airgift', { PGUSER: 'ops' })), 'ops');
  assert.equal(pgUser(withDefaultUser('postgres://db.example/airgift?sslmode=disable', {})), os);
  // a socket URL keeps its host, and gets the user too
  const socket = withDefaultUser('postgres:///airgift?host=/var/run/postgresql', { PGUSER: 'ops' });
  assert.equal(pgUser(socket), 'ops');
  assert.equal(new ConnectionParameters({ connectionString: socket }).host, '/var/run/postgresql');
  // the database defaults to the user's name, as with libpq
  assert.equal(
    new ConnectionParameters({ connectionString: withDefaultUser('postgres://h', { PGUSER: 'ops' }) })
      .database,
    'ops',
  );
});

test('a user given in the URL (or as ?user=) is kept as it is', () => {
  for (const url of ['postgres://bob:pw@db.example/airgift', 'postgres://db.example/airgift?user=carol']) {
    assert.equal(withDefaultUser(url, { PGUSER: 'ops' }), url);
  }
  assert.equal(withDefaultUser('not a url', {}), 'not a url');
});

const pg = await postgresForTests();
test('the server connects to PostgreSQL with a URL without a user name (PGUSER)', {
  skip: !pg && 'PostgreSQL not reachable',
}, async () => {
  const url = new URL(ADMIN_PG_URL);
  const user = decodeURIComponent(url.username);
  url.username = '';
  const saved = process.env.PGUSER;
  process.env.PGUSER = user;
  try {
    const db = await openDatabase({ url: url.toString(), poolSize: 1 });
    try {
      const row = await sql<{ user: string }>`SELECT current_user AS user`.execute(db.kysely);
      assert.equal(row.rows[0].user, user);
    } finally {
      await db.close();
    }
  } finally {
    if (saved === undefined) delete process.env.PGUSER;
    else process.env.PGUSER = saved;
  }
});
