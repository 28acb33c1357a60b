/**
 * A BEGIN whose answer is not waited for: the group commit's transactions (modules/group-commit/)
 * send `PIPELINED_BEGIN` and their first statement at once, one round trip where two were taken
 * (node-postgres in pipeline mode writes each query when it is made, database.ts).
 *
 * The risk is a BEGIN that fails on a connection that still works: the statements behind it would
 * then each commit on their own (autocommit). So, on each pooled client (`gatePipelinedBegin`):
 *
 * - While such a BEGIN is unanswered, a statement goes out behind it only if its text was declared
 *   harmless outside a transaction (`mayPrecedeBegin`: reads, and taking ids from a sequence, which
 *   no rollback gives back anyway). Every other statement (a debit, a row, the COMMIT) waits for the
 *   BEGIN's answer: the order's id is read before its debit is written in any case, so the debit of
 *   an order waits for nothing.
 * - A BEGIN that fails ends its client (`end()`): the statements waiting are refused and never sent
 *   (`BeginFailed`, the BEGIN's error its cause), every later one is refused too, and the pool drops
 *   the client when it is given back. The statements already behind it were harmless.
 *
 * Only queries made as Kysely makes them (`query(text, values)`) are held; the other forms of call
 * (a cursor, a callback) pass as they came, and the group commit's transactions make none.
 *
 * @example
 * gatePipelinedBegin(client);                          // database.ts, once per pooled client
 * mayPrecedeBegin(compiled.sql);                       // prepared.ts: `executePrepared(trx, q, { beforeBegin: true })`
 * const begun = connection.executeQuery(CompiledQuery.raw(PIPELINED_BEGIN));   // not awaited yet
 */
export const PIPELINED_BEGIN = 'BEGIN /* pipelined: db/pipelined-begin.ts */';

const harmless = new Set<string>();

/** Declares a statement's text harmless outside a transaction: it may go out behind an unanswered BEGIN. */
export function mayPrecedeBegin(text: string): void {
  harmless.add(text);
}

/** What a statement held behind a BEGIN that failed is refused with (never sent). */
export class BeginFailed extends Error {
  constructor(cause: unknown) {
    super('the transaction did not begin: this statement was not sent', { cause });
  }
}

interface GatedClient {
  query: (...args: never[]) => unknown;
  end(): Promise<void>;
}

/** Holds a client's statements behind its unanswered `PIPELINED_BEGIN` (see above). */
export function gatePipelinedBegin(client: GatedClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  // the answer of the BEGIN not yet answered (null: none); rejects when that BEGIN failed
  let unanswered: Promise<void> | null = null;
  client.query = ((config: unknown, values?: unknown, callback?: unknown) => {
    if (typeof config === 'string' && callback === undefined) {
      if (config === PIPELINED_BEGIN) {
        const sent = query(config, values) as Promise<unknown>;
        const answered: Promise<void> = sent.then(
          () => {
            if (unanswered === answered) unanswered = null;
          },
          (error: unknown) => {
            // nothing more may run on a connection whose BEGIN failed: not even in autocommit
            client.end().catch(() => undefined);
            throw new BeginFailed(error);
          },
        );
        answered.catch(() => undefined);
        unanswered = answered;
        return sent;
      }
      if (unanswered !== null && !harmless.has(config)) {
        return unanswered.then(() => query(config, values));
      }
    }
    return callback === undefined ? query(config, values) : query(config, values, callback);
  }) as never;
}
