import { pipeline, type Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { Type } from 'typebox';
import type { TypedApp } from '../../http/schemas.ts';
import type { BackupService } from './backup-service.ts';

/**
 * `GET /backup` on the admin API (`airgift backup --out FILE`): a consistent backup of the whole
 * installation, the database's rows and DATA_DIR's keys, as a gzip'd file of our own format
 * (backup-format.ts). The backup is written to a temporary file first and sent after its
 * transaction committed, so a slow download holds nothing in the database.
 */
const BackupQuery = Type.Object(
  {
    withoutKeys: Type.Optional(
      Type.Boolean({
        description:
          'Leave the key files (card-codes.key, token-signing.key, admin.key) out; the restore then needs them from elsewhere.',
      }),
    ),
  },
  { additionalProperties: false },
);

export function backupRoutes(app: TypedApp, backups: BackupService) {
  app.get(
    '/backup',
    {
      schema: {
        summary: 'A consistent backup of the database and the keys',
        description:
          'Every table and sequence read in one REPEATABLE READ, READ ONLY transaction, written to a temporary file, then sent gzip-compressed: a header line (format, migrations, database, where each key comes from, the text of the key files), the rows, the sequences, and an end line counting every table. It holds the keys and the sealed codes: keep it as safe as the keys. Restore it with `airgift restore --from FILE` (server stopped), into PGlite or PostgreSQL.',
        querystring: BackupQuery,
        response: {
          200: {
            description: 'The backup file (gzip of JSON lines)',
            content: {
              'application/gzip': {
                schema: Type.Unsafe<Readable>({ type: 'string', contentMediaType: 'application/gzip' }),
              },
            },
          },
        },
      },
    },
    async (request, reply) => {
      const backup = await backups.write({ withoutKeys: request.query.withoutKeys === true });
      request.log.info(
        { ...backup.stats, heldMs: Math.round(backup.stats.heldMs) },
        'backup written; the database was held for heldMs',
      );
      const file = await backup.open().catch(async (error) => {
        await backup.discard();
        throw error;
      });
      const name = `airgift-${backup.createdAt.toISOString().replace(/[:.]/g, '-')}.backup.gz`;
      return (
        reply
          .header('Content-Type', 'application/gzip')
          .header('Content-Disposition', `attachment; filename="${name}"`)
          .header('Cache-Control', 'no-store')
          // pipeline: a download cut short closes the file too (pipe alone would leave it open).
          .send(pipeline(file, createGzip(), () => undefined))
      );
    },
  );
}
