import type { Kysely } from 'kysely';
import type { AccountShapes, Database, Environment } from '../../db/schema.ts';
import { AppError, type ErrorDetail } from '../../errors/error-codes.ts';
import { type ChangeVersions, ClearableCache } from '../../lib/change-versions.ts';
import type { Clock } from '../../lib/clock.ts';
import { currencyName, isCurrency, minorUnitsOf } from '../../lib/currencies.ts';
import { type Dec, dec } from '../../lib/money.ts';
import { formatDateTime } from '../../lib/time-format.ts';
import {
  ALL_SCOPES,
  type CredentialsRepository,
  hashClientSecret,
  newClientCredentials,
  unknownScopes,
} from '../auth/index.ts';
import type { Ledger } from '../ledger/index.ts';
import type { AccountRow, AccountsRepository } from './accounts-repository.ts';

/**
 * Accounts: who buys. An account has one currency and country, a status, optional daily limits,
 * one balance per environment (kept by the ledger) and any number of credentials per environment.
 */
export interface AccountsServiceDeps {
  db: Kysely<Database>;
  accounts: AccountsRepository;
  credentials: CredentialsRepository;
  ledger: Ledger;
  clock: Clock;
  /** The reference data an account must fit: a country both services list, a currency with an FX rate. */
  reference: { hasCountry(iso: string): boolean; hasFxRate(code: string): Promise<boolean> };
  /**
   * When given, accounts read by `require` are kept in memory, and a change of an account or a
   * credential is announced (topic `auth`) so every server drops what it holds within a second.
   */
  changes?: ChangeVersions;
}

export interface CreateAccountInput {
  name: string;
  currencyCode: string;
  countryCode: string;
  environment: Environment;
  fund?: string | number;
  dailyCountLimit?: number | null;
  dailyAmountLimit?: string | number | null;
  scopes?: string[];
}

/** A create-account body of the admin API or the console (`currency`, `country`) as the service's input. */
export function createAccountInputOf(
  body: Omit<CreateAccountInput, 'currencyCode' | 'countryCode'> & { currency: string; country: string },
): CreateAccountInput {
  const { currency, country, ...rest } = body;
  return { ...rest, currencyCode: currency, countryCode: country };
}

const ENVIRONMENTS: Environment[] = ['live', 'sandbox'];

/** What an account's update may change (the admin API's and the console's). */
export interface AccountChanges {
  status?: 'ACTIVE' | 'INACTIVE';
  dailyCountLimit?: number | null;
  dailyAmountLimit?: string | number | null;
  /** The account's gift card shapes (docs/compatibility.md); both environments, every credential. */
  shapes?: AccountShapes;
}

export function createAccountsService(deps: AccountsServiceDeps) {
  const { db, accounts, credentials, ledger, clock, reference, changes } = deps;
  const held = new ClearableCache<AccountRow>(50_000);
  changes?.onChange('auth', () => held.clear());

  /** A positive amount in the currency's minor units, or a 400 naming the field. */
  function amountIn(field: string, value: string | number, currency: string, allowNegative = false): Dec {
    let amount: Dec;
    try {
      amount = dec(value);
    } catch {
      throw new AppError('INVALID_AMOUNT', `${field} is not a number`, [{ field, issue: 'not a number' }]);
    }
    const places = minorUnitsOf(currency);
    const problems: ErrorDetail[] = [];
    if (!amount.isFinite()) problems.push({ field, issue: 'not a finite number' });
    else if (amount.decimalPlaces() > places)
      problems.push({ field, issue: `at most ${places} decimals in ${currency}` });
    else if (allowNegative ? amount.isZero() : amount.lte(0))
      problems.push({ field, issue: allowNegative ? 'must not be zero' : 'must be greater than zero' });
    else if (amount.abs().gte('1e15')) problems.push({ field, issue: 'too large' });
    if (problems.length > 0) throw new AppError('INVALID_REQUEST', `${field} is invalid`, problems);
    return amount;
  }

  async function create(input: CreateAccountInput) {
    const details: ErrorDetail[] = [];
    const currencyCode = input.currencyCode.toUpperCase();
    const countryCode = input.countryCode.toUpperCase();
    if (!isCurrency(currencyCode))
      details.push({ field: 'currency', issue: `unknown ISO 4217 currency "${input.currencyCode}"` });
    // Every price is converted into the account currency, so it needs a rate before the account exists.
    else if (!(await reference.hasFxRate(currencyCode)))
      details.push({
        field: 'currency',
        issue: `no FX rate for ${currencyCode}; add one with PUT /admin/fx-rates/${currencyCode} first`,
      });
    if (!reference.hasCountry(countryCode))
      details.push({ field: 'country', issue: `unknown ISO 3166 country "${input.countryCode}"` });
    const bad = unknownScopes(input.scopes ?? []);
    if (bad.length > 0) details.push({ field: 'scopes', issue: `unknown scopes: ${bad.join(', ')}` });
    if (details.length > 0) throw new AppError('INVALID_REQUEST', 'The account cannot be created', details);
    const fund =
      input.fund === undefined || Number(input.fund) === 0
        ? null
        : amountIn('fund', input.fund, currencyCode);
    const dailyAmountLimit =
      input.dailyAmountLimit == null
        ? null
        : amountIn('dailyAmountLimit', input.dailyAmountLimit, currencyCode).toFixed();

    const pair = newClientCredentials(input.environment);
    const secretHash = hashClientSecret(pair.clientSecret);
    const { account, balance } = await db.transaction().execute(async (trx) => {
      const account = await accounts.insert(trx, {
        name: input.name,
        currencyCode,
        countryCode,
        dailyCountLimit: input.dailyCountLimit ?? null,
        dailyAmountLimit,
      });
      for (const env of ENVIRONMENTS) await ledger.open(trx, account.id, env, currencyCode);
      await credentials.insert(trx, {
        clientId: pair.clientId,
        accountId: account.id,
        environment: input.environment,
        secretHash,
        scopes: input.scopes && input.scopes.length > 0 ? input.scopes : [...ALL_SCOPES],
      });
      const posted = fund
        ? await ledger.post(trx, {
            accountId: account.id,
            environment: input.environment,
            kind: 'FUNDING',
            amount: fund,
            reason: 'initial funding',
          })
        : null;
      return { account, balance: posted?.newBalance ?? dec(0) };
    });
    return {
      accountId: account.id,
      environment: input.environment,
      clientId: pair.clientId,
      clientSecret: pair.clientSecret,
      balance: balance.toNumber(),
      currencyCode: account.currencyCode,
    };
  }

  /** The account, from memory while no change of accounts was announced (see `changes`). */
  async function require(accountId: number): Promise<AccountRow> {
    const key = String(accountId);
    const hit = changes?.fresh() ? held.get(key) : undefined;
    if (hit) return hit;
    const ticket = held.ticket();
    const account = await accounts.find(accountId);
    if (!account) throw new AppError('ACCOUNT_NOT_FOUND', `Account ${accountId} does not exist`);
    held.set(key, account, ticket);
    return account;
  }

  /** The account an order is placed for (`require`); 403 INACTIVE_ACCOUNT when it is not active. */
  async function requireActive(accountId: number): Promise<AccountRow> {
    const account = await require(accountId);
    if (account.status !== 'ACTIVE') throw new AppError('INACTIVE_ACCOUNT');
    return account;
  }

  /** The account if it is in memory and may be trusted now (see `require`), without I/O. */
  function peek(accountId: number): AccountRow | undefined {
    return changes?.fresh() ? held.get(String(accountId)) : undefined;
  }

  /** The account with its balances and credentials (never secrets), for the admin API. */
  async function describe(accountId: number) {
    const account = await require(accountId);
    const [creds, live, sandbox] = await Promise.all([
      credentials.listForAccount(accountId),
      ledger.balance(accountId, 'live'),
      ledger.balance(accountId, 'sandbox'),
    ]);
    const summary = (b: typeof live) => ({
      balance: b?.balance.toNumber() ?? 0,
      updatedAt: b && formatDateTime(b.updatedAt),
    });
    return {
      ...present(account),
      balances: { live: summary(live), sandbox: summary(sandbox) },
      credentials: creds.map((c) => ({
        clientId: c.clientId,
        environment: c.environment,
        scopes: c.scopes,
        revoked: c.revokedAt !== null,
        createdAt: formatDateTime(c.createdAt),
      })),
    };
  }

  function present(a: AccountRow) {
    return {
      accountId: a.id,
      name: a.name,
      currencyCode: a.currencyCode,
      countryCode: a.countryCode,
      status: a.status,
      dailyCountLimit: a.dailyCountLimit,
      dailyAmountLimit: a.dailyAmountLimit === null ? null : dec(a.dailyAmountLimit).toNumber(),
      shapes: a.shapes,
      createdAt: formatDateTime(a.createdAt),
    };
  }

  /** The account as `update` answers it (the audit log's state before a change). */
  async function show(accountId: number) {
    return present(await require(accountId));
  }

  async function list(page: { limit: number; offset: number }) {
    const { rows, total } = await accounts.list(page);
    return { items: rows.map(present), total };
  }

  async function update(accountId: number, changes: AccountChanges) {
    const account = await require(accountId);
    const dailyAmountLimit =
      changes.dailyAmountLimit === undefined
        ? undefined
        : changes.dailyAmountLimit === null
          ? null
          : amountIn('dailyAmountLimit', changes.dailyAmountLimit, account.currencyCode).toFixed();
    const updated = await accounts.update(accountId, { ...changes, dailyAmountLimit }, clock.now());
    await deps.changes?.changed('auth');
    return present(updated ?? account);
  }

  async function createCredential(accountId: number, environment: Environment, scopes?: string[]) {
    await require(accountId);
    const bad = unknownScopes(scopes ?? []);
    if (bad.length > 0) {
      throw new AppError('INVALID_REQUEST', 'Unknown scopes', [{ field: 'scopes', issue: bad.join(', ') }]);
    }
    const pair = newClientCredentials(environment);
    await credentials.insert(db, {
      clientId: pair.clientId,
      accountId,
      environment,
      secretHash: hashClientSecret(pair.clientSecret),
      scopes: scopes && scopes.length > 0 ? scopes : [...ALL_SCOPES],
    });
    return {
      accountId,
      environment,
      clientId: pair.clientId,
      clientSecret: pair.clientSecret,
      scopes: scopes?.length ? scopes : [...ALL_SCOPES],
    };
  }

  /** The account's credentials with their scopes and last use (never secrets), oldest first. */
  async function credentialsOf(accountId: number) {
    await require(accountId);
    const rows = await credentials.listForAccount(accountId);
    return rows.map((c) => ({
      clientId: c.clientId,
      environment: c.environment,
      scopes: c.scopes,
      revoked: c.revokedAt !== null,
      createdAt: formatDateTime(c.createdAt),
      lastUsedAt: c.lastUsedAt && formatDateTime(c.lastUsedAt),
    }));
  }

  async function revokeCredential(clientId: string) {
    const found = await credentials.revoke(clientId, clock.now());
    if (!found) throw new AppError('RESOURCE_NOT_FOUND', `No credential ${clientId}`);
    await changes?.changed('auth');
    return { clientId, revoked: true };
  }

  /** Funding (positive only) or an adjustment (either sign), each one ledger entry with its reason. */
  async function changeBalance(
    accountId: number,
    environment: Environment,
    kind: 'FUNDING' | 'ADJUSTMENT',
    value: string | number,
    reason: string,
  ) {
    const account = await require(accountId);
    const amount = amountIn('amount', value, account.currencyCode, kind === 'ADJUSTMENT');
    const posted = await ledger.postAlone({ accountId, environment, kind, amount, reason });
    return {
      accountId,
      environment,
      entryId: posted.entryId,
      kind,
      amount: amount.toNumber(),
      oldBalance: posted.oldBalance.toNumber(),
      newBalance: posted.newBalance.toNumber(),
      currencyCode: posted.currencyCode,
      reason,
    };
  }

  /** The Balance resource of both specs. */
  async function balanceOf(accountId: number, environment: Environment) {
    const view = await ledger.balance(accountId, environment);
    if (!view) throw new AppError('ACCOUNT_NOT_FOUND');
    return {
      balance: view.balance.toNumber(),
      currencyCode: view.currencyCode,
      currencyName: currencyName(view.currencyCode),
      updatedAt: formatDateTime(view.updatedAt),
    };
  }

  async function count() {
    return accounts.count();
  }

  return {
    create,
    describe,
    show,
    list,
    update,
    require,
    requireActive,
    peek,
    createCredential,
    credentialsOf,
    revokeCredential,
    changeBalance,
    balanceOf,
    count,
  };
}

export type AccountsService = ReturnType<typeof createAccountsService>;
