import type { PGlite } from '@electric-sql/pglite';
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';

/**
 * Kysely over embedded PGlite. PGlite is one session, so the driver hands out its single connection
 * to one holder at a time: a transaction keeps it from BEGIN to COMMIT and other queries queue behind
 * it, which gives the same isolation a pooled PostgreSQL connection would.
 */
export class PGliteDialect implements Dialect {
  constructor(private readonly pglite: PGlite) {}
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.pglite);
  }
  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
}

class PGliteDriver implements Driver {
  private readonly connection: PGliteConnection;
  private queue: Promise<void> = Promise.resolve();
  private release: (() => void) | null = null;

  constructor(pglite: PGlite) {
    this.connection = new PGliteConnection(pglite);
  }

  async init() {}

  async acquireConnection(): Promise<DatabaseConnection> {
    const previous = this.queue;
    let release!: () => void;
    this.queue = new Promise<void>((resolve) => {
      release = resolve;
    });
    await previous;
    this.release = release;
    return this.connection;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) {
    const level = settings.isolationLevel ? ` ISOLATION LEVEL ${settings.isolationLevel.toUpperCase()}` : '';
    await connection.executeQuery({ sql: `BEGIN${level}`, parameters: [] } as unknown as CompiledQuery);
  }

  async commitTransaction(connection: DatabaseConnection) {
    await connection.executeQuery({ sql: 'COMMIT', parameters: [] } as unknown as CompiledQuery);
  }

  async rollbackTransaction(connection: DatabaseConnection) {
    await connection.executeQuery({ sql: 'ROLLBACK', parameters: [] } as unknown as CompiledQuery);
  }

  async releaseConnection() {
    const release = this.release;
    this.release = null;
    release?.();
  }

  async destroy() {}
}

class PGliteConnection implements DatabaseConnection {
  constructor(private readonly pglite: PGlite) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    // Like node-postgres, a query without parameters goes through the simple protocol, so a
    // multi-statement script (a migration) runs as one; its last statement's rows are returned.
    const result =
      query.parameters.length === 0
        ? ((await this.pglite.exec(query.sql)).at(-1) ?? { rows: [], affectedRows: 0 })
        : await this.pglite.query<R>(query.sql, query.parameters as unknown[], { rowMode: 'object' });
    return {
      rows: result.rows as R[],
      numAffectedRows: result.affectedRows === undefined ? undefined : BigInt(result.affectedRows),
    };
  }

  // biome-ignore lint/correctness/useYield: streaming is not offered by PGlite; callers use executeQuery.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('PGlite does not stream query results');
  }
}
