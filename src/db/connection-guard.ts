import { AsyncLocalStorage } from 'node:async_hooks';
import {
  type ConnectionProvider,
  type DatabaseConnection,
  DefaultQueryExecutor,
  type Dialect,
  type Driver,
  Kysely,
  type TransactionSettings,
} from 'kysely';

/**
 * How airgift gets database connections, built so that a code path that waits for the database
 * while holding it fails loudly instead of freezing the server:
 *
 * - **The embedded database has one connection.** A transaction holds it from BEGIN to COMMIT; every
 *   other query waits behind it (a gate, FIFO). A transaction that asks for a second connection (a
 *   query on `db` instead of `trx`) would wait for itself forever; so would the whole server behind
 *   it. On PostgreSQL the same mistake waits for a second pool connection, and under load deadlocks
 *   the pool.
 * - **The guard** (`DATABASE_GUARD`, on in development and tests): each use of a connection runs in
 *   an async context that says "this holds a connection"; asking for another one from inside it
 *   throws `NestedConnectionError` naming where the first was taken, and so does a network call made
 *   inside it (`assertOutsideTransaction`). Off in production: the context costs every promise of
 *   the process a little (Node 20's AsyncLocalStorage runs on promise hooks).
 * - **The stall report** (always, embedded database): when a query has waited `stallMs` for the one
 *   connection, `onStall` hears for how long it has been held and where it was taken (the holder's
 *   stack, captured when it got the connection), once per holder. main.ts logs it.
 *
 * @example
 * const kysely = openGuardedKysely<Database>(new PGliteDialect({ pglite }), { singleConnection: true, guard: true });
 * await kysely.transaction().execute(async (trx) => {
 *   await kysely.selectFrom('accounts').selectAll().execute(); // throws NestedConnectionError
 * });
 */
export interface GuardOptions {
  /** One connection for the whole process (PGlite): uses are queued one at a time. */
  singleConnection: boolean;
  /** Throw on a nested acquisition and on a network call inside a transaction. */
  guard: boolean;
  /** How long a query waits for the one connection before `onStall` is told (ms). */
  stallMs?: number;
}

export interface Stall {
  /** How long the oldest waiting query has waited, ms. */
  waitedMs: number;
  /** How long the connection has been held by its holder, ms. */
  heldMs: number;
  /** Queries waiting. */
  waiting: number;
  /** Where the holder took the connection (a stack trace, our frames first). */
  heldBy: string;
}

interface Hold {
  active: boolean;
  /** Captured when the connection was taken; formatted only when reported. */
  origin: Error | null;
  since: number;
}

const holds = new AsyncLocalStorage<Hold>();
/** What a query on a closed database (at shutdown) fails with; errors/infrastructure-errors.ts knows it. */
export const DATABASE_CLOSED = 'the database connection is closed';
let guardOn = false;

/** Thrown where a connection is asked for (or the network called) while one is held in this context. */
export class NestedConnectionError extends Error {
  constructor(what: string, hold: Hold) {
    super(
      `${what} while this code path holds a database connection (a transaction, or PGlite's only ` +
        'connection): it would wait for itself. Use the transaction you were given, or do it after the commit.' +
        (hold.origin ? `\nThe connection was taken at:\n${framesOf(hold.origin)}` : ''),
    );
    this.name = 'NestedConnectionError';
  }
}

/**
 * Throws when the caller holds a database connection (with the guard on): a network call must never
 * be made inside a transaction, where it would hold the connection (and the rows it locked) for as
 * long as the peer takes.
 *
 * @example
 * assertOutsideTransaction('an upstream call'); // before sending
 */
export function assertOutsideTransaction(what: string): void {
  if (!guardOn) return;
  const hold = holds.getStore();
  if (hold?.active) throw new NestedConnectionError(what, hold);
}

/** A Kysely instance whose connections go through the gate and the guard described above. */
export function openGuardedKysely<DB>(
  dialect: Dialect,
  options: GuardOptions,
): { kysely: Kysely<DB>; onStall(listener: (stall: Stall) => void): void } {
  if (options.guard) guardOn = true;
  const driver = new OnceDriver(dialect.createDriver());
  const adapter = dialect.createAdapter();
  const provider = new GuardedConnectionProvider(driver, options);
  const executor = new DefaultQueryExecutor(dialect.createQueryCompiler(), adapter, provider, []);
  const kysely = new Kysely<DB>({ config: { dialect }, driver, executor, dialect });
  return { kysely, onStall: (listener) => provider.stallListeners.push(listener) };
}

/** The stack of the code asking for a connection, deep enough to reach it through Kysely's frames. */
function originHere(): Error {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 40;
  const origin = new Error('connection taken here');
  Error.stackTraceLimit = limit;
  return origin;
}

/** Our frames of a stack (without node_modules and node internals), at most 12 lines. */
function framesOf(error: Error): string {
  const lines = (error.stack ?? '').split('\n').slice(1);
  const ours = lines.filter((l) => !l.includes('node_modules') && !l.includes('node:'));
  return (ours.length > 0 ? ours : lines).slice(0, 12).join('\n');
}

class GuardedConnectionProvider implements ConnectionProvider {
  readonly stallListeners: Array<(stall: Stall) => void> = [];
  readonly #driver: Driver;
  readonly #options: GuardOptions;
  /** The single connection's queue: who waits, since when. */
  readonly #waiting: Array<{ since: number; go: () => void }> = [];
  #busy = false;
  #holder: Hold | null = null;
  #reported: Hold | null = null;
  #watch: NodeJS.Timeout | null = null;

  constructor(driver: Driver, options: GuardOptions) {
    this.#driver = driver;
    this.#options = options;
  }

  async provideConnection<T>(consumer: (connection: DatabaseConnection) => Promise<T>): Promise<T> {
    // Captured here, before Kysely's first await, while the caller's own frames are on the stack;
    // cheap (formatted only when reported), it names a holder that stalls or a nested acquisition.
    const origin = this.#options.singleConnection || this.#options.guard ? originHere() : null;
    if (!this.#options.guard) return this.#use(consumer, { active: false, origin, since: 0 });
    const outer = holds.getStore();
    if (outer?.active) throw new NestedConnectionError('A database connection was asked for', outer);
    const hold: Hold = { active: false, origin, since: 0 };
    return holds.run(hold, () => this.#use(consumer, hold));
  }

  async #use<T>(consumer: (connection: DatabaseConnection) => Promise<T>, hold: Hold): Promise<T> {
    const single = this.#options.singleConnection;
    if (single) await this.#enter();
    hold.since = Date.now();
    hold.active = true;
    if (single) this.#holder = hold;
    try {
      const connection = await this.#driver.acquireConnection();
      try {
        return await consumer(connection);
      } finally {
        await this.#driver.releaseConnection(connection);
      }
    } finally {
      hold.active = false;
      if (single) this.#leave();
    }
  }

  #enter(): Promise<void> {
    if (!this.#busy) {
      this.#busy = true;
      return Promise.resolve();
    }
    return new Promise<void>((go) => {
      this.#waiting.push({ since: Date.now(), go });
      this.#watch ??= setInterval(() => this.#checkStall(), 1000).unref();
    });
  }

  #leave(): void {
    this.#holder = null;
    const next = this.#waiting.shift();
    if (next) next.go();
    else {
      this.#busy = false;
      if (this.#watch) clearInterval(this.#watch);
      this.#watch = null;
    }
  }

  #checkStall(): void {
    const oldest = this.#waiting[0];
    const holder = this.#holder;
    if (!oldest || !holder || this.#reported === holder) return;
    const now = Date.now();
    if (now - oldest.since < (this.#options.stallMs ?? 5000)) return;
    this.#reported = holder;
    const stall: Stall = {
      waitedMs: now - oldest.since,
      heldMs: now - holder.since,
      waiting: this.#waiting.length,
      heldBy: holder.origin ? framesOf(holder.origin) : '(unknown)',
    };
    for (const listener of this.stallListeners) listener(stall);
  }
}

/**
 * The dialect's driver, initialised once on first use and destroyed once (what Kysely's own runtime
 * driver does, which is not exported; its per-dialect lock is the provider's gate above).
 */
class OnceDriver implements Driver {
  readonly #inner: Driver;
  #init: Promise<void> | null = null;
  #destroyed: Promise<void> | null = null;

  constructor(inner: Driver) {
    this.#inner = inner;
  }

  init(): Promise<void> {
    if (this.#destroyed) return Promise.reject(new Error(DATABASE_CLOSED));
    this.#init ??= this.#inner.init().catch((error) => {
      this.#init = null;
      throw error;
    });
    return this.#init;
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.init();
    return this.#inner.acquireConnection();
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.#inner.releaseConnection(connection);
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.#inner.beginTransaction(connection, settings);
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.#inner.commitTransaction(connection);
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.#inner.rollbackTransaction(connection);
  }

  async savepoint(...args: Parameters<NonNullable<Driver['savepoint']>>): Promise<void> {
    await this.#optional('savepoint')(...args);
  }

  async rollbackToSavepoint(...args: Parameters<NonNullable<Driver['rollbackToSavepoint']>>): Promise<void> {
    await this.#optional('rollbackToSavepoint')(...args);
  }

  async releaseSavepoint(...args: Parameters<NonNullable<Driver['releaseSavepoint']>>): Promise<void> {
    await this.#optional('releaseSavepoint')(...args);
  }

  #optional<K extends 'savepoint' | 'rollbackToSavepoint' | 'releaseSavepoint'>(name: K) {
    const method = this.#inner[name];
    if (!method) throw new Error(`the database driver has no ${name}`);
    return method.bind(this.#inner);
  }

  destroy(): Promise<void> {
    this.#destroyed ??= (this.#init ?? Promise.resolve())
      .catch(() => undefined)
      .then(() => this.#inner.destroy());
    return this.#destroyed;
  }
}
