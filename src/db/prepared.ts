import type {
  Compilable,
  CompiledQuery,
  Kysely,
  QueryExecutorProvider,
  QueryResult,
  RawBuilder,
} from 'kysely';
import { mayPrecedeBegin } from './pipelined-begin.ts';
import type { Database } from './schema.ts';

/**
 * Statements PostgreSQL parses and plans once per connection: the order path's and the outbox's
 * statements of a fixed text, made thousands of times a second under load. Each is sent as a named
 * prepared statement (node-postgres's `{ name, text, values }`): the first time on a connection it
 * is parsed there, every later time only bound and run, and its text is not sent again. One of
 * these statements is a few kilobytes of CTEs (a batch's debits with its rows), whose parsing and
 * planning was a good part of what a backend spent per batch.
 *
 * Only a statement whose text never varies with its values belongs here (one JSON parameter for a
 * batch's rows, never a VALUES list per row): a name is given per distinct text, at most
 * `MAX_PREPARED` of them (past that, statements run unnamed, as any other). Kysely knows nothing of
 * it: `database.ts` gives each pooled client's `query` the name of a text registered here. PGlite
 * (one session in this process, no protocol) runs them as any other statement.
 *
 * PostgreSQL plans a prepared statement for its values the first five times, then keeps a generic
 * plan if it costs no more: the statements here are written so that their plan does not hang on
 * their values (the customIdentifier seeks name their index's order; a batch's rows are one JSON
 * parameter, opaque to the planner either way). A statement that finds existing rows of a large
 * table by their keys takes the keys as an array (`id = ANY($1::bigint[])`, guessed at 10 values),
 * never by joining the table to the JSON rows (guessed at 100): the generic plan of such a join read
 * the whole table for every batch (the outbox's statements, issue 30).
 *
 * @example
 * const { rows } = await executePrepared(trx, sql`SELECT nextval('ids') FROM generate_series(1, ${n}::int)`);
 */
export const MAX_PREPARED = 100;

const names = new Map<string, string>();

/** Registers a statement's text (idempotent; ignored past `MAX_PREPARED` texts). */
export function registerPrepared(text: string): void {
  if (names.has(text) || names.size >= MAX_PREPARED) return;
  names.set(text, `airgift_${names.size + 1}`);
}

/**
 * Compiles `query` for `db`, registers its text and runs it on `db` (a transaction or the pool).
 * `beforeBegin`: the statement is harmless outside a transaction (a read, ids taken from a sequence),
 * so it may go out behind the group commit's BEGIN before that BEGIN answered (pipelined-begin.ts).
 */
export function executePrepared<R>(
  db: QueryExecutorProvider & Pick<Kysely<Database>, 'executeQuery'>,
  query: RawBuilder<R> | Compilable<R>,
  options?: { beforeBegin?: boolean },
): Promise<QueryResult<R>> {
  // a raw statement compiles for the executor it is given; a query builder knows its own
  const compiled = (query as RawBuilder<R>).compile(db) as CompiledQuery<R>;
  registerPrepared(compiled.sql);
  if (options?.beforeBegin) mayPrecedeBegin(compiled.sql);
  return db.executeQuery(compiled);
}

/**
 * A pooled node-postgres client whose statements of a registered text go out named (see above).
 * Kysely calls `query(text, values)`; every other form of call passes through as it was.
 */
export function namePreparedStatements(client: { query: (...args: never[]) => unknown }): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((config: unknown, values?: unknown, callback?: unknown) => {
    if (typeof config === 'string' && callback === undefined) {
      const name = names.get(config);
      if (name !== undefined) return query({ name, text: config, values });
    }
    return callback === undefined ? query(config, values) : query(config, values, callback);
  }) as never;
}

/**
 * A query compiled once (a query builder's, with placeholder values), run with these `parameters`
 * as a prepared statement: neither the builder nor the compiler runs per call.
 *
 * @example
 * const byId = db.selectFrom('t').selectAll().where('id', '=', 0).compile();
 * const { rows } = await runCompiled(db, byId, [id]);
 */
export function runCompiled<R>(
  db: Pick<Kysely<Database>, 'executeQuery'>,
  compiled: CompiledQuery<R>,
  parameters: readonly unknown[],
): Promise<QueryResult<R>> {
  if (parameters.length !== compiled.parameters.length) {
    throw new Error(`${compiled.parameters.length} parameters expected, ${parameters.length} given`);
  }
  registerPrepared(compiled.sql);
  return db.executeQuery({ ...compiled, parameters });
}
