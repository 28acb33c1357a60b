import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Agent, fetch } from 'undici';
import { Admin, type FetchLike } from '../../sdk/src/index.ts';

/** A mistake the command line reports itself (no admin key, a file that is not there). */
export class CliError extends Error {}

export interface Connection {
  admin: Admin;
  adminUrl: string;
  close(): Promise<void>;
}

/**
 * How the CLI reaches the admin API (decisions §8): `AIRGIFT_URL` (default https://localhost:8443,
 * the admin base is its `/admin`, or `AIRGIFT_ADMIN_URL` in full), the key from `AIRGIFT_ADMIN_KEY` or
 * the data directory's `admin.key`, and the development CA from `AIRGIFT_CA_FILE` or the data
 * directory. The SDK's `Admin` client makes the calls, through undici so the CA can be trusted.
 */
export function connectFromEnv(env = process.env): Connection {
  const dataDir = resolve(env.DATA_DIR ?? './data');
  const root = (env.AIRGIFT_URL ?? 'https://localhost:8443').replace(/\/+$/, '');
  const adminUrl = (env.AIRGIFT_ADMIN_URL ?? `${root}/admin`).replace(/\/+$/, '');
  const keyPath = join(dataDir, 'admin.key');
  const adminKey = env.AIRGIFT_ADMIN_KEY ?? (existsSync(keyPath) ? readFileSync(keyPath, 'utf8').trim() : '');
  if (!adminKey) {
    throw new CliError(
      `No admin key: set AIRGIFT_ADMIN_KEY, or run from the directory whose ${keyPath} the server wrote`,
    );
  }
  const caPath = env.AIRGIFT_CA_FILE ?? join(dataDir, 'tls', 'ca.crt');
  const ca = existsSync(caPath) ? readFileSync(caPath, 'utf8') : undefined;
  const dispatcher = new Agent({ connect: ca ? { ca } : {} });
  const viaAgent: FetchLike = (url, init) => fetch(url, { ...init, dispatcher });
  const admin = new Admin({
    adminKey,
    baseUrl: adminUrl,
    fetch: viaAgent,
    // One attempt and no time limit: the operator sees a failure at once and decides to run again.
    retry: { maxAttempts: 1 },
    timeoutMs: 0,
  });
  return { admin, adminUrl, close: () => dispatcher.close() };
}
