import { type CommonOptions, DEFAULT_SERVER_URL } from './options.js';
import { iterateArrayPages } from './paging.js';
import { type Query, Transport } from './transport.js';

export type Environment = 'live' | 'sandbox';

export interface AdminOptions extends CommonOptions {
  /** The server's admin key (`ADMIN_KEY`, or `data/admin.key` of `npm start`). */
  adminKey: string;
  /** The admin base (default `https://localhost:8443/admin`). */
  baseUrl?: string;
}

export interface CreateAccountRequest {
  name: string;
  /** ISO 4217, e.g. USD. */
  currency: string;
  /** ISO 3166-1 alpha-2, e.g. US. */
  country: string;
  /** Environment of the first credential (and of the initial funding). */
  environment: Environment;
  fund?: number | string;
  dailyCountLimit?: number | null;
  dailyAmountLimit?: number | string | null;
  /** Scopes of the first credential (default all). */
  scopes?: string[];
}

/** A new account with its first credential; the secret is shown this once. */
export interface CreatedAccount {
  accountId: number;
  environment: Environment;
  clientId: string;
  clientSecret: string;
  balance: number;
  currencyCode: string;
}

export interface AccountSummary {
  accountId: number;
  name: string;
  currencyCode: string;
  countryCode: string;
  status: 'ACTIVE' | 'INACTIVE';
  dailyCountLimit: number | null;
  dailyAmountLimit: number | null;
  createdAt: string;
}

export interface AccountDetails extends AccountSummary {
  balances: Record<Environment, { balance: number; updatedAt: string | null }>;
  credentials: Array<{
    clientId: string;
    environment: Environment;
    scopes: string[];
    revoked: boolean;
    createdAt: string;
  }>;
}

export interface AccountList {
  items: AccountSummary[];
  total: number;
  page: number;
  size: number;
}

export interface BalanceChange {
  accountId: number;
  environment: Environment;
  entryId: number;
  kind: 'FUNDING' | 'ADJUSTMENT';
  amount: number;
  oldBalance: number;
  newBalance: number;
  currencyCode: string;
  reason: string;
}

export interface CreatedCredential {
  accountId: number;
  environment: Environment;
  clientId: string;
  clientSecret: string;
  scopes: string[];
}

export interface LedgerEntry {
  id: number | string;
  kind: 'FUNDING' | 'ORDER_DEBIT' | 'REFUND' | 'ADJUSTMENT';
  amount: number;
  balanceAfter: number;
  currencyCode: string;
  reason: string | null;
  product: string | null;
  transactionId: number | string | null;
  createdAt: string;
}

export interface LedgerPage {
  items: LedgerEntry[];
  page: number;
  size: number;
}

export interface FxRateEntry {
  currencyCode: string;
  /** Units of the currency per 1 USD. */
  unitsPerUsd: number;
  /** `yyyy-MM-dd HH:mm:ss`, UTC. */
  asOf: string;
}

export interface FxTable {
  /** The margin added to every conversion, percent. */
  marginPercent: number;
  rates: FxRateEntry[];
}

/** A gift card catalog file (the seed format: categories, brands, products); see data/seed/README.md. */
export type CatalogFile = Record<string, unknown>;

export interface AccountLimits {
  dailyCountLimit?: number | null;
  dailyAmountLimit?: number | string | null;
}

/** Who fulfils a live gift card product: its code stock, the upstream, or live's default. */
export type ProductProvider = 'stock' | 'upstream' | 'default';

/** The code stock of one product and face value. */
export interface StockLine {
  productId: number;
  productName: string;
  /** The product's recipient currency, that of `faceValue`. */
  currencyCode: string;
  provider: ProductProvider;
  faceValue: number;
  /** Unsold codes that have not expired. */
  available: number;
  sold: number;
  /** Unsold codes past their `expiresAt`. */
  expired: number;
  /** Cards that pre-orders waiting for codes need. */
  preOrdered: number;
}

export interface StockImport {
  productId: number;
  imported: number;
  stock: StockLine[];
}

const enc = encodeURIComponent;

/**
 * The operator's admin API: accounts, their credentials and balances, the ledger audit, the FX
 * table and the gift card catalog. Calls that change money or create something are sent once (no
 * retries); idempotent ones (status changes, revocations, rates, catalog upserts) are retried.
 *
 * @example
 * const admin = new Admin({ adminKey, baseUrl: 'https://localhost:8443/admin' });
 * const acme = await admin.accounts.create({ name: 'acme', currency: 'USD', country: 'US', environment: 'sandbox', fund: 100 });
 * await admin.accounts.fund(acme.accountId, { environment: 'sandbox', amount: 50, reason: 'wire 2026-11-22' });
 */
/** A user of the dashboard (a customer of one account) or of the console (an operator). */
export interface WebUser {
  userId: number;
  kind: 'customer' | 'operator';
  accountId: number | null;
  email: string;
  /** false until the invitation is accepted (a password set) */
  active: boolean;
  createdAt: string;
}

/** A user with the one-time link that sets their password (valid 72 h, usable once). */
export interface Invitation extends WebUser {
  link: string;
  expiresAt: string;
}

/** One change made by an operator (console) or through the admin API (actor `admin key`). */
export interface AuditEntry {
  auditId: number;
  actor: string;
  action: string;
  target: string | null;
  details: Record<string, unknown>;
  ip: string | null;
  at: string;
}

export class Admin {
  private readonly http: Transport;

  constructor(options: AdminOptions) {
    if (!options.adminKey) throw new TypeError('adminKey is required');
    this.http = new Transport({
      ...options,
      baseUrl: options.baseUrl ?? `${DEFAULT_SERVER_URL}/admin`,
      accept: 'application/json',
      headers: { ...options.headers, authorization: `Bearer ${options.adminKey}` },
    });
  }

  readonly accounts = {
    /** `POST /accounts`: an account with its first credential, optionally funded. */
    create: (request: CreateAccountRequest) => this.send<CreatedAccount>('POST', '/accounts', request),
    /** `GET /accounts`: one page of accounts. */
    list: (query: { page?: number; size?: number } = {}) => this.get<AccountList>('/accounts', query),
    /** Every account, across pages. */
    iterate: (query: { size?: number } = {}): AsyncGenerator<AccountSummary, void, undefined> =>
      iterateArrayPages(
        async (page, size) => (await this.accounts.list({ page, size })).items,
        query.size ?? 200,
      ),
    /** `GET /accounts/{id}`: the account with its balances and credentials (never secrets). */
    show: (accountId: number) => this.get<AccountDetails>(`/accounts/${enc(accountId)}`),
    /** `POST /accounts/{id}/fund`: a positive FUNDING entry. */
    fund: (
      accountId: number,
      change: { environment: Environment; amount: number | string; reason: string },
    ) => this.send<BalanceChange>('POST', `/accounts/${enc(accountId)}/fund`, change),
    /** `POST /accounts/{id}/adjust`: an ADJUSTMENT entry of either sign. */
    adjust: (
      accountId: number,
      change: { environment: Environment; amount: number | string; reason: string },
    ) => this.send<BalanceChange>('POST', `/accounts/${enc(accountId)}/adjust`, change),
    /** `PATCH /accounts/{id}`: daily limits (null removes one). */
    setLimits: (accountId: number, limits: AccountLimits) =>
      this.send<AccountSummary>('PATCH', `/accounts/${enc(accountId)}`, limits, true),
    /** `POST /accounts/{id}/deactivate`: it keeps reading, but moves no more money. */
    deactivate: (accountId: number) =>
      this.send<AccountSummary>('POST', `/accounts/${enc(accountId)}/deactivate`, undefined, true),
    /** `POST /accounts/{id}/activate`. */
    activate: (accountId: number) =>
      this.send<AccountSummary>('POST', `/accounts/${enc(accountId)}/activate`, undefined, true),
    /** `GET /accounts/{id}/ledger`: one page of its ledger entries in one environment, newest first. */
    ledger: (accountId: number, query: { environment: Environment; page?: number; size?: number }) =>
      this.get<LedgerPage>(`/accounts/${enc(accountId)}/ledger`, query),
    /** Every ledger entry of the account in one environment, newest first, across pages. */
    iterateLedger: (
      accountId: number,
      query: { environment: Environment; size?: number },
    ): AsyncGenerator<LedgerEntry, void, undefined> =>
      iterateArrayPages(
        async (page, size) =>
          (await this.accounts.ledger(accountId, { environment: query.environment, page, size })).items,
        query.size ?? 200,
      ),
  };

  readonly credentials = {
    /** `POST /accounts/{id}/credentials`: another client id and secret (shown once). */
    create: (accountId: number, request: { environment: Environment; scopes?: string[] }) =>
      this.send<CreatedCredential>('POST', `/accounts/${enc(accountId)}/credentials`, request),
    /** `POST /credentials/{clientId}/revoke`: the credential and its tokens stop working at once. */
    revoke: (clientId: string) =>
      this.send<{ clientId: string; revoked: boolean }>(
        'POST',
        `/credentials/${enc(clientId)}/revoke`,
        undefined,
        true,
      ),
  };

  readonly fx = {
    /** `GET /fx-rates`: the FX table and its margin. */
    list: () => this.get<FxTable>('/fx-rates'),
    /** `PUT /fx-rates/{currencyCode}`: one currency's rate (units per USD), as of now or `asOf`. */
    set: (currencyCode: string, unitsPerUsd: number | string, asOf?: string) =>
      this.send<FxRateEntry>('PUT', `/fx-rates/${enc(currencyCode)}`, { unitsPerUsd, asOf }, true),
  };

  readonly catalog = {
    /** `GET /catalog/export`: the whole gift card catalog as a catalog file. */
    export: () => this.get<CatalogFile>('/catalog/export'),
    /** `POST /catalog/import`: upserts a catalog file by id (products absent from it are kept). */
    import: (file: CatalogFile) =>
      this.send<{ categories: number; brands: number; products: number }>(
        'POST',
        '/catalog/import',
        file,
        true,
      ),
  };

  readonly products = {
    /** `POST /products/{productId}/activate`: the gift card product can be listed and ordered again. */
    activate: (productId: number) =>
      this.send<{ productId: number; status: 'ACTIVE' | 'INACTIVE' }>(
        'POST',
        `/products/${enc(productId)}/activate`,
        undefined,
        true,
      ),
    /**
     * `PUT /products/{productId}/provider`: who fulfils the live product: `stock` (its code stock),
     * `upstream` (refused while no upstream is configured), or `default` (live's default).
     */
    setProvider: (productId: number, provider: ProductProvider) =>
      this.send<{ productId: number; provider: ProductProvider }>(
        'PUT',
        `/products/${enc(productId)}/provider`,
        { provider },
        true,
      ),
    /** `POST /products/{productId}/deactivate`: the gift card product is no longer offered. */
    deactivate: (productId: number) =>
      this.send<{ productId: number; status: 'ACTIVE' | 'INACTIVE' }>(
        'POST',
        `/products/${enc(productId)}/deactivate`,
        undefined,
        true,
      ),
  };

  readonly stock = {
    /**
     * `POST /products/{productId}/stock`: loads a codes file (CSV: a header `cardNumber,pinCode,faceValue`
     * and optionally `expiresAt`, then one code per line) into the product's stock, whole or not at all;
     * a refusal's `details` name each bad line. Sent once (no retries).
     */
    import: (productId: number, csv: string) =>
      this.send<StockImport>('POST', `/products/${enc(productId)}/stock`, { csv }),
    /** `GET /stock`: counts per product and face value, of one product or of all. */
    show: (query: { productId?: number } = {}) =>
      this.get<{ items: StockLine[]; at: string }>('/stock', query),
  };

  readonly users = {
    /** `POST /accounts/{id}/users`: invites a dashboard user of the account (a one-time link, valid 72 h). */
    invite: (accountId: number, email: string) =>
      this.send<Invitation>('POST', `/accounts/${enc(accountId)}/users`, { email }),
    /** `GET /accounts/{id}/users`: the account's dashboard users. */
    list: (accountId: number) => this.get<{ items: WebUser[] }>(`/accounts/${enc(accountId)}/users`),
  };

  readonly operators = {
    /** `POST /operators`: an operator of the console, with a one-time link to set the password (72 h). */
    create: (email: string) => this.send<Invitation>('POST', '/operators', { email }),
    /** `GET /operators`: every console operator. */
    list: () => this.get<{ items: WebUser[] }>('/operators'),
  };

  readonly audit = {
    /** `GET /audit`: one page of the audit log, newest first. */
    list: (query: { page?: number; size?: number } = {}) =>
      this.get<{ items: AuditEntry[]; page: number; size: number }>('/audit', query),
  };

  readonly ledger = {
    /** `GET /ledger/audit`: every balance that differs from the sum of its entries (empty when sound). */
    audit: () => this.get<{ discrepancies: unknown[] }>('/ledger/audit'),
  };

  private get<T>(path: string, query?: Query): Promise<T> {
    return this.http.json<T>({ method: 'GET', path, query });
  }

  private send<T>(
    method: 'POST' | 'PUT' | 'PATCH',
    path: string,
    body?: unknown,
    retryable = false,
  ): Promise<T> {
    return this.http.json<T>({ method, path, body, retryable });
  }
}
