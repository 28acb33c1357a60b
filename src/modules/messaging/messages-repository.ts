import { type Insertable, type Kysely, type Selectable, sql } from 'kysely';
import { executePrepared } from '../../db/prepared.ts';
import type { Database } from '../../db/schema.ts';
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

/**
 * The outbox's SQL. Messages are inserted `queued` (due at their `send_after`) by services and by the
 * triggers of migration 0020; the worker leases due ones (worker/lease-repository.ts) and records each
 * attempt with a conditional UPDATE (still queued, still at the attempts it read), so a message taken
 * over from a server that died counts once.
 */
export function messagesRepository(appDb: Kysely<Database>) {
  const db = withMessagingTables(appDb);
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
      const write = async (on: Kysely<Database>) => {
        const typed = withMessagingTables(on);
        // The attempt is over: its lease ends with it (no `release` statement after it; the worker's
        // job skips the messages recorded here). A prepared statement (db/prepared.ts): one per message sent.
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
              sent_at: outcome.status === 'sent' || outcome.status === 'captured' ? outcome.at : null,
              updated_at: outcome.at,
              lease_until: null,
              leased_by: null,
            })
            .where('id', '=', row.id)
            .where('status', '=', 'queued')
            .where('attempts', '=', row.attempts),
        );
        return Number(updated.numAffectedRows) === 1;
      };
      // the common case (sent, or queued again) is one statement; a failure with work of its own a transaction
      if (!alsoInTrx) return write(appDb);
      return appDb.transaction().execute(async (trx) => {
        if (!(await write(trx))) return false;
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
