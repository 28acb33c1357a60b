import { userInfo } from 'node:os';
import { PGlite, types } from '@electric-sql/pglite';
import { type Kysely, PGliteDialect, PostgresDialect } from 'kysely';
import type pg from 'pg';
import { lazyPackage } from '../lib/lazy-package.ts';
import { openGuardedKysely, type Stall } from './connection-guard.ts';
import { type Listening, listenPglite, listenPostgres, type NotificationHandlers } from './notifications.ts';
import { openPglite } from './pglite.ts';
import { gatePipelinedBegin } from './pipelined-begin.ts';
import { namePreparedStatements } from './prepared.ts';
import type { Database } from './schema.ts';

/**
 * The system of record: PostgreSQL when a URL is given, otherwise embedded PGlite in a data
 * directory. Both run the same migrations and are used through the same Kysely instance.
 */
export interface Db {
  kind: 'postgres' | 'pglite';
  kysely: Kysely<Database>;
  /**
   * Its connections hold a statement behind a BEGIN not waited for until that BEGIN answered
   * (pipelined-begin.ts): the group commit may send its BEGIN that way (PostgreSQL's pool).
   */
  pipelinedBegin: boolean;
  /** The embedded instance when kind is 'pglite': migrations run their scripts with its exec. */
  pglite?: PGlite;
  /** Notifications of a channel (notifications.ts); what is listening ends with `close()`. */
  listen(channel: string, handlers: NotificationHandlers): Promise<Listening>;
  /** Hears when a query has waited seconds for the embedded database's one connection (connection-guard.ts). */
  onStall(listener: (stall: Stall) => void): void;
  close(): Promise<void>;
}

export type DbTarget =
  | {
      url: string;
      poolSize?: number;
      /** Named prepared statements for the registered texts (prepared.ts); default true. */
      preparedStatements?: boolean;
    }
  | { pgliteDataDir?: string; pglite?: PGlite; sharedBuffers?: string };

export interface DbOptions {
  /**
   * Throw on a connection asked for while one is held in the same code path, and on a network call
   * inside a transaction (connection-guard.ts). Default: DATABASE_GUARD, else on when NODE_ENV is
   * development or test.
   */
  guard?: boolean;
}

/** The guard's default: `DATABASE_GUARD=on|off`, else on in development and tests. */
export function guardByDefault(env: NodeJS.ProcessEnv = process.env): boolean {
  const set = env.DATABASE_GUARD?.toLowerCase();
  if (set === 'on' || set === 'off') return set === 'on';
  return env.NODE_ENV === 'development' || env.NODE_ENV === 'test';
}

const INT8 = 20;
/** node-postgres, loaded only when DATABASE_URL is set. */
const nodePostgres = lazyPackage<typeof pg>('pg');

export async function openDatabase(target: DbTarget, options: DbOptions = {}): Promise<Db> {
  if ('url' in target) {
    return openPostgres(target.url, target.poolSize ?? 10, target.preparedStatements ?? true, options);
  }
  const parsers = { [INT8]: (value: string) => Number(value) };
  const pglite =
    target.pglite ??
    (target.pgliteDataDir
      ? await openPglite(target.pgliteDataDir, { sharedBuffers: target.sharedBuffers ?? '16MB', parsers })
      : await PGlite.create({ parsers }));
  return fromPGlite(pglite, options);
}

export function fromPGlite(pglite: PGlite, options: DbOptions = {}): Db {
  // A text parameter given as bytes goes as a binary parameter, its UTF-8 as it is, as PostgreSQL's
  // driver sends a Buffer (the request log's segments: modules/request-log/request-log-kept-lines.ts).
  // PGlite's own serializer would make a string of them (a Buffer's toString), which its protocol
  // then encodes again: ~180 KB twice a batch in the server's thread. Anything else is serialized as
  // PGlite does.
  const text = pglite.serializers[types.TEXT];
  pglite.serializers[types.TEXT] = (x) => (x instanceof Uint8Array ? (x as unknown as string) : text(x));
  const { kysely, onStall } = openGuardedKysely<Database>(new PGliteDialect({ pglite }), {
    singleConnection: true,
    guard: options.guard ?? guardByDefault(),
  });
  const listening: Listening[] = [];
  return {
    kind: 'pglite',
    pipelinedBegin: false,
    kysely,
    pglite,
    onStall,
    async listen(channel, handlers) {
      const l = await listenPglite(pglite, channel, handlers);
      listening.push(l);
      return l;
    },
    async close() {
      await Promise.all(listening.map((l) => l.close()));
      await kysely.destroy();
      if (!pglite.closed) await pglite.close();
    },
  };
}

/**
 * Any failure to get a connection from the pool: refused, terminated during the handshake, refused by
 * the server (too many clients, starting up, a database not accepting connections) or the pool's own
 * wait timing out. `errors/infrastructure-errors.ts` answers it with 503; the cause is kept.
 */
export class DatabaseConnectError extends Error {
  readonly code: string | undefined;
  constructor(cause: unknown) {
    const inner = cause as { code?: unknown; message?: unknown; errors?: { message?: string }[] };
    const message =
      (typeof inner?.message === 'string' && inner.message) ||
      (Array.isArray(inner?.errors) && inner.errors.map((e) => e?.message).join('; ')) ||
      String(cause);
    super(`cannot connect to the database: ${message}`, { cause });
    this.code = typeof inner?.code === 'string' ? inner.code : undefined;
  }
}

/**
 * How long a request waits for a connection (a new one, or a free one of the pool) before it is
 * answered 503: without a bound, a database that drops packets would hold every request forever.
 */
export const CONNECT_TIMEOUT_MS = 5000;

/**
 * A `DATABASE_URL` without a user name connects as libpq would: as `PGUSER`, else the OS user.
 * node-postgres falls back to `$USER` instead, which service managers and containers often leave
 * unset (it then sends no user at all). The user goes in as the `user` query parameter, which
 * node-postgres reads, so socket URLs (`postgres:///db?host=/run/postgresql`) work too.
 *
 * @example
 * withDefaultUser('postgres://db.internal/airgift', {}); // 'postgres://db.internal/airgift?user=<OS user>'
 */
export function withDefaultUser(url: string, env: NodeJS.ProcessEnv = process.env): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url; // node-postgres reports what is wrong with it
  }
  if (parsed.username !== '' || parsed.searchParams.has('user')) return url;
  const user = env.PGUSER || userInfo().username;
  const [rest, fragment] = url.split('#', 2);
  const joined = `${rest}${rest.includes('?') ? '&' : '?'}user=${encodeURIComponent(user)}`;
  return fragment === undefined ? joined : `${joined}#${fragment}`;
}

/** The `application_name` of the pool's connections (the listeners have names of their own). */
const POOL_APPLICATION_NAME = 'airgift';

function openPostgres(url: string, poolSize: number, prepared: boolean, options: DbOptions): Db {
  const pg = nodePostgres();
  const pool = new pg.Pool({
    connectionString: withDefaultUser(url),
    max: poolSize,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    keepAlive: true,
    // Named, so an operator can tell them in pg_stat_activity, and `endBackendsOf` ends only these.
    application_name: POOL_APPLICATION_NAME,
    // A query is written to the server when it is made, not when the one before it has answered:
    // the group commit sends a batch's COMMIT behind its last statement (modules/group-commit/).
    // Everything else awaits each answer before its next query, as without it.
    pipeline: true,
    // Ids are bigint in the database and plain integers on the wire; they stay far below 2^53.
    types: {
      getTypeParser: ((oid: number, format?: string) =>
        oid === INT8
          ? (value: string) => Number(value)
          : pg.types.getTypeParser(oid, format as 'text')) as never,
    },
  });
  // An idle client whose connection dies (server restart, pg_terminate_backend) is dropped by the
  // pool and replaced on the next checkout; without a listener its error would end the process.
  pool.on('error', () => undefined);
  // The pool listens only to idle clients. A checked-out client whose connection dies emits 'error'
  // too (besides failing its query), which would end the process: each client gets a listener of
  // its own, and the pool drops the broken client when it is released.
  const guarded = new WeakSet<pg.PoolClient>();
  // the clients that are not back in the pool: their statements may still be running at `close()`
  const checkedOut = new Set<pg.PoolClient>();
  pool.on('acquire', (client) => checkedOut.add(client));
  pool.on('release', (_error, client) => checkedOut.delete(client));
  const connections = {
    async connect() {
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (error) {
        throw new DatabaseConnectError(error);
      }
      if (!guarded.has(client)) {
        guarded.add(client);
        client.on('error', () => undefined);
        // the order path's and the outbox's fixed statements, parsed once per connection (prepared.ts);
        // DATABASE_PREPARED_STATEMENTS=false behind a pooler that cannot keep them
        if (prepared) namePreparedStatements(client);
        // the group commit's BEGIN is not waited for; what may not go out behind it waits (pipelined-begin.ts)
        gatePipelinedBegin(client);
      }
      return client;
    },
    end: () => pool.end(),
    // Kysely 0.29 reads these to open a control connection when a query is cancelled.
    Client: pg.Client,
    options: pool.options,
  };
  const { kysely, onStall } = openGuardedKysely<Database>(new PostgresDialect({ pool: connections }), {
    singleConnection: false,
    guard: options.guard ?? guardByDefault(),
  });
  const listening: Listening[] = [];
  return {
    kind: 'postgres',
    pipelinedBegin: true,
    kysely,
    onStall,
    async listen(channel, handlers) {
      const l = listenPostgres(
        () =>
          new pg.Client({
            connectionString: withDefaultUser(url),
            connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
            keepAlive: true,
            // Named, so an operator (or a test) can tell it in pg_stat_activity.
            application_name: `airgift listener ${channel}`,
          }),
        channel,
        handlers,
      );
      listening.push(l);
      return l;
    },
    async close() {
      await Promise.all(listening.map((l) => l.close()));
      await endBackendsOf(checkedOut);
      await kysely.destroy();
    },
  };

  /**
   * A close while connections are still checked out (a shutdown that cut requests in flight) ends
   * their backends first. Their transactions must roll back: a COMMIT already sent behind a statement
   * that waits for a row lock (the group commit's commit behind) would otherwise run once that
   * statement is done, after this process has gone and its caller was told nothing. A transaction
   * that has committed by then stays committed (its outcome was unknown to its caller either way).
   * Best effort: without a control connection (the connection limit reached) or behind a pooler (its
   * process ids are not the backends') nothing is ended (docs/operations.md, Shutdown).
   */
  async function endBackendsOf(clients: Set<pg.PoolClient>) {
    const pids = [...clients]
      .map((c) => (c as unknown as { processID: number | null }).processID)
      .filter((pid) => pid !== null);
    if (pids.length === 0) return;
    const control = new pg.Client({
      connectionString: withDefaultUser(url),
      // within the shutdown step's bound (shutdown.ts STEP_TIMEOUT_MS)
      connectionTimeoutMillis: 1000,
      application_name: 'airgift shutdown',
    });
    try {
      await control.connect();
      // Only this pool's backends: behind a pooler a client's process id is the pooler's own number,
      // which may match nothing or a backend of someone else.
      await control.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
         WHERE pid = ANY($1::int[]) AND datname = current_database() AND usename = current_user
           AND application_name = $2`,
        [pids, POOL_APPLICATION_NAME],
      );
    } catch {
      // the database is down or refuses: its backends end with it, or on their own
    } finally {
      await control.end().catch(() => undefined);
    }
  }
}
