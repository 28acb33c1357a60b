import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Agent, fetch as undiciFetch } from 'undici';
// In your own project: import { ... } from '@airgift/sdk';
import { AirgiftError, type BaseUrlOptions, type FetchInit, type FetchLike } from '../sdk/src/index.ts';

/**
 * How the examples find a running airgift (see examples/README.md). With nothing set they use what
 * `npm start` made: https://localhost:8443, the sandbox credentials in data/sandbox-credentials.json
 * and the development CA in data/tls/ca.crt.
 *
 *   AIRGIFT_URL             where the server listens (default https://localhost:8443)
 *   AIRGIFT_PUBLIC_URL      root of the bases as the server names them, i.e. its PUBLIC_URL; the
 *                           token audiences hang from it (default AIRGIFT_URL)
 *   AIRGIFT_CLIENT_ID       sandbox client id     } default: AIRGIFT_CREDENTIALS_FILE, or
 *   AIRGIFT_CLIENT_SECRET   sandbox client secret }          $DATA_DIR/sandbox-credentials.json
 *   AIRGIFT_CA_FILE         CA to trust (default $DATA_DIR/tls/ca.crt; "system" for the system store)
 *   DATA_DIR                the server's data directory (default ./data)
 */
const env = process.env;
const dataDir = env.DATA_DIR ?? 'data';
const url = (env.AIRGIFT_URL ?? 'https://localhost:8443').replace(/\/+$/, '');
const publicUrl = (env.AIRGIFT_PUBLIC_URL ?? url).replace(/\/+$/, '');

function credentials() {
  if (env.AIRGIFT_CLIENT_ID && env.AIRGIFT_CLIENT_SECRET) {
    return { clientId: env.AIRGIFT_CLIENT_ID, clientSecret: env.AIRGIFT_CLIENT_SECRET };
  }
  const file = env.AIRGIFT_CREDENTIALS_FILE ?? join(dataDir, 'sandbox-credentials.json');
  try {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { clientId: string; clientSecret: string };
    return { clientId: saved.clientId, clientSecret: saved.clientSecret };
  } catch {
    throw new Error(
      `No credentials: set AIRGIFT_CLIENT_ID and AIRGIFT_CLIENT_SECRET, or start the server once (npm start) so that ${file} exists`,
    );
  }
}

/**
 * A fetch that trusts the development CA. Node's own fetch trusts it too when the process starts
 * with NODE_EXTRA_CA_CERTS=data/tls/ca.crt; then no custom fetch is needed at all.
 */
function trustingFetch(): { fetch?: FetchLike; close(): Promise<void> } {
  const caFile = env.AIRGIFT_CA_FILE ?? join(dataDir, 'tls', 'ca.crt');
  if (caFile === 'system') return { close: async () => {} };
  const dispatcher = new Agent({ connect: { ca: readFileSync(caFile, 'utf8') } });
  const fetch = ((target: string, init: FetchInit) =>
    undiciFetch(target, { ...init, dispatcher } as Parameters<typeof undiciFetch>[1])) as FetchLike;
  return { fetch, close: () => dispatcher.close() };
}

const transport = trustingFetch();

/** Client options for the sandbox base of a product. */
export function sandbox(
  product: 'giftcards' | 'topups',
  extra: Partial<BaseUrlOptions> = {},
): BaseUrlOptions {
  return {
    ...credentials(),
    baseUrl: `${url}/${product}-sandbox`,
    authUrl: `${url}/auth`,
    audience: `${publicUrl}/${product}-sandbox`,
    fetch: transport.fetch,
    ...extra,
  };
}

/** Runs an example: an AirgiftError is printed with its code and request id, and exits 1. */
export async function run(main: () => Promise<void>): Promise<void> {
  try {
    await main();
  } catch (error) {
    if (error instanceof AirgiftError) {
      console.error(`${error.errorCode} (HTTP ${error.status}): ${error.message}`);
      for (const d of error.details) console.error(`  ${d.field}: ${d.issue}`);
      if (error.requestId) console.error(`  request id: ${error.requestId}`);
    } else {
      console.error(error instanceof Error ? error.message : error);
    }
    process.exitCode = 1;
  } finally {
    await transport.close();
  }
}

/** A reference for an order, unique enough to retry the order safely. */
export function newCustomIdentifier(prefix: string): string {
  return `${prefix}-${new Date().toISOString().replace(/\D/g, '').slice(0, 14)}-${Math.random().toString(36).slice(2, 8)}`;
}
