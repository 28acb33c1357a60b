import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { type ApiRequestLogTable, withRequestLogTables } from './request-log-tables.ts';

/** A row as written: already masked (request-log-rows.ts); the table's columns, the time in ms. */
export type RequestLogRow = Omit<ApiRequestLogTable, 'id' | 'at' | 'account_id' | 'transaction_id'> & {
  at: number;
  account_id: number;
  transaction_id: number | null;
};

export interface RequestLogQuery {
  accountId: number;
  environment?: string;
  /** `failed` (400 and above), a class (`4xx`), or one status (`404`) */
  status?: string;
  /** a part of the path */
  path?: string;
  clientId?: string;
  from?: Date;
  to?: Date;
}

/**
 * The only SQL of the request log. A batch is ONE statement whatever its size: the rows go in as one
 * JSON parameter (`json_to_recordset`), so its text never changes and nothing is compiled per batch.
 */
export function requestLogRepository(appDb: Kysely<Database>) {
  const db = withRequestLogTables(appDb);

  return {
    async insert(rows: RequestLogRow[]): Promise<void> {
      if (rows.length === 0) return;
      await sql`
        INSERT INTO api_request_log (at, account_id, environment, product, client_id, method, path, status,
                                     latency_ms, request_id, request_body, response_body, transaction_id)
        SELECT to_timestamp(r.at / 1000.0), r.account_id, r.environment, r.product, r.client_id, r.method,
               r.path, r.status, r.latency_ms, r.request_id, r.request_body, r.response_body, r.transaction_id
        FROM json_to_recordset(${JSON.stringify(rows)}::json) AS r(
          at double precision, account_id bigint, environment text, product text, client_id text,
          method text, path text, status smallint, latency_ms real, request_id text,
          request_body text, response_body text, transaction_id bigint)`.execute(db);
    },

    /** The request id of the request that created a transaction, while its line is kept. */
    async creatorOf(accountId: number, environment: string, product: string, transactionId: number) {
      const row = await db
        .selectFrom('api_request_log')
        .select('request_id')
        .where('account_id', '=', accountId)
        .where('product', '=', product)
        .where('transaction_id', '=', transactionId)
        .where('environment', '=', environment)
        .orderBy('id')
        .limit(1)
        .executeTakeFirst();
      return row?.request_id ?? null;
    },

    /** Newest first. */
    list(q: RequestLogQuery, page: { limit: number; offset: number }) {
      let query = db.selectFrom('api_request_log').selectAll().where('account_id', '=', q.accountId);
      if (q.environment) query = query.where('environment', '=', q.environment);
      if (q.clientId) query = query.where('client_id', '=', q.clientId);
      if (q.path) query = query.where(sql<boolean>`strpos(path, ${q.path}) > 0`);
      if (q.from) query = query.where('at', '>=', q.from);
      if (q.to) query = query.where('at', '<', q.to);
      const status = q.status;
      if (status === 'failed') query = query.where('status', '>=', 400);
      else if (status && /^[1-5]xx$/.test(status)) {
        const low = Number(status[0]) * 100;
        query = query.where('status', '>=', low).where('status', '<', low + 100);
      } else if (status) query = query.where('status', '=', Number(status));
      return query
        .orderBy('at', 'desc')
        .orderBy('id', 'desc')
        .limit(page.limit)
        .offset(page.offset)
        .execute();
    },

    /** Is any row older than `cutoff` left? */
    async hasOlderThan(cutoff: Date): Promise<boolean> {
      const row = await db
        .selectFrom('api_request_log')
        .select('id')
        .where('at', '<', cutoff)
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },

    /**
     * Removes at most `limit` rows older than `cutoff`, oldest first; rows another server is removing
     * at the same moment are skipped, not waited for. Returns how many it removed.
     */
    async removeOlderThan(cutoff: Date, limit: number): Promise<number> {
      const result = await sql`
        DELETE FROM api_request_log WHERE id IN (
          SELECT id FROM api_request_log WHERE at < ${cutoff} ORDER BY at LIMIT ${limit} FOR UPDATE SKIP LOCKED)`.execute(
        db,
      );
      return Number(result.numAffectedRows ?? 0);
    },
  };
}

export type RequestLogRepository = ReturnType<typeof requestLogRepository>;
export type StoredRequest = Awaited<ReturnType<RequestLogRepository['list']>>[number];
