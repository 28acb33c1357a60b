import { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { Static } from 'typebox';
import type { Database, Environment } from '../../db/schema.ts';
import { AppError, type ErrorDetail } from '../../errors/error-codes.ts';
import type { Clock } from '../../lib/clock.ts';
import { csvCell } from '../../lib/csv.ts';
import { isCurrency, minorUnitsOf } from '../../lib/currencies.ts';
import { type Dec, dec, minorUnitText } from '../../lib/money.ts';
import { formatDateTime } from '../../lib/time-format.ts';
import type { AccountsService } from '../accounts/index.ts';
import type { Ledger, LedgerEntry } from '../ledger/index.ts';
import type { Messaging } from '../messaging/index.ts';
import { referenceOf } from './funding-reference.ts';
import type { FundingRepository, TransferRow } from './funding-repository.ts';
import type { AnnounceBody, BankDetailsBody, Statement } from './funding-schemas.ts';
import type { BankDetailsTable, TransferStatus } from './funding-tables.ts';

/**
 * Funding by bank transfer (issue 28). The operator keeps one set of bank details per currency; a
 * customer announces a transfer to their account's live balance, quoting the account's reference;
 * the operator confirms it (one FUNDING entry, posted by the ledger in the transaction that moves the
 * transfer out of `announced`) or rejects it with a reason. Each change e-mails both sides through
 * the messaging outbox, queued in the same transaction. Receipts and monthly statements read the
 * ledger.
 *
 *   announced ──confirm──> confirmed (FUNDING entry, its id on the transfer)
 *       └──────reject───> rejected (reason)
 *
 * A transfer is decided once: the transition is one UPDATE guarded by `status = 'announced'`, so a
 * double click or two operators at once fund it once; the loser is told TRANSFER_ALREADY_DECIDED.
 */
export const FUNDING_ENVIRONMENT: Environment = 'live';
/** The most entries a statement's JSON holds; the CSV has them all. */
export const STATEMENT_ENTRY_LIMIT = 5_000;
/** The entries a statement's CSV reads at a time. */
const CSV_BATCH = 2_000;
/** What a transfer's e-mails are (a kind of the messaging outbox, funding-messages.ts). */
export const TRANSFER_MESSAGE = 'funding.transfer';

export interface FundingDeps {
  db: Kysely<Database>;
  clock: Clock;
  ledger: Ledger;
  accounts: AccountsService;
  messaging: Messaging;
  repository: FundingRepository;
}

export function createFundingService(deps: FundingDeps) {
  const { db, clock, ledger, accounts, repository } = deps;

  function bankDetailsView(row: BankDetailsTable) {
    return {
      currencyCode: row.currency_code,
      accountHolder: row.account_holder,
      accountNumber: row.account_number,
      bic: row.bic,
      bankName: row.bank_name,
      instructions: row.instructions,
      updatedAt: formatDateTime(row.updated_at),
    };
  }

  function transferView(row: TransferRow) {
    return {
      transferId: row.id,
      accountId: row.account_id,
      currencyCode: row.currency_code,
      amount: minorUnitText(row.amount, row.currency_code),
      transferDate: row.transfer_date,
      reference: row.reference,
      payerReference: row.payer_reference,
      status: row.status,
      rejectReason: row.reject_reason,
      announcedAt: formatDateTime(row.created_at),
      decidedAt: row.decided_at ? formatDateTime(row.decided_at) : null,
      ledgerEntryId: row.ledger_entry_id,
    };
  }
  /** The operator's view: also whose it is and who decided. */
  const queuedView = (row: TransferRow) => ({
    ...transferView(row),
    accountName: row.account_name,
    decidedBy: row.decided_by,
  });

  function currencyOf(text: string): string {
    const code = text.toUpperCase();
    if (!isCurrency(code)) {
      throw new AppError('INVALID_REQUEST', `unknown currency ${text}`, [
        { field: 'currencyCode', issue: `unknown ISO 4217 currency "${text}"` },
      ]);
    }
    return code;
  }

  /** The amount of a transfer: positive, in the currency's minor unit (JPY: whole yen). */
  function amountOf(value: string | number, currency: string): Dec {
    let amount: Dec;
    try {
      amount = dec(value);
    } catch {
      throw new AppError('INVALID_AMOUNT', 'amount is not a number', [
        { field: 'amount', issue: 'not a number' },
      ]);
    }
    const places = minorUnitsOf(currency);
    let issue: string | null = null;
    if (!amount.isFinite()) issue = 'not a finite number';
    else if (amount.decimalPlaces() > places)
      issue = places === 0 ? `whole ${currency} only` : `at most ${places} decimals in ${currency}`;
    else if (amount.lte(0)) issue = 'must be greater than zero';
    else if (amount.gte('1e15')) issue = 'too large';
    if (issue)
      throw new AppError('INVALID_REQUEST', `amount is invalid: ${issue}`, [{ field: 'amount', issue }]);
    return amount;
  }

  /** The day the transfer was sent: a real date, not in the future (a day of grace for time zones), within a year. */
  function transferDateOf(text: string): string {
    const at = new Date(`${text}T00:00:00Z`);
    const problems: ErrorDetail[] = [];
    const today = Date.UTC(clock.now().getUTCFullYear(), clock.now().getUTCMonth(), clock.now().getUTCDate());
    const day = 86_400_000;
    if (Number.isNaN(at.getTime()) || at.toISOString().slice(0, 10) !== text)
      problems.push({ field: 'transferDate', issue: 'not a date (YYYY-MM-DD)' });
    else if (at.getTime() > today + day) problems.push({ field: 'transferDate', issue: 'in the future' });
    else if (at.getTime() < today - 366 * day)
      problems.push({ field: 'transferDate', issue: 'more than a year ago' });
    if (problems.length > 0) throw new AppError('INVALID_REQUEST', 'transferDate is invalid', problems);
    return text;
  }

  /** Why a transfer could not be decided: it is not there (or not the account's), or it was decided. */
  async function notAnnounced(trx: Kysely<Database>, transferId: number): Promise<AppError> {
    const row = await repository.find(transferId, trx);
    if (!row) return new AppError('RESOURCE_NOT_FOUND', `No transfer ${transferId}`);
    return new AppError(
      'TRANSFER_ALREADY_DECIDED',
      `Transfer ${transferId} was already ${row.status}${row.decided_at ? ` at ${formatDateTime(row.decided_at)}` : ''}${row.decided_by ? ` by ${row.decided_by}` : ''}.`,
    );
  }

  /** E-mails both sides that a transfer is now `status` (in `trx`: the change's transaction). */
  async function tellBothSides(
    trx: Kysely<Database>,
    row: Pick<TransferRow, 'id' | 'account_id'>,
    status: TransferStatus,
  ) {
    const [customers, operators] = await Promise.all([
      repository.recipients(trx, { accountId: row.account_id }),
      repository.recipients(trx, 'operators'),
    ]);
    const message = (to: string, side: 'customer' | 'operator') => ({
      kind: TRANSFER_MESSAGE,
      channel: 'email' as const,
      recipient: to,
      account_id: row.account_id,
      data: JSON.stringify({ transferId: row.id, status, side }),
    });
    await deps.messaging.repository.insert(
      [...customers.map((to) => message(to, 'customer')), ...operators.map((to) => message(to, 'operator'))],
      clock.now(),
      trx,
    );
  }

  async function requireTransfer(transferId: number, accountId?: number): Promise<TransferRow> {
    const row = await repository.find(transferId);
    if (!row || (accountId !== undefined && row.account_id !== accountId)) {
      throw new AppError('RESOURCE_NOT_FOUND', `No transfer ${transferId}`);
    }
    return row;
  }

  const pageOf = (page: { page?: number; size?: number }) => {
    const size = page.size ?? 25;
    const number = page.page ?? 1;
    return { page: number, size, limit: size + 1, offset: (number - 1) * size };
  };

  function monthRange(month: string) {
    const [y, m] = month.split('-').map(Number);
    return { from: new Date(Date.UTC(y, m - 1, 1)), to: new Date(Date.UTC(y, m, 1)) };
  }

  const entryView = (e: LedgerEntry) => ({
    entryId: e.id,
    createdAt: formatDateTime(e.createdAt),
    kind: e.kind,
    amount: minorUnitText(e.amount, e.currencyCode),
    balanceAfter: minorUnitText(e.balanceAfter, e.currencyCode),
    reason: e.reason,
    product: e.product,
    transactionId: e.transactionId,
  });

  /**
   * The statement of one month (UTC) of the account's balance in `environment`: the opening balance
   * (every entry before the month), each entry of the month (the first STATEMENT_ENTRY_LIMIT; the
   * CSV has all), the money in and out, and the closing balance. opening + in + out = closing.
   */
  async function statement(
    accountId: number,
    environment: Environment,
    month: string,
  ): Promise<Static<typeof Statement>> {
    const account = await accounts.require(accountId);
    const range = monthRange(month);
    const currency = account.currencyCode;
    const sums = await repository.statementSums(accountId, environment, range.from, range.to);
    const entries =
      sums.firstId === null || sums.lastId === null
        ? []
        : await repository.statementEntries(
            accountId,
            environment,
            range,
            { afterId: sums.firstId - 1, lastId: sums.lastId },
            STATEMENT_ENTRY_LIMIT,
          );
    const opening = dec(sums.opening);
    return {
      accountId,
      accountName: account.name,
      environment,
      currencyCode: currency,
      month,
      from: formatDateTime(range.from),
      to: formatDateTime(range.to),
      openingBalance: minorUnitText(opening, currency),
      totalIn: minorUnitText(sums.in, currency),
      totalOut: minorUnitText(sums.out, currency),
      closingBalance: minorUnitText(opening.plus(sums.in).plus(sums.out), currency),
      entryCount: sums.count,
      truncated: sums.count > entries.length,
      entries: entries.map(entryView),
    };
  }

  return {
    bankDetails: {
      list: async () => ({ items: (await repository.bankDetails.list()).map(bankDetailsView) }),
      async get(currencyCode: string) {
        const row = await repository.bankDetails.get(currencyOf(currencyCode));
        if (!row)
          throw new AppError('RESOURCE_NOT_FOUND', `No bank details for ${currencyCode.toUpperCase()}`);
        return bankDetailsView(row);
      },
      async set(currencyCode: string, body: Static<typeof BankDetailsBody>) {
        const bic = body.bic ? body.bic.replace(/\s+/g, '').toUpperCase() : null;
        if (bic !== null && !/^[A-Z0-9]{8}([A-Z0-9]{3})?$/.test(bic)) {
          throw new AppError('INVALID_REQUEST', 'bic is invalid', [
            { field: 'bic', issue: '8 or 11 letters and digits' },
          ]);
        }
        const trimmed = (s: string, field: string) => {
          const t = s.trim();
          if (!t) throw new AppError('INVALID_REQUEST', `${field} is empty`, [{ field, issue: 'empty' }]);
          return t;
        };
        const row = await repository.bankDetails.upsert({
          currency_code: currencyOf(currencyCode),
          account_holder: trimmed(body.accountHolder, 'accountHolder'),
          account_number: trimmed(body.accountNumber, 'accountNumber'),
          bic,
          bank_name: trimmed(body.bankName, 'bankName'),
          instructions: body.instructions?.trim() || null,
          updated_at: clock.now(),
        });
        return bankDetailsView(row);
      },
      async remove(currencyCode: string) {
        const code = currencyOf(currencyCode);
        if (!(await repository.bankDetails.remove(code))) {
          throw new AppError('RESOURCE_NOT_FOUND', `No bank details for ${code}`);
        }
        return { currencyCode: code, removed: true };
      },
    },

    /** Where the account's customer pays, and with which reference (the Add funds page). */
    async instructions(accountId: number) {
      const account = await accounts.require(accountId);
      const details = await repository.bankDetails.get(account.currencyCode);
      return {
        reference: referenceOf(accountId),
        currencyCode: account.currencyCode,
        bankDetails: details ? bankDetailsView(details) : null,
      };
    },

    /** A customer's announcement of a transfer to the account's live balance. */
    async announce(accountId: number, userId: number | null, body: Static<typeof AnnounceBody>) {
      const account = await accounts.require(accountId);
      const amount = amountOf(body.amount, account.currencyCode);
      const transferDate = transferDateOf(body.transferDate);
      if (!(await repository.bankDetails.get(account.currencyCode))) {
        throw new AppError(
          'BANK_DETAILS_NOT_SET',
          `No bank details are set for ${account.currencyCode} yet: there is nowhere to send a transfer.`,
        );
      }
      const id = await db.transaction().execute(async (trx) => {
        const made = await repository.insertTransfer(trx, {
          accountId,
          currencyCode: account.currencyCode,
          amount: amount.toFixed(),
          transferDate,
          reference: referenceOf(accountId),
          payerReference: body.payerReference?.trim() || null,
          announcedBy: userId,
          at: clock.now(),
        });
        await tellBothSides(trx, { id: made, account_id: accountId }, 'announced');
        return made;
      });
      return transferView(await requireTransfer(id));
    },

    /** The account's transfers, newest first (the dashboard). */
    async transfers(accountId: number, query: { status?: TransferStatus; page?: number; size?: number }) {
      const p = pageOf(query);
      const rows = await repository.list({ accountId, status: query.status }, p);
      return {
        items: rows.slice(0, p.size).map(transferView),
        hasMore: rows.length > p.size,
        page: p.page,
        size: p.size,
      };
    },

    /** Transfers across accounts (the console's queue: `status: 'announced'`, oldest first). */
    async queue(query: { status?: TransferStatus; accountId?: number; page?: number; size?: number }) {
      const p = pageOf(query);
      const rows = await repository.list({ accountId: query.accountId, status: query.status }, p);
      return {
        items: rows.slice(0, p.size).map(queuedView),
        hasMore: rows.length > p.size,
        page: p.page,
        size: p.size,
      };
    },

    /** One transfer (of `accountId` when given: another account's is not found). */
    async transfer(transferId: number, accountId?: number) {
      return queuedView(await requireTransfer(transferId, accountId));
    },

    /**
     * Confirms an announced transfer: in one transaction, the guarded move to `confirmed`, the
     * FUNDING entry naming the reference (the ledger posts it), the entry's id on the transfer, and
     * the e-mails. `by` is who confirmed, as the audit log names them.
     */
    async confirm(transferId: number, by: string) {
      const { row, posted } = await db.transaction().execute(async (trx) => {
        if (!(await repository.decide(trx, transferId, { status: 'confirmed', by, at: clock.now() }))) {
          throw await notAnnounced(trx, transferId);
        }
        const row = (await repository.find(transferId, trx)) as TransferRow;
        const posted = await ledger.post(trx, {
          accountId: row.account_id,
          environment: FUNDING_ENVIRONMENT,
          kind: 'FUNDING',
          amount: dec(row.amount),
          reason: `bank transfer ${row.reference} (transfer ${row.id}${row.payer_reference ? `, payer reference ${row.payer_reference}` : ''})`,
        });
        await repository.setLedgerEntry(trx, transferId, posted.entryId);
        await tellBothSides(trx, row, 'confirmed');
        return { row: { ...row, ledger_entry_id: posted.entryId }, posted };
      });
      return { ...queuedView(row), newBalance: minorUnitText(posted.newBalance, posted.currencyCode) };
    },

    /** Rejects an announced transfer with a reason the customer reads; no money moves. */
    async reject(transferId: number, by: string, reason: string) {
      const text = reason.trim();
      if (!text)
        throw new AppError('INVALID_REQUEST', 'reason is empty', [{ field: 'reason', issue: 'empty' }]);
      await db.transaction().execute(async (trx) => {
        const moved = await repository.decide(trx, transferId, {
          status: 'rejected',
          by,
          at: clock.now(),
          rejectReason: text,
        });
        if (!moved) throw await notAnnounced(trx, transferId);
        await tellBothSides(trx, (await repository.find(transferId, trx)) as TransferRow, 'rejected');
      });
      return queuedView(await requireTransfer(transferId));
    },

    /** The receipt of one FUNDING entry of the account (a confirmed transfer's, or the operator's). */
    async receipt(accountId: number, entryId: number) {
      const e = await repository.entryOf(accountId, entryId);
      if (e?.kind !== 'FUNDING') throw new AppError('RESOURCE_NOT_FOUND', `No funding entry ${entryId}`);
      return {
        entryId: e.id,
        accountId: e.account_id,
        accountName: e.account_name,
        environment: e.environment,
        currencyCode: e.currency_code,
        amount: minorUnitText(e.amount, e.currency_code),
        balanceAfter: minorUnitText(e.balance_after, e.currency_code),
        reason: e.reason,
        createdAt: formatDateTime(e.created_at),
        reference: referenceOf(accountId),
        transfer:
          e.transfer_id === null
            ? null
            : {
                transferId: e.transfer_id,
                transferDate: e.transfer_date as string,
                payerReference: e.payer_reference,
              },
      };
    },

    statement,

    /**
     * The same statement as CSV, every entry, streamed in batches: a first line with the opening
     * balance (kind OPENING_BALANCE), one per entry, a last with the closing balance.
     */
    async statementCsv(accountId: number, environment: Environment, month: string): Promise<Readable> {
      const account = await accounts.require(accountId);
      const currency = account.currencyCode;
      const range = monthRange(month);
      // the month's entries as of now: up to its last entry's id (a later one is in neither figure)
      const sums = await repository.statementSums(accountId, environment, range.from, range.to);
      const columns = [
        'entryId',
        'createdAt',
        'kind',
        'amount',
        'balanceAfter',
        'currencyCode',
        'reason',
        'product',
        'transactionId',
      ];
      const line = (cells: unknown[]) => `${cells.map(csvCell).join(',')}\r\n`;
      const opening = minorUnitText(sums.opening, currency);
      // the closing line sums what the file lists, so the file always adds up
      let closing = dec(sums.opening);
      async function* lines() {
        yield `${columns.join(',')}\r\n`;
        yield line([
          '',
          formatDateTime(range.from),
          'OPENING_BALANCE',
          '',
          opening,
          currency,
          `${account.name}, ${environment}, ${month}`,
          '',
          '',
        ]);
        let afterId = sums.firstId === null ? null : sums.firstId - 1;
        while (afterId !== null && sums.lastId !== null) {
          const batch = await repository.statementEntries(
            accountId,
            environment,
            range,
            { afterId, lastId: sums.lastId },
            CSV_BATCH,
          );
          for (const e of batch) {
            const v = entryView(e);
            closing = closing.plus(e.amount);
            yield line([
              v.entryId,
              v.createdAt,
              v.kind,
              v.amount,
              v.balanceAfter,
              e.currencyCode,
              v.reason,
              v.product,
              v.transactionId,
            ]);
          }
          afterId = batch.length < CSV_BATCH ? null : batch[batch.length - 1].id;
        }
        yield line([
          '',
          formatDateTime(range.to),
          'CLOSING_BALANCE',
          '',
          minorUnitText(closing, currency),
          currency,
          '',
          '',
          '',
        ]);
      }
      return Readable.from(lines());
    },
  };
}

export type FundingService = ReturnType<typeof createFundingService>;
