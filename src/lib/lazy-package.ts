import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * A CommonJS package loaded the first time it is used, not when the server's modules load: packages
 * only some deployments need (node-postgres without DATABASE_URL, ioredis without REDIS_URL, undici
 * without an upstream, node-forge once the TLS certificate exists) cost ~350 ms of CPU at every start
 * otherwise. Resolved from this file's place, which finds the same node_modules from `src/lib/` and
 * from the production bundle `dist/main.mjs`.
 *
 * @example
 * const redis = lazyPackage<typeof import('ioredis')>('ioredis');
 * new (redis().Redis)(url);
 */
export function lazyPackage<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => {
    loaded ??= require(name) as T;
    return loaded;
  };
}
