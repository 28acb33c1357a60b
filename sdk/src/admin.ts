import { type CommonOptions, DEFAULT_SERVER_URL, type RequestOptions } from './options.js';
import { iterateArrayPages } from './paging.js';
import { type WithRequestId, withRequestId } from './request-id.js';
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
  /** Which shapes its gift card answers take; the airgift SDK reads both alike. */
  shapes: AccountShapes;
  createdAt: string;
}

/**
 * `documented`: the gift card spec's shapes (the default). `service`: the live service's shapes that
 * its official SDKs read (paged lists, the denominations map as one object, the error's timeStamp
 * as text). Both environments and every credential of the account.
 */
export type AccountShapes = 'documented' | 'service';

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

export interface CatalogCategory {
  id: number;
  name: string;
}

export interface CatalogBrand {
  brandId: number;
  brandName: string;
  categoryId: number;
  /** Redeem instructions, short and long. */
  concise: string;
  verbose: string;
  logoUrl: string;
}

/** A catalog product; amounts are decimal strings (`"10"`, `"4.99"`), kept exact. */
export interface CatalogProduct {
  productId: number;
  productName: string;
  brandId: number;
  categoryId: number;
  /** ISO 3166-1 alpha-2, upper case. */
  countryCode: string;
  global: boolean;
  supportsPreOrder: boolean;
  status: 'ACTIVE' | 'INACTIVE';
  denominationType: 'FIXED' | 'RANGE';
  /** ISO 4217, upper case. */
  recipientCurrencyCode: string;
  fixedRecipientDenominations: string[];
  minRecipientDenomination: string | null;
  maxRecipientDenomination: string | null;
  senderFee: string;
  senderFeePercentage: string;
  discountPercentage: string;
  userIdRequired: boolean;
  logoUrls: string[];
  /** The product's own redeem instructions, when they differ from its brand's. */
  concise?: string;
  verbose?: string;
}

/** A gift card catalog file (the seed format: categories, brands, products); see data/seed/README.md. */
export interface CatalogFile {
  categories: CatalogCategory[];
  brands: CatalogBrand[];
  products: CatalogProduct[];
}

/** What `catalog.import` takes: a catalog file, any of whose three lists may be left out. */
export type CatalogImport = Partial<CatalogFile>;

/** A balance that differs from the sum of its ledger entries (amounts as exact decimal strings). */
export interface LedgerDiscrepancy {
  accountId: number;
  environment: Environment;
  balance: string;
  sum: string;
}

/** An order or top-up whose ledger entries do not match it (or entries without their transaction). */
export interface LedgerOrderMismatch {
  product: string;
  transactionId: number;
  accountId: number;
  environment: Environment;
  status: string | null;
  problem: string;
}

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

/** The product an upstream serves. */
export type UpstreamProduct = 'giftcards' | 'topups';

/** What `upstreams.set` takes. The secret is sealed at rest and never answered back. */
export interface UpstreamSettings {
  /** The upstream's product base, e.g. `https://giftcards.example.com` (also its tokens' audience). */
  url: string;
  /** Its token service base (tokens at `{authUrl}/oauth/token`). */
  authUrl: string;
  clientId: string;
  clientSecret: string;
  /** PEM CA certificate(s) its TLS certificate is checked against; absent: the system's CAs. */
  caPem?: string | null;
  /** The operator's margin in percent (0 to 99.9999); default 0. */
  marginPercent?: number | string;
}

/** One configured upstream: its settings (without the secret), health and live balance. */
/** What a catalogue sync did (`Admin.catalog.sync`). */
export interface CatalogSyncResult {
  product: UpstreamProduct;
  syncedAt: string;
  marginPercent: number;
  /** categories, brands, products (gift cards) and skipped: what the live catalogue now holds */
  counts: Record<string, number>;
  /** upstream products left out, and why (a currency without an FX rate here) */
  skipped: Array<{ productId: number; reason: string }>;
}

export interface Upstream {
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
    /** The upstream refused an order for its own balance (cleared by the next order it takes). */
    insufficientBalance: boolean;
    insufficientBalanceAt: string | null;
  };
  /** Read live from the upstream's `/accounts/balance`; null with `balanceError` when that failed. */
  balance: { balance: number; currencyCode: string } | null;
  balanceError: string | null;
}

/** A webhook endpoint of an account (its secret is only in `WebhookEndpointAdded`). */
export interface WebhookEndpoint {
  id: number;
  accountId: number;
  environment: Environment;
  url: string;
  /** Event types or patterns: `giftcard.order.*`, `topup.successful`, `balance.*`, `*`. */
  events: string[];
  createdAt: string;
  /** The first failed attempt since the last success. */
  failingSince: string | null;
  /** Set when every attempt failed for 3 days: nothing more is sent. */
  disabledAt: string | null;
  disabledReason: string | null;
}

export interface WebhookEndpointAdded extends WebhookEndpoint {
  /** The signing secret (`whsec_…`), shown this once. */
  secret: string;
}

export interface WebhookAttempt {
  attempt: number;
  at: string;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  nextAttemptAt: string | null;
}

export interface WebhookDelivery {
  id: number;
  /** The `webhook-id` header: the same on every attempt and replay of one event. */
  eventId: string;
  type: string;
  /** The transaction id, or the ledger entry id of a balance event. */
  subjectId: number;
  status: 'PENDING' | 'DELIVERED' | 'FAILED';
  attempts: number;
  nextAttemptAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  deliveredAt: string | null;
  createdAt: string;
  log: WebhookAttempt[];
}

export interface WebhookDeliveryPage {
  items: WebhookDelivery[];
  total: number;
  page: number;
  size: number;
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
/** A backup being downloaded: the gzip'd file's bytes, as the server sends them. */
export interface BackupDownload {
  stream: ReadableStream<Uint8Array>;
}

/** A user of the dashboard (a customer of one account) or of the console (an operator). */
export interface WebUser {
  userId: number;
  kind: 'customer' | 'operator';
  accountId: number | null;
  email: string;
  /** false until the invitation is accepted (a password set) */
  active: boolean;
  /** dashboard: owner, developer, finance, support or viewer; console: admin or support */
  role: string;
  /** two-step sign-in is on */
  totpEnabled: boolean;
  createdAt: string;
}

/** A user with the one-time link that sets their password (valid 72 h, usable once). */
export interface Invitation extends WebUser {
  link: string;
  expiresAt: string;
}

/**
 * One change, whichever channel made it: the admin API (and so the CLI), the console, the dashboard.
 * Lines are chained by `hash`; `audit.verify()` walks the chain.
 */
export interface AuditEntry {
  /** its place in the chain: 1, 2, 3, ... without gaps */
  auditId: number;
  at: string;
  channel: 'admin' | 'console' | 'dashboard';
  /** `anonymous`: nobody signed in (a password reset asked for on a page) */
  actorKind: 'admin-key' | 'operator' | 'customer' | 'anonymous';
  /** the admin key's id (first 12 hex digits of its SHA-256), or the web user's id */
  actorId: string;
  /** `admin key <id>`, or the user's e-mail */
  actor: string;
  accountId: number | null;
  action: string;
  target: string | null;
  /** what was asked, secrets masked */
  details: Record<string, unknown>;
  /** the state before the change, where there is one */
  before: unknown;
  /** the state after, secrets masked */
  after: unknown;
  ip: string | null;
  requestId: string | null;
  hash: string;
}

/** Which audit lines: every filter optional; dates `yyyy-MM-dd` or `yyyy-MM-dd HH:mm:ss` (UTC). */
export interface AuditQuery {
  channel?: AuditEntry['channel'];
  /** an actor id or e-mail */
  actor?: string;
  /** an action, or a prefix ending in a dot (`account.`) */
  action?: string;
  accountId?: number;
  startDate?: string;
  endDate?: string;
}

/** Where customers of accounts in one currency send bank transfers (`PUT /bank-details/{currency}`). */
export interface BankDetailsInput {
  accountHolder: string;
  /** an IBAN or a local account number */
  accountNumber: string;
  /** BIC / SWIFT, 8 or 11 characters */
  bic?: string | null;
  bankName: string;
  instructions?: string | null;
}

export interface BankDetails {
  currencyCode: string;
  accountHolder: string;
  accountNumber: string;
  bic: string | null;
  bankName: string;
  instructions: string | null;
  updatedAt: string;
}

export type TransferStatus = 'announced' | 'confirmed' | 'rejected';

/** A bank transfer a customer announced on the dashboard. Amounts are exact decimal text. */
export interface FundingTransfer {
  transferId: number;
  accountId: number;
  accountName: string;
  currencyCode: string;
  amount: string;
  /** the day the customer says they sent it (YYYY-MM-DD) */
  transferDate: string;
  /** the account's reference, AG-<accountId>-<check> */
  reference: string;
  payerReference: string | null;
  status: TransferStatus;
  rejectReason: string | null;
  announcedAt: string;
  decidedAt: string | null;
  decidedBy: string | null;
  /** the FUNDING ledger entry of a confirmed transfer */
  ledgerEntryId: number | null;
}

export interface FundingTransferPage {
  items: FundingTransfer[];
  hasMore: boolean;
  page: number;
  size: number;
}

/** What `audit verify` found: `ok` when no line was removed or edited. */
export interface AuditVerification {
  ok: boolean;
  lines: number;
  /** the last line appended and its hash: note it elsewhere to detect a rewritten chain */
  head: { auditId: number; hash: string };
  problems: Array<{ auditId: number; problem: string }>;
  checkedAt: string;
}

export class Admin {
  private readonly http: Transport;

  /**
   * `callOptions`: per-call options (signal, timeout, headers, attempts) applied to every call of
   * this client; `admin.with(options)` makes such a client from an existing one.
   */
  constructor(
    private readonly options: AdminOptions,
    private readonly callOptions?: RequestOptions,
  ) {
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
    /** `PATCH /accounts/{id}` with `shapes`: which shapes the account's gift card answers take. */
    setShapes: (accountId: number, shapes: AccountShapes) =>
      this.send<AccountSummary>('PATCH', `/accounts/${enc(accountId)}`, { shapes }, true),
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
    import: (file: CatalogImport) =>
      this.send<{ categories: number; brands: number; products: number }>(
        'POST',
        '/catalog/import',
        file,
        true,
      ),
    /**
     * `POST /catalog/sync/{product}`: pulls the product's upstream catalogue into the live catalogue
     * now (the margin applied); 404 without an upstream, 503 when the upstream fails to answer.
     */
    sync: (product: UpstreamProduct) =>
      this.send<CatalogSyncResult>('POST', `/catalog/sync/${enc(product)}`, undefined, true),
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

  readonly topupOperators = {
    /** `POST /topup-operators/{operatorId}/activate`: the top-up operator is listed and takes top-ups again. */
    activate: (operatorId: number) =>
      this.send<{ operatorId: number; status: 'ACTIVE' | 'INACTIVE' }>(
        'POST',
        `/topup-operators/${enc(operatorId)}/activate`,
        undefined,
        true,
      ),
    /**
     * `POST /topup-operators/{operatorId}/deactivate`: the top-up operator is no longer listed or
     * detected, and top-ups to it answer 422 OPERATOR_UNAVAILABLE_OR_CURRENTLY_INACTIVE.
     */
    deactivate: (operatorId: number) =>
      this.send<{ operatorId: number; status: 'ACTIVE' | 'INACTIVE' }>(
        'POST',
        `/topup-operators/${enc(operatorId)}/deactivate`,
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

  readonly upstreams = {
    /** `PUT /upstreams/{product}`: sets (or replaces) the product's upstream; answers it as `show` does. */
    set: (product: UpstreamProduct, settings: UpstreamSettings) =>
      this.send<Upstream>('PUT', `/upstreams/${enc(product)}`, settings, true),
    /** `GET /upstreams`: every configured upstream with its health and live balance. */
    show: () => this.get<{ items: Upstream[] }>('/upstreams'),
    /** `GET /upstreams/{product}`: one upstream (404 RESOURCE_NOT_FOUND when none is configured). */
    get: (product: UpstreamProduct) => this.get<Upstream>(`/upstreams/${enc(product)}`),
    /** `DELETE /upstreams/{product}`: removes it; live orders of its products are refused again. */
    remove: (product: UpstreamProduct) =>
      this.send<{ product: UpstreamProduct; removed: boolean }>(
        'DELETE',
        `/upstreams/${enc(product)}`,
        undefined,
        true,
      ),
  };

  readonly webhooks = {
    /** `POST /webhooks`: a new endpoint; its signing secret is in this answer only. Sent once. */
    add: (endpoint: { accountId: number; environment: Environment; url: string; events: string[] }) =>
      this.send<WebhookEndpointAdded>('POST', '/webhooks', endpoint),
    /** `GET /webhooks`: the endpoints, of one account and environment or of all. */
    list: (query: { accountId?: number; environment?: Environment } = {}) =>
      this.get<{ items: WebhookEndpoint[] }>('/webhooks', query),
    /** `DELETE /webhooks/{id}`: removes an endpoint; its pending deliveries end. */
    remove: (endpointId: number) =>
      this.send<WebhookEndpoint>('DELETE', `/webhooks/${enc(endpointId)}`, undefined, true),
    /** `GET /webhooks/{id}/deliveries`: the delivery log, newest first, each with its attempts. */
    deliveries: (endpointId: number, query: { page?: number; size?: number } = {}) =>
      this.get<WebhookDeliveryPage>(`/webhooks/${enc(endpointId)}/deliveries`, query),
    /** `POST /webhooks/deliveries/{id}/replay`: sends a delivery's event again (same webhook-id). */
    replay: (deliveryId: number) =>
      this.send<{ id: number; eventId: string; status: string; nextAttemptAt: string | null }>(
        'POST',
        `/webhooks/deliveries/${enc(deliveryId)}/replay`,
      ),
    /** `PUT /accounts/{id}/balance-threshold`: balance.low when a debit takes the balance under it (null: never). */
    balanceThreshold: (
      accountId: number,
      body: { environment: Environment; threshold: number | string | null },
    ) =>
      this.send<{
        accountId: number;
        thresholds: Array<{ environment: Environment; threshold: number }>;
        at: string;
      }>('PUT', `/accounts/${enc(accountId)}/balance-threshold`, body, true),
  };

  readonly users = {
    /**
     * `POST /accounts/{id}/users`: invites a dashboard user of the account (a one-time link, valid
     * 72 h) with a role (owner when none is named).
     */
    invite: (
      accountId: number,
      email: string,
      role?: 'owner' | 'developer' | 'finance' | 'support' | 'viewer',
    ) =>
      this.send<Invitation>('POST', `/accounts/${enc(accountId)}/users`, {
        email,
        ...(role !== undefined && { role }),
      }),
    /** `GET /accounts/{id}/users`: the account's dashboard users. */
    list: (accountId: number) => this.get<{ items: WebUser[] }>(`/accounts/${enc(accountId)}/users`),
  };

  readonly operators = {
    /** `POST /operators`: an operator of the console (admin when no role is named), with a one-time link to set the password (72 h). */
    create: (email: string, role?: 'admin' | 'support') =>
      this.send<Invitation>('POST', '/operators', { email, ...(role !== undefined && { role }) }),
    /** `GET /operators`: every console operator. */
    list: () => this.get<{ items: WebUser[] }>('/operators'),
  };

  readonly audit = {
    /** `GET /audit`: one page of the audit log, newest first, filtered. */
    list: (query: AuditQuery & { page?: number; size?: number } = {}) =>
      this.get<{ items: AuditEntry[]; hasMore: boolean; page: number; size: number }>(
        '/audit',
        query as Query,
      ),
    /** `GET /audit.csv`: the filtered lines as CSV text, newest first (at most 100 000). */
    csv: async (query: AuditQuery = {}): Promise<string> => {
      const call = {
        method: 'GET' as const,
        path: '/audit.csv',
        query: query as Query,
        options: this.callOptions,
      };
      const answer = await this.http.send(call);
      if (answer.status !== 200) throw this.http.error(answer, call);
      return answer.text;
    },
    /** `GET /audit/verify`: walks the whole chain; a removed or edited line is a problem named. */
    verify: () => this.get<AuditVerification>('/audit/verify'),
  };

  readonly funding = {
    /** `GET /bank-details`: the bank details of every currency. */
    bankDetails: () => this.get<{ items: BankDetails[] }>('/bank-details'),
    /** `PUT /bank-details/{currency}`: where customers in that currency send transfers (replaces). */
    setBankDetails: (currencyCode: string, details: BankDetailsInput) =>
      this.send<BankDetails>('PUT', `/bank-details/${enc(currencyCode)}`, details, true),
    /** `DELETE /bank-details/{currency}`: customers in it can no longer announce a transfer. */
    removeBankDetails: (currencyCode: string) =>
      this.send<{ currencyCode: string; removed: boolean }>('DELETE', `/bank-details/${enc(currencyCode)}`),
    /** `GET /funding/transfers`: announced transfers (`status: 'announced'`: the queue, oldest first). */
    transfers: (query: { status?: TransferStatus; accountId?: number; page?: number; size?: number } = {}) =>
      this.get<FundingTransferPage>('/funding/transfers', query),
    /**
     * `POST /funding/transfers/{id}/confirm`: one FUNDING entry on the account's live balance. Sent
     * once (not retried): a second confirmation answers 409 TRANSFER_ALREADY_DECIDED.
     */
    confirm: (transferId: number) =>
      this.send<FundingTransfer & { newBalance: string }>(
        'POST',
        `/funding/transfers/${enc(transferId)}/confirm`,
      ),
    /** `POST /funding/transfers/{id}/reject`: no money moves; the customer reads the reason. */
    reject: (transferId: number, reason: string) =>
      this.send<FundingTransfer>('POST', `/funding/transfers/${enc(transferId)}/reject`, { reason }),
  };

  readonly ledger = {
    /**
     * `GET /ledger/audit`: every balance that differs from the sum of its entries, and every order or
     * top-up whose entries do not match it (both empty when sound).
     */
    audit: () =>
      this.get<{ discrepancies: LedgerDiscrepancy[]; orders: LedgerOrderMismatch[] }>('/ledger/audit'),
  };

  readonly backup = {
    /**
     * `GET /backup`: a consistent backup of the server's database and key files, as a stream of the
     * gzip'd file (write it to disk; `airgift backup --out FILE` does, and `airgift restore --from
     * FILE` restores it). It holds the keys and the sealed codes: store it as safely as the keys.
     * The server writes the whole backup before it answers: give a large database a `timeoutMs` to
     * match (`admin.with({ timeoutMs: 0 })`). Not retried.
     */
    download: async (options: { withoutKeys?: boolean } = {}): Promise<WithRequestId<BackupDownload>> => {
      const call = {
        method: 'GET' as const,
        path: '/backup',
        query: { withoutKeys: options.withoutKeys ? true : undefined },
        retryable: false,
        stream: true,
        options: {
          ...this.callOptions,
          headers: { ...this.callOptions?.headers, accept: 'application/gzip' },
        },
      };
      const answer = await this.http.send(call);
      if (answer.status < 200 || answer.status >= 300 || !answer.stream) throw this.http.error(answer, call);
      return withRequestId({ stream: answer.stream }, answer.requestId);
    },
  };

  /**
   * The same client with per-call options for every call made through it.
   *
   * @example
   * await admin.with({ signal: AbortSignal.timeout(5000) }).accounts.list();
   */
  with(callOptions: RequestOptions): Admin {
    return new Admin(this.options, { ...this.callOptions, ...callOptions });
  }

  private get<T>(path: string, query?: Query): Promise<T> {
    return this.http.json<T>({ method: 'GET', path, query, options: this.callOptions });
  }

  private send<T>(
    method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    path: string,
    body?: unknown,
    retryable = false,
  ): Promise<T> {
    return this.http.json<T>({ method, path, body, retryable, options: this.callOptions });
  }
}
