import { join } from 'node:path';
import type { Config } from './config.ts';
import { type Db, openDatabase } from './db/database.ts';
import { loadMigrations, migrate } from './db/migrate.ts';
import { type BaseRouter, basesFromConfig, createBaseRouter } from './http/bases.ts';
import { type AppRateLimiter, openRateLimiter } from './http/rate-limit.ts';
import type { Clock } from './lib/clock.ts';
import { readOrCreateSecret } from './lib/secret-files.ts';
import { createReadiness, type Readiness } from './readiness.ts';
import { createServices, type Services } from './services.ts';

/**
 * Everything a running airgift needs besides the HTTP listener: the migrated database, the keys,
 * the bases and the services. main.ts and the test harness both start from here.
 */
export interface Runtime {
  config: Config;
  db: Db;
  bases: BaseRouter;
  services: Services;
  adminKey: string;
  adminKeyPath: string | null;
  /** `/ready`, and the outage monitor that logs a database outage once. */
  readiness: Readiness;
  /** Rate limit counters: through Redis when REDIS_URL is set, else in this process. */
  rateLimiter: AppRateLimiter;
}

export async function openRuntime(config: Config, clock: Clock, db?: Db): Promise<Runtime> {
  const database =
    db ??
    (await openDatabase(
      config.databaseUrl
        ? { url: config.databaseUrl, poolSize: config.databasePoolSize }
        : { pgliteDataDir: join(config.dataDir, 'pgdata'), sharedBuffers: config.pgliteSharedBuffers },
    ));
  const migrations = await loadMigrations();
  await migrate(database, migrations);
  const adminKeyPath = config.adminKey ? null : join(config.dataDir, 'admin.key');
  const adminKey = config.adminKey ?? (await readOrCreateSecret(adminKeyPath as string));
  const signingKey =
    config.tokenSigningKey ?? (await readOrCreateSecret(join(config.dataDir, 'token-signing.key')));
  const bases = createBaseRouter(basesFromConfig(config), { publicUrl: config.publicUrl });
  const services = createServices({
    config,
    db: database,
    clock,
    bases,
    tokenSigningKey: new TextEncoder().encode(signingKey),
  });
  await services.fx.seed();
  await services.giftcards.catalog.seed();
  const readiness = createReadiness({
    db: database,
    migrations: migrations.map((m) => m.version),
    workers: {
      'background worker': services.worker,
    },
  });
  const rateLimiter = openRateLimiter(config, clock);
  return { config, db: database, bases, services, adminKey, adminKeyPath, readiness, rateLimiter };
}
