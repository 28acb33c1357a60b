import { CompiledQuery, type Kysely, type QueryResult, type RawBuilder, sql } from 'kysely';
import { PIPELINED_BEGIN } from '../../db/pipelined-begin.ts';
import { executePrepared, registerPrepared } from '../../db/prepared.ts';
import type { Database, Environment } from '../../db/schema.ts';

/**
 * Group commit for the orders of one account (the way TigerBeetle batches transfers). Orders of one
 * account and environment serialise on its balance row anyway; so while one transaction of that
 * account runs, the orders that arrive meanwhile queue here, and the next transaction takes them all
 * (up to `maxBatch`, `ORDER_BATCH_MAX`): one row lock, one commit, many ledger entries. An order that
 * arrives when nothing of its account is running starts after one turn of the event loop
 * (`setImmediate`, so the requests read at the same moment join it), so a quiet account waits for
 * nothing. The rules its callbacks keep are in this module's README ("The callback rules").
 *
 * Each order's work is the same callback it would run in a transaction of its own, and each gets
 * its own result. The orders of a batch run side by side on the transaction's one connection, so the
 * callbacks must not depend on each other's writes (a unique index may catch a clash: the batch then
 * fails and its orders run alone); orders that must see each other carry the same `tag`. If any order
 * of a batch fails (insufficient balance, a daily limit, a used customIdentifier), the batch is rolled
 * back as a whole and every order of it runs again alone, in arrival order: each then gets exactly
 * the answer it would have had alone, and a bad order never fails its batch-mates. A failed COMMIT is
 * not retried that way (see `commitBehind` below: its outcome is unknown).
 * The callbacks must do all their database work through the `trx` they are given (they already must:
 * a transaction is one connection, one PGlite session).
 *
 * With `inFlight` above 1 (PostgreSQL: a pool of connections), that many batches of one account run
 * at once, each on its own connection: the next batch's first statements (BEGIN, the ids, the checks
 * that need no lock) are made while the previous one holds the balance row, its debit waits on that
 * row lock inside PostgreSQL and goes on the moment the previous batch commits, instead of after the
 * commit's answer has come back to Node and the next batch has made those statements. Batches
 * still serialise on the row lock, and every check that must see the previous batch's orders runs
 * after the debit took the lock, on a new snapshot (READ COMMITTED: a statement after the debit, or
 * a VOLATILE function called on the debit's rows, as top-ups' recent recharge), as it does between
 * two processes; a used customIdentifier the unique index finds fails the later batch,
 * whose orders then run alone. Orders with one tag never run at the same time, in one batch or in
 * two. PGlite has one connection: one batch at a time there.
 *
 * `inBatch(trx)` is true on the transaction of a batch of two or more orders, from before their work
 * starts on it: the gatherings (gathering.ts) make one statement of its orders' calls there.
 *
 * With `commitBehind` (PostgreSQL), a batch's COMMIT can go out right behind its last statement
 * (`runLast`), pipelined on the same connection: PostgreSQL commits the moment that statement is done
 * and frees the account's row lock without waiting for Node to read the answer and send COMMIT (a
 * busy event loop takes milliseconds to come back). Two rules keep money exact: a statement that
 * refuses raises (so the COMMIT behind it rolls back, the day's usage row included; migration 0029),
 * and **a batch whose COMMIT was sent is never run again**: committed, each order gets its own
 * result (or its own error); a COMMIT that fails or whose answer is lost leaves the outcome unknown,
 * and every order of the batch gets that error (a 503: the client asks again with its
 * customIdentifier) instead of being re-run, which could debit it twice. The same holds for a COMMIT
 * sent the ordinary way.
 *
 * Invariant kept: balance == sum(entries), since every batch commits or rolls back whole.
 *
 * @example
 * const commits = createGroupCommit(db, { maxBatch: 64, inFlight: 2 });
 * const id = await commits.run({ accountId, environment }, async (trx) => {
 *   const debit = await debitWithRows(trx, { ... }, rows, true); // ledger.registerRowWriter's
 *   return debit.entryId;
 * });
 */
export interface BatchKey {
  accountId: number;
  environment: Environment;
  /** Orders with one tag never share a batch (say the recipient of a top-up). */
  tag?: string;
}

interface Job {
  work: (trx: Kysely<Database>) => Promise<unknown>;
  tag?: string;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

export interface GroupCommitOptions {
  /** Most orders in one transaction (`ORDER_BATCH_MAX`, default 64); 1: every order alone. */
  maxBatch?: number;
  /** Batches of one account running at once (default 1; see above). */
  inFlight?: number;
  /** Send a batch's COMMIT behind its last statement when its orders say which one that is (see above). */
  commitBehind?: boolean;
  /**
   * Send a transaction's BEGIN without waiting for its answer, the orders' ids behind it. Only on a
   * database whose connections hold every other statement until that answer (`Db.pipelinedBegin`,
   * db/pipelined-begin.ts): elsewhere a BEGIN that failed would leave the writes to commit alone.
   */
  pipelinedBegin?: boolean;
}

/** A batch's transaction while it runs: how many orders, and the COMMIT sent behind its last statement. */
interface OpenBatch {
  size: number;
  /**
   * How the pipelined COMMIT ended (never rejects): the last statement failed (so the COMMIT rolled
   * back), it committed, or the COMMIT failed or was not answered.
   */
  commit: Promise<'rolled back' | 'committed' | CommitOutcomeUnknown> | null;
}

/**
 * What an order's work throws when a statement of it raised its refusal inside PostgreSQL (SQLSTATE
 * AG001, migration 0029: the COMMIT behind it then rolls back): nothing was committed, and its orders
 * run again alone, each the way that answers its exact refusal (a batch's: ledger's
 * `BatchDebitRefused`; an order alone's debit).
 */
export class StatementRefused extends Error {}

/** A COMMIT that failed or whose answer never came: the batch may or may not have committed. */
export class CommitOutcomeUnknown extends Error {
  /** PostgreSQL's own SQLSTATE for it (transaction_resolution_unknown): answered 503 with Retry-After. */
  readonly code = '08007';
  constructor(cause: unknown) {
    super('the commit of a batch of orders failed or was not answered: its outcome is unknown', { cause });
  }
}

const COMMIT = CompiledQuery.raw('COMMIT');
const BEGIN_PIPELINED = CompiledQuery.raw(PIPELINED_BEGIN);

/**
 * Sends the transaction's BEGIN on `conn` and gives back its answer without waiting for it (in an
 * object: a promise returned from an async function would be waited for): the statements made next
 * go out behind it, or wait for it, as db/pipelined-begin.ts decides. Its failure is the caller's to
 * read, never an unhandled rejection.
 */
async function sendPipelinedBegin(conn: Kysely<Database>): Promise<{ answer: Promise<unknown> }> {
  let answer: Promise<unknown> = Promise.resolve();
  await conn.getExecutor().provideConnection(async (connection) => {
    answer = connection.executeQuery(BEGIN_PIPELINED);
  });
  answer.catch(() => undefined);
  return { answer };
}

export function createGroupCommit(db: Kysely<Database>, options: GroupCommitOptions = {}) {
  const maxBatch = Math.max(1, options.maxBatch ?? 64);
  const inFlight = Math.max(1, options.inFlight ?? 1);
  // the transactions of batches while their orders' work runs (an order alone: a batch of one, with
  // `commitBehind`): their COMMIT may go behind the last statement (`runLast`); those of two or more
  // orders gather their statements (gathering.ts, `inBatch`)
  const open = new WeakMap<Kysely<Database>, OpenBatch>();
  // per account and environment: the orders waiting, and how many batches of it are running
  const lanes = new Map<string, Lane>();
  const stats = { batches: 0, orders: 0, fallbacks: 0, commitsBehind: 0 };
  // orders handed to `run` and not yet answered: what the outbox's delivery yields to (worker/)
  let inFlightOrders = 0;

  /**
   * An order alone. Taken alone from its lane with `commitBehind`, it runs the way a batch does
   * (`inTransaction`), so its last statement too may carry the COMMIT behind it: a batch of one. Like
   * a batch, when that statement raised its refusal (`StatementRefused`) it was rolled back and runs
   * once more, in a transaction of Kysely's where its statements answer their refusals instead of
   * raising them: it gets its exact error (which limit, the balance named, a top-up's recent
   * recharge). Else its own error is its answer, and a COMMIT once sent is never followed by a second
   * run. An order of a batch that fell back (`answering`) runs in Kysely's transaction at once: one of
   * its batch was refused, and no order runs more than twice.
   */
  async function alone(job: Job, answering = false) {
    if (options.commitBehind && !answering) {
      const { settled, outcome } = await inTransaction([job]);
      const s = settled[0];
      const refusedInStatement =
        outcome === 'rolled back' && s?.status === 'rejected' && s.reason instanceof StatementRefused;
      if (!refusedInStatement) {
        // the COMMIT's outcome unknown, or BEGIN or the connection failed: that error; else its own
        if (outcome instanceof Error) job.reject(outcome);
        else if (s) answer(job, s, outcome === 'committed');
        else job.reject(new Error('the order was rolled back'));
        return;
      }
      stats.fallbacks++;
    }
    try {
      job.resolve(await db.transaction().execute(job.work));
    } catch (error) {
      job.reject(error);
    }
  }

  /**
   * The orders' work on one connection whose BEGIN and COMMIT are sent here, so that the COMMIT may
   * already be on the wire (`runLast`). For a batch, all at once: the connection runs their statements
   * one after the other, each as soon as the previous answered, with no wait for the event loop to
   * come back to each order's code in between. A COMMIT, once sent, decides the outcome: committed,
   * or unknown; `rolled back` means nothing was committed. A failure before any COMMIT was sent (BEGIN
   * or the connection) is that failure, with nothing committed.
   */
  async function inTransaction(batch: Job[]): Promise<{
    settled: PromiseSettledResult<unknown>[];
    outcome: 'committed' | 'rolled back' | CommitOutcomeUnknown | Error;
  }> {
    let settled: PromiseSettledResult<unknown>[] = [];
    let outcome: 'committed' | 'rolled back' | CommitOutcomeUnknown | Error | undefined;
    let commitSent = false;
    try {
      await db.connection().execute(async (conn) => {
        // On PostgreSQL the orders' first statement (their ids) goes out behind the BEGIN, before its
        // answer; what may not waits for it (db/pipelined-begin.ts). A BEGIN that failed is that
        // failure, before any COMMIT was sent: nothing of the orders was written.
        let begun: Promise<unknown> = Promise.resolve();
        if (options.pipelinedBegin) ({ answer: begun } = await sendPipelinedBegin(conn));
        else await sql`BEGIN`.execute(conn);
        const state: OpenBatch = { size: batch.length, commit: null };
        open.set(conn, state);
        settled = await Promise.allSettled(batch.map((job) => job.work(conn)));
        open.delete(conn);
        const beginFailed = await begun.then(
          () => undefined,
          (error: unknown) => error as Error,
        );
        if (beginFailed) outcome = beginFailed;
        else if (state.commit) {
          commitSent = true;
          outcome = await state.commit;
        } else if (settled.some((s) => s.status === 'rejected')) {
          await sql`ROLLBACK`.execute(conn).catch(() => undefined);
          outcome = 'rolled back';
        } else {
          commitSent = true;
          outcome = await sql`COMMIT`.execute(conn).then(
            () => 'committed' as const,
            (error) => new CommitOutcomeUnknown(error),
          );
        }
      });
    } catch (error) {
      // Before a COMMIT was sent (BEGIN or the connection failed) nothing was committed; after it,
      // whatever failed (giving the connection back) does not undo what is known of the commit.
      if (outcome === undefined) {
        if (commitSent) outcome = new CommitOutcomeUnknown(error);
        else return { settled, outcome: settled.length > 0 ? 'rolled back' : (error as Error) };
      }
    }
    // every way through the connection's work above sets it
    return { settled, outcome: outcome ?? 'rolled back' };
  }

  /** A batch of two or more orders (`inTransaction`); never runs an order again once a COMMIT was sent. */
  async function together(batch: Job[]) {
    const { settled, outcome } = await inTransaction(batch);
    if (outcome instanceof CommitOutcomeUnknown) {
      for (const job of batch) job.reject(outcome);
    } else if (outcome === 'committed') {
      for (const [i, job] of batch.entries()) answer(job, settled[i], true);
    } else {
      stats.fallbacks++;
      for (const job of batch) await alone(job, true);
    }
  }

  /** An order's own result or error; a result only when its transaction committed. */
  function answer(job: Job, s: PromiseSettledResult<unknown>, committed: boolean) {
    if (s.status === 'rejected') job.reject(s.reason);
    else if (committed) job.resolve(s.value);
    else job.reject(new Error('the order was rolled back'));
  }

  /** The open batch of `trx` when `runLast` would send its COMMIT behind a statement of `calls` orders. */
  function behindOf(trx: Kysely<Database>, calls: number): OpenBatch | undefined {
    const state = open.get(trx);
    return options.commitBehind && state && !state.commit && calls === state.size ? state : undefined;
  }

  interface Lane {
    queue: Job[];
    running: number;
    /** The tags of the batches running now. */
    busy: Set<string>;
  }

  /**
   * The next orders that may share a transaction: in arrival order, up to `maxBatch`, stopping before
   * the second order with a tag already taken (orders of one batch run side by side, so two top-ups to
   * one number must not, or neither would see the other in its recently-recharged check) and before
   * an order whose tag is in a batch running now (it waits for that batch's commit). Empty when the
   * first order waiting is such an order: the runner of that batch takes it next.
   */
  function takeBatch(lane: Lane): Job[] {
    const tags = new Set<string>();
    let n = 0;
    while (n < lane.queue.length && n < maxBatch) {
      const tag = lane.queue[n].tag;
      if (tag !== undefined) {
        if (tags.has(tag) || lane.busy.has(tag)) break;
        tags.add(tag);
      }
      n++;
    }
    return lane.queue.splice(0, n);
  }

  /** Runs the lane's batches until none is waiting; `lane.running` was counted when it was started. */
  async function drain(key: string, lane: Lane) {
    try {
      while (lane.queue.length > 0) {
        // A lone order waits for the lane's other running batch: its runner takes it next, with the
        // orders that arrive meanwhile, instead of it paying a transaction of its own. Over HTTP, with
        // two batches in flight, a fifth to a third of the batches were one order (bench/README.md).
        if (lane.queue.length === 1 && lane.running > 1) break;
        const batch = takeBatch(lane);
        if (batch.length === 0) break;
        const tags = batch.flatMap((job) => (job.tag === undefined ? [] : [job.tag]));
        for (const tag of tags) lane.busy.add(tag);
        stats.batches++;
        stats.orders += batch.length;
        try {
          if (batch.length === 1) await alone(batch[0]);
          else await together(batch);
        } finally {
          for (const tag of tags) lane.busy.delete(tag);
        }
      }
    } finally {
      lane.running--;
      if (lane.running === 0 && lane.queue.length === 0) lanes.delete(key);
    }
  }

  return {
    /** Runs `work` in a transaction, shared with the other orders of `key` that are waiting. */
    run<T>(key: BatchKey, work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
      const id = `${key.accountId}/${key.environment}`;
      inFlightOrders++;
      return new Promise<T>((resolve, reject) => {
        // counted until answered, either way (no promise more per order on the hot path)
        const job: Job = {
          work,
          tag: key.tag,
          resolve(value) {
            inFlightOrders--;
            resolve(value as T);
          },
          reject(error) {
            inFlightOrders--;
            reject(error);
          },
        };
        let lane = lanes.get(id);
        if (!lane) {
          lane = { queue: [], running: 0, busy: new Set() };
          lanes.set(id, lane);
        }
        lane.queue.push(job);
        if (lane.running < inFlight) {
          lane.running++;
          // One turn of the event loop first: the other requests already read from their sockets
          // reach this queue before the batch is taken. On PGlite a whole transaction runs in
          // microtasks (no I/O between its statements), so without this turn the first order of each
          // read would run alone before the next request is even parsed.
          setImmediate(() => void drain(id, lane));
        }
      });
    },
    /** Orders waiting or running now, in every lane. */
    ordersInFlight: (): number => inFlightOrders,
    /** True on the transaction of a batch of two or more orders (for `createGathering`). */
    inBatch: (trx: Kysely<Database>): boolean => (open.get(trx)?.size ?? 0) > 1,

    /**
     * Whether `runLast` would send the COMMIT behind a statement of `calls` orders on `trx` (a batch
     * of that many, or an order alone, with `commitBehind`): a statement that may refuse must then
     * raise its refusal instead of answering it.
     */
    commitsBehind: (trx: Kysely<Database>, calls: number): boolean => behindOf(trx, calls) !== undefined,

    /**
     * Runs `query` prepared (db/prepared.ts) on `trx`. When it is the last statement of every order of
     * the batch (`calls`: the orders making it, each of which says it makes nothing after it) and the
     * batch may, the batch's COMMIT goes out right behind it (see above); its orders' work must then
     * make no statement after it.
     */
    runLast<R>(trx: Kysely<Database>, query: RawBuilder<R>, calls: number): Promise<QueryResult<R>> {
      const state = behindOf(trx, calls);
      if (!state) return executePrepared(trx, query);
      const compiled = query.compile(trx);
      registerPrepared(compiled.sql);
      stats.commitsBehind++;
      return trx.getExecutor().provideConnection(async (connection) => {
        // Both handed to the driver in this turn: node-postgres in pipeline mode writes them together.
        const statement = connection.executeQuery<R>(compiled);
        const commit = connection.executeQuery(COMMIT).then(
          () => null,
          (error: unknown) => new CommitOutcomeUnknown(error),
        );
        state.commit = statement.then(
          async () => (await commit) ?? ('committed' as const),
          // the statement failed: if the COMMIT was answered, it rolled the aborted transaction back;
          // if not (the connection went), the statement may even have run and committed
          async () => (await commit) ?? ('rolled back' as const),
        );
        return statement;
      });
    },
    /**
     * Batches run, orders in them, batches that fell back to one transaction per order, and batches
     * whose COMMIT went out behind their last statement.
     */
    stats: () => ({ ...stats }),
  };
}

export type GroupCommit = ReturnType<typeof createGroupCommit>;
