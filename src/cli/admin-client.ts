import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Agent, request } from 'undici';

/**
 * How the CLI reaches the admin API (decisions §8): `AIRGIFT_URL` (default https://localhost:8443,
 * the admin base is its `/admin`, or `AIRGIFT_ADMIN_URL` in full), the key from `AIRGIFT_ADMIN_KEY` or
 * the data directory's `admin.key`, and the development CA from the data directory.
 */
export interface AdminClientOptions {
  adminUrl: string;
  adminKey: string;
  ca?: string;
}

export function adminClientOptionsFromEnv(env = process.env): AdminClientOptions {
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
  return { adminUrl, adminKey, ca: existsSync(caPath) ? readFileSync(caPath, 'utf8') : undefined };
}

export class CliError extends Error {}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    const b = body as { errorCode?: string; message?: string; details?: { field: string; issue: string }[] };
    const details = b?.details?.map((d) => `\n  ${d.field}: ${d.issue}`).join('') ?? '';
    super(`${status} ${b?.errorCode ?? ''} ${b?.message ?? JSON.stringify(body)}${details}`.trim());
  }
}

export function createAdminClient(options: AdminClientOptions) {
  const dispatcher = new Agent({ connect: options.ca ? { ca: options.ca } : {} });
  return {
    async call<T = unknown>(method: 'GET' | 'POST' | 'PATCH', path: string, body?: unknown): Promise<T> {
      let response: Awaited<ReturnType<typeof request>>;
      try {
        response = await request(`${options.adminUrl}${path}`, {
          method,
          dispatcher,
          headers: {
            authorization: `Bearer ${options.adminKey}`,
            accept: 'application/json',
            ...(body !== undefined && { 'content-type': 'application/json' }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      } catch (error) {
        throw new CliError(
          `Cannot reach ${options.adminUrl}: ${(error as Error).message}. Is the server running (npm start)?`,
        );
      }
      const text = await response.body.text();
      const parsed = text ? JSON.parse(text) : null;
      if (response.statusCode >= 400) throw new ApiError(response.statusCode, parsed);
      return parsed as T;
    },
    close: () => dispatcher.close(),
  };
}

export type AdminClient = ReturnType<typeof createAdminClient>;
