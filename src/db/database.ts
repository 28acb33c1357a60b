import { PGlite } from '@electric-sql/pglite';
import { Kysely, PGliteDialect, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.ts';

/**
 * The system of record: PostgreSQL when a URL is given, otherwise embedded PGlite in a data
 * directory. Both run the same migrations and are used through the same Kysely instance.
 */
export interface Db {
  kind: 'postgres' | 'pglite';
  kysely: Kysely<Database>;
  /** The embedded instance when kind is 'pglite': migrations run their scripts with its exec. */
  pglite?: PGlite;
  close(): Promise<void>;
}

export type DbTarget = { url: string; poolSize?: number } | { pgliteDataDir?: string; pglite?: PGlite };

const INT8 = 20;

export async function openDatabase(target: DbTarget): Promise<Db> {
  if ('url' in target) return openPostgres(target.url, target.poolSize ?? 10);
  const pglite =
    target.pglite ??
    (await PGlite.create(target.pgliteDataDir, {
      parsers: { [INT8]: (value: string) => Number(value) },
    }));
  return fromPGlite(pglite);
}

export function fromPGlite(pglite: PGlite): Db {
  const kysely = new Kysely<Database>({ dialect: new PGliteDialect({ pglite }) });
  return {
    kind: 'pglite',
    kysely,
    pglite,
    async close() {
      await kysely.destroy();
      if (!pglite.closed) await pglite.close();
    },
  };
}

function openPostgres(url: string, poolSize: number): Db {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
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
  const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    kind: 'postgres',
    kysely,
    async close() {
      await kysely.destroy();
    },
  };
}
