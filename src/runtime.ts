import { join } from 'node:path';
import type { Config } from './config.ts';
import { type Db, guardByDefault, openDatabase } from './db/database.ts';
import { checkKey, holdsData } from './db/installation.ts';
import { loadMigrations, migrate } from './db/migrate.ts';
import { type BaseRouter, basesFromConfig, createBaseRouter } from './http/bases.ts';
import { type AppRateLimiter, openRateLimiter } from './http/rate-limit.ts';
import type { Clock } from './lib/clock.ts';
import { readKeyFile } from './lib/secret-files.ts';
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
        ? {
            url: config.databaseUrl,
            poolSize: config.databasePoolSize,
            preparedStatements: config.databasePreparedStatements,
          }
        : { pgliteDataDir: join(config.dataDir, 'pgdata'), sharedBuffers: config.pgliteSharedBuffers },
      { guard: config.databaseGuard === 'auto' ? guardByDefault() : config.databaseGuard === 'on' },
    ));
  const migrations = await loadMigrations();
  await migrate(database, migrations);
  // Keys are generated only into a new installation (data-directory.ts); later a missing one stops
  // the start, and so does one that is not the key the stored data was protected with.
  const fresh = !(await holdsData(database));
  const keyFile = (name: string, what: string) =>
    readKeyFile(join(config.dataDir, name), { mayCreate: fresh, what });
  const adminKeyPath = config.adminKey ? null : join(config.dataDir, 'admin.key');
  const adminKey = config.adminKey ?? keyFile('admin.key', 'the admin key');
  const signingKey = config.tokenSigningKey ?? keyFile('token-signing.key', 'the token signing key');
  const codesKey = config.cardCodesKey ?? keyFile('card-codes.key', 'the redeem codes key');
  await checkKey(database, {
    name: 'token signing',
    key: signingKey,
    fresh,
    where: config.tokenSigningKey ? 'TOKEN_SIGNING_KEY' : join(config.dataDir, 'token-signing.key'),
  });
  await checkKey(database, {
    name: 'redeem codes',
    key: codesKey,
    fresh,
    where: config.cardCodesKey ? 'CARD_CODES_KEY' : join(config.dataDir, 'card-codes.key'),
  });
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
    dataDir: db || config.databaseUrl ? null : config.dataDir,
  });
  const rateLimiter = openRateLimiter(config, clock);
  return { config, db: database, bases, services, adminKey, adminKeyPath, readiness, rateLimiter };
}
