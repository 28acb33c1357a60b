import { X509Certificate } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, UpstreamProduct } from '../../db/schema.ts';
import { AppError, type ErrorDetail } from '../../errors/error-codes.ts';
import type { Clock } from '../../lib/clock.ts';
import type { TextSealer } from '../../lib/sealed-text.ts';
import { formatDateTime } from '../../lib/time-format.ts';
import { createUpstreamClient, type UpstreamClient } from './upstream-client.ts';
import type { UpstreamRepository, UpstreamRow } from './upstream-repository.ts';

/**
 * The operator's upstreams (`airgift upstream set|show|remove`) and the clients the providers call
 * them with. The client secret is sealed before it reaches the database and never answered back.
 * A client is built once per configuration (its token cache lives as long as the configuration
 * does) and closed when the configuration changes or goes.
 *
 * Health is written by the providers through `noteError`, `noteInsufficientBalance` and
 * `noteSuccess`; `onProblem` listeners (main.ts: the log) hear of each problem as it happens.
 *
 * @example
 * await upstreams.set('giftcards', { url, authUrl, clientId, clientSecret, caPem: null, marginPercent: '5' });
 * const client = await upstreams.client('giftcards'); // null when none is configured
 */
export interface UpstreamInput {
  url: string;
  authUrl: string;
  clientId: string;
  clientSecret: string;
  caPem?: string | null;
  /** decimal text, 0 to below 100; default 0 */
  marginPercent?: string;
}

export interface UpstreamView {
  product: UpstreamProduct;
  url: string;
  authUrl: string;
  clientId: string;
  caConfigured: boolean;
  marginPercent: number;
  lastSyncAt: string | null;
  updatedAt: string;
  health: {
    lastError: string | null;
    lastErrorAt: string | null;
    lastSuccessAt: string | null;
    insufficientBalance: boolean;
    insufficientBalanceAt: string | null;
  };
  /** The upstream's own balance, read live from its /accounts/balance. */
  balance: { balance: number; currencyCode: string } | null;
  balanceError: string | null;
}

export interface UpstreamProblem {
  product: UpstreamProduct;
  kind: 'error' | 'insufficient-balance';
  transactionId?: number;
  message: string;
}

const DECIMAL = /^\d{1,2}(\.\d{1,4})?$/;
const at = (d: Date | null) => (d ? formatDateTime(d) : null);

export function createUpstreamService(deps: {
  repository: UpstreamRepository;
  sealer: TextSealer;
  clock: Clock;
  timeoutMs: number;
  /** How long an order PROCESSING at the upstream (or unknown there) waits for its next step (UPSTREAM_RECHECK_MS). */
  recheckMs: number;
}) {
  const { repository, sealer, clock } = deps;
  const clients = new Map<UpstreamProduct, { version: number; client: UpstreamClient }>();
  const listeners: Array<(p: UpstreamProblem) => void> = [];

  async function clientOf(row: UpstreamRow): Promise<UpstreamClient> {
    const version = row.updated_at.getTime();
    const kept = clients.get(row.product);
    if (kept?.version === version) return kept.client;
    const client = createUpstreamClient(
      {
        product: row.product,
        baseUrl: row.base_url,
        authUrl: row.auth_url,
        clientId: row.client_id,
        clientSecret: await sealer.open(row.client_secret),
        ca: row.ca_pem,
        timeoutMs: deps.timeoutMs,
      },
      () => clock.now().getTime(),
    );
    // a client of an older configuration may be mid-call in another step: it closes after its calls
    if (kept) void kept.client.close().catch(() => undefined);
    clients.set(row.product, { version, client });
    return client;
  }

  async function balanceOf(row: UpstreamRow) {
    const answer = await (await clientOf(row)).call('GET', '/accounts/balance');
    if (answer.kind !== 'answered') return { balance: null, balanceError: answer.reason };
    const body = answer.body as { balance?: unknown; currencyCode?: unknown };
    if (answer.status !== 200 || typeof body?.currencyCode !== 'string') {
      return {
        balance: null,
        balanceError: `HTTP ${answer.status} ${answer.errorCode ?? ''} ${answer.message ?? ''}`.trim(),
      };
    }
    return {
      balance: { balance: Number(body.balance), currencyCode: body.currencyCode },
      balanceError: null,
    };
  }

  const settingsOf = (r: UpstreamRow) => ({
    product: r.product,
    url: r.base_url,
    authUrl: r.auth_url,
    clientId: r.client_id,
    caConfigured: r.ca_pem !== null,
    marginPercent: Number(r.margin_percent),
    lastSyncAt: at(r.last_sync_at),
    updatedAt: formatDateTime(r.updated_at),
    health: {
      lastError: r.last_error,
      lastErrorAt: at(r.last_error_at),
      lastSuccessAt: at(r.last_success_at),
      insufficientBalance: r.insufficient_balance_at !== null,
      insufficientBalanceAt: at(r.insufficient_balance_at),
    },
  });

  const problem = (p: UpstreamProblem) => {
    for (const l of listeners) l(p);
  };

  return {
    /** How long the providers wait before asking the upstream about an order again. */
    recheckMs: deps.recheckMs,

    /**
     * Longer than one step of the protocol can take (at most four calls, each after a token exchange,
     * every one bounded by the timeout): how long a step that calls out holds its order.
     */
    stepBoundMs: deps.timeoutMs * 8 + 30_000,

    /** Sets (or replaces) the upstream of a product. 400 INVALID_REQUEST names each bad field. */
    async set(product: UpstreamProduct, input: UpstreamInput): Promise<UpstreamView> {
      const problems: ErrorDetail[] = [];
      for (const [field, value] of [
        ['url', input.url],
        ['authUrl', input.authUrl],
      ] as const) {
        if (!isHttpsUrl(value)) problems.push({ field, issue: 'an https:// URL without query or fragment' });
      }
      const margin = input.marginPercent ?? '0';
      if (!DECIMAL.test(margin))
        problems.push({ field: 'marginPercent', issue: 'a decimal from 0 to 99.9999' });
      const caPem = input.caPem?.trim() ? input.caPem : null;
      if (caPem !== null && !isPemCertificate(caPem)) {
        problems.push({ field: 'caPem', issue: 'a PEM certificate (-----BEGIN CERTIFICATE-----)' });
      }
      if (problems.length > 0) {
        throw new AppError('INVALID_REQUEST', `${problems[0].field}: ${problems[0].issue}`, problems);
      }
      await repository.put(
        product,
        {
          base_url: input.url.replace(/\/+$/, ''),
          auth_url: input.authUrl.replace(/\/+$/, ''),
          client_id: input.clientId,
          client_secret: await sealer.seal(input.clientSecret),
          ca_pem: caPem,
          margin_percent: margin,
        },
        clock.now(),
      );
      return (await this.show(product))[0]!;
    },

    /** Every configured upstream (or one), with its balance read live. */
    async show(product?: UpstreamProduct): Promise<UpstreamView[]> {
      const rows = (await repository.all()).filter((r) => !product || r.product === product);
      return Promise.all(rows.map(async (r) => ({ ...settingsOf(r), ...(await balanceOf(r)) })));
    },

    /** A product's upstream settings and health as `show` answers them, without calling it; null: none. */
    async settings(product: UpstreamProduct) {
      const row = (await repository.all()).find((r) => r.product === product);
      return row ? settingsOf(row) : null;
    },

    /** Removes a product's upstream; 404 RESOURCE_NOT_FOUND when it has none. */
    async remove(product: UpstreamProduct): Promise<{ product: UpstreamProduct; removed: true }> {
      if (!(await repository.remove(product))) {
        throw new AppError('RESOURCE_NOT_FOUND', `No upstream is configured for ${product}`);
      }
      const kept = clients.get(product);
      clients.delete(product);
      if (kept) await kept.client.close().catch(() => undefined);
      return { product, removed: true };
    },

    /** The product's upstream client, or null when none is configured (read in `trx` when given). */
    async client(product: UpstreamProduct, trx?: Kysely<Database>): Promise<UpstreamClient | null> {
      const row = await repository.get(product, trx);
      return row ? clientOf(row) : null;
    },

    /** The product's margin in percent (decimal text), or null without an upstream. */
    async marginPercent(product: UpstreamProduct): Promise<string | null> {
      return (await repository.get(product))?.margin_percent ?? null;
    },

    async noteError(trx: Kysely<Database>, p: Omit<UpstreamProblem, 'kind'>) {
      await repository.noteError(trx, p.product, p.message, clock.now());
      problem({ ...p, kind: 'error' });
    },

    async noteInsufficientBalance(trx: Kysely<Database>, p: Omit<UpstreamProblem, 'kind'>) {
      await repository.noteInsufficientBalance(trx, p.product, clock.now());
      problem({ ...p, kind: 'insufficient-balance' });
    },

    noteSuccess: (trx: Kysely<Database>, product: UpstreamProduct) =>
      repository.noteSuccess(trx, product, clock.now()),

    /** The record of our transaction's calls to the upstream (`upstream_calls`), in the step's `trx`. */
    calls: {
      get: repository.call,
      save: repository.saveCall,
    },

    markSynced: (product: UpstreamProduct, trx?: Kysely<Database>) =>
      repository.markSynced(product, clock.now(), trx),

    /** Hears of every upstream problem as it is noted (main.ts logs them as warnings). */
    onProblem(listener: (p: UpstreamProblem) => void) {
      listeners.push(listener);
    },

    /** Closes the clients (their connection pools). */
    async close() {
      await Promise.all([...clients.values()].map((c) => c.client.close().catch(() => undefined)));
      clients.clear();
    },
  };
}

export type UpstreamService = ReturnType<typeof createUpstreamService>;

function isHttpsUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return u.protocol === 'https:' && !u.search && !u.hash;
  } catch {
    return false;
  }
}

function isPemCertificate(pem: string): boolean {
  try {
    new X509Certificate(pem);
    return true;
  } catch {
    return false;
  }
}
