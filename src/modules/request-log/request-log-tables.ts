import type { ColumnType, Generated, Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** The table of migration 0023 as Kysely sees it: one row per logged API request. */
export interface ApiRequestLogTable {
  id: Generated<string | number>;
  at: Date;
  account_id: ColumnType<string | number, number, never>;
  environment: string;
  product: string;
  client_id: string;
  method: string;
  path: string;
  status: number;
  latency_ms: number;
  request_id: string;
  request_body: string | null;
  response_body: string | null;
  /** the transaction a successful order request created (migration 0026; since 0035 such a request is a segment's line) */
  transaction_id: ColumnType<string | number | null, number | null | undefined, never>;
}

/** The table of migration 0030: the successful requests, a segment per row (0035: those that created a transaction too). */
export interface ApiRequestReadsTable {
  id: Generated<string | number>;
  account_id: ColumnType<string | number, number, never>;
  environment: string;
  product: string;
  client_id: string;
  first_at: Date;
  last_at: Date;
  lines: number;
  /** JSON text: `[[at ms, method, path, status, latency ms, request id], ...]` */
  entries: string;
  /** migration 0035: the transactions its lines created, and at the same position the creating request's id */
  created_transactions: ColumnType<Array<string | number> | null, number[] | null | undefined, never>;
  creating_requests: ColumnType<string[] | null, string[] | null | undefined, never>;
}

export type RequestLogTables = {
  api_request_log: ApiRequestLogTable;
  api_request_reads: ApiRequestReadsTable;
};

export function withRequestLogTables(db: Kysely<Database>): Kysely<Database & RequestLogTables> {
  return db.withTables<RequestLogTables>();
}
