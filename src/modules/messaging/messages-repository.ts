import { type Insertable, type Kysely, type Selectable, sql } from 'kysely';
import { executePrepared } from '../../db/prepared.ts';
import type { Database } from '../../db/schema.ts';
import { createGathering } from '../group-commit/index.ts';
import { type MessageStatus, type MessagesTable, withMessagingTables } from './messaging-tables.ts';

export type MessageRow = Selectable<MessagesTable>;
export type NewMessage = Omit<
  Insertable<MessagesTable>,
  'status' | 'next_attempt_at' | 'created_at' | 'updated_at' | 'send_after'
> & { send_after?: Date };

/** What became of one attempt, as the delivery writes it. */
export interface AttemptRecord {
  status: MessageStatus;
  nextAttemptAt: Date | null;
  error: string | null;
  providerId: string | null;
  at: Date;
}

type RecordedRow = Pick<MessageRow, 'id' | 'attempts'>;

const sentAt = (outcome: AttemptRecord) =>
  outcome.status === 'sent' || outcome.status === 'captured' ? outcome.at : null;

/**
 * The outbox's SQL. Messages are inserted `queued` (due at their `send_after`) by services and by the
 * triggers of migration 0020; the worker leases due ones (worker/lease-repository.ts) and records each
 * attempt with a conditional UPDATE (still queued, still at the attempts it read), so a message taken
 * over from a server that died counts once.
 */
export function messagesRepository(appDb: Kysely<Database>) {
  const db = withMessagingTables(appDb);

  /** One attempt's outcome, if the message is still as `row` was; its lease ends with it. */
  async function recordOne(on: Kysely<Database>, row: RecordedRow, outcome: AttemptRecord): Promise<boolean> {
    const typed = withMessagingTables(on);
    const updated = await executePrepared(
      typed,
      typed
        .updateTable('messages')
        .set({
          status: outcome.status,
          attempts: row.attempts + 1,
          next_attempt_at: outcome.nextAttemptAt,
          last_error: outcome.error,
          provider_id: outcome.providerId,
          sent_at: sentAt(outcome),
          updated_at: outcome.at,
          lease_until: null,
          leased_by: null,
        })
        .where('id', '=', row.id)
        .where('status', '=', 'queued')
        .where('attempts', '=', row.attempts),
    );
    return Number(updated.numAffectedRows) === 1;
  }

  /**
   * The outcomes of many attempts in one statement (the same conditions, row by row): the worker runs
   * up to 32 attempts at once, and on the embedded database each statement of its own is a durable
   * commit (an fdatasync). The ids it wrote.
   */
  async function recordMany(
    items: Array<{ row: RecordedRow; outcome: AttemptRecord }>,
  ): Promise<Set<number>> {
    const input = JSON.stringify(
      items.map(({ row, outcome }) => ({
        id: row.id,
        attempts: row.attempts,
        status: outcome.status,
        next_attempt_at: outcome.nextAttemptAt,
        last_error: outcome.error,
        provider_id: outcome.providerId,
        sent_at: sentAt(outcome),
        updated_at: outcome.at,
      })),
    );
    // The ids again as an array (`= ANY`): the messages are found by their key in any plan. Joined to
    // the JSON rows alone, the generic plan read every message in the table for each batch.
    const ids = items.map(({ row }) => row.id);
    const { rows } = await executePrepared(
      appDb,
      sql<{ id: number }>`
      UPDATE messages AS m
      SET status = r.status, attempts = r.attempts + 1, next_attempt_at = r.next_attempt_at,
          last_error = r.last_error, provider_id = r.provider_id, sent_at = r.sent_at,
          updated_at = r.updated_at, lease_until = NULL, leased_by = NULL
      FROM json_to_recordset(${input}::json) AS r (id bigint, attempts int, status text,
             next_attempt_at timestamptz, last_error text, provider_id text, sent_at timestamptz,
             updated_at timestamptz)
      WHERE m.id = ANY(${ids}::bigint[]) AND m.id = r.id
        AND m.status = 'queued' AND m.attempts = r.attempts
      RETURNING m.id`,
    );
    return new Set(rows.map((r) => Number(r.id)));
  }

  // The outcomes recorded in one turn of the event loop are one statement (`recordMany`).
  const records = createGathering<{ row: RecordedRow; outcome: AttemptRecord }, boolean>({
    gathers: () => true,
    one: (on, { row, outcome }) => recordOne(on, row, outcome),
    many: async (on, items) => {
      if (new Set(items.map((i) => i.row.id)).size < items.length) {
        // one message twice (never from one worker: leases): one at a time, so only one is written
        const one: boolean[] = [];
        for (const { row, outcome } of items) one.push(await recordOne(on, row, outcome));
        return one;
      }
      const written = await recordMany(items);
      return items.map(({ row }) => written.has(row.id));
    },
  });

  return {
    db,

    /** Queues messages (in `trx` when given: the transaction of the change that causes them). */
    async insert(messages: NewMessage[], at: Date, trx: Kysely<Database> = appDb): Promise<MessageRow[]> {
      if (messages.length === 0) return [];
      return withMessagingTables(trx)
        .insertInto('messages')
        .values(
          messages.map((m) => ({
            ...m,
            status: 'queued' as const,
            send_after: m.send_after ?? at,
            next_attempt_at: m.send_after && m.send_after > at ? m.send_after : at,
            created_at: at,
            updated_at: at,
          })),
        )
        .returningAll()
        .execute();
    },

    find(id: number): Promise<MessageRow | undefined> {
      return db.selectFrom('messages').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /**
     * Writes an attempt's outcome if the message is still as `row` was (queued, same attempts);
     * `alsoInTrx` runs in the same transaction when it was written (the smsFee refund of a failed
     * SMS). False when another run recorded it first.
     */
    async record(
      row: Pick<MessageRow, 'id' | 'attempts'>,
      outcome: AttemptRecord,
      alsoInTrx?: (trx: Kysely<Database>) => Promise<void>,
    ): Promise<boolean> {
      // The attempt is over: its lease ends with it (no `release` statement after it; the worker's
      // job skips the messages recorded here). The common case (sent, kept, or queued again) is one
      // statement, shared with the outcomes recorded at the same moment; a failure with work of its
      // own, a transaction.
      if (!alsoInTrx) return records.run(appDb, { row, outcome });
      return appDb.transaction().execute(async (trx) => {
        if (!(await recordOne(trx, row, outcome))) return false;
        await alsoInTrx(trx);
        return true;
      });
    },

    /**
     * A delivery receipt's outcome for the sent message one of whose parts the far end named
     * `providerId` (provider_id holds the parts' ids, comma separated: migration 0028 indexes them):
     * `delivered` from sent, `failed` from sent or delivered (a part that never arrived fails the
     * message). `alsoInTrx` runs in the same transaction when it was written (the smsFee refund).
     * The message written, or null when none was waiting for this receipt (already final, unknown id).
     */
    async receipt(
      providerId: string,
      outcome: { status: 'delivered' | 'failed'; error: string | null; at: Date },
      alsoInTrx?: (trx: Kysely<Database>, message: MessageRow) => Promise<void>,
    ): Promise<MessageRow | null> {
      const write = async (on: Kysely<Database>) =>
        (await withMessagingTables(on)
          .updateTable('messages')
          .set({ status: outcome.status, last_error: outcome.error, updated_at: outcome.at })
          .where('channel', '=', 'sms')
          .where('provider_id', 'is not', null)
          .where(sql<boolean>`string_to_array(provider_id, ',') @> ARRAY[${providerId}]::text[]`)
          .where('status', 'in', outcome.status === 'delivered' ? ['sent'] : ['sent', 'delivered'])
          .returningAll()
          .executeTakeFirst()) ?? null;
      if (!alsoInTrx) return write(appDb);
      return appDb.transaction().execute(async (trx) => {
        const message = await write(trx);
        if (message) await alsoInTrx(trx, message);
        return message;
      });
    },

    /** The newest messages first (the console's outbox), `before` an id for the next page. */
    recent(limit: number, before?: number): Promise<MessageRow[]> {
      let q = db.selectFrom('messages').selectAll().orderBy('id', 'desc').limit(limit);
      if (before !== undefined) q = q.where('id', '<', before);
      return q.execute();
    },

    /** The messages about one gift card order, oldest first. */
    ofTransaction(transactionId: number, trx?: Kysely<Database>): Promise<MessageRow[]> {
      return (trx ? withMessagingTables(trx) : db)
        .selectFrom('messages')
        .selectAll()
        .where('transaction_id', '=', transactionId)
        .orderBy('id')
        .execute();
    },
  };
}

export type MessagesRepository = ReturnType<typeof messagesRepository>;
