import { AppError } from '../../../errors/error-codes.ts';
import type { CardCodec } from '../../../lib/card-codes.ts';
import { parseDateTime } from '../../../lib/time-format.ts';
import type { Principal } from '../../auth/index.ts';
import { transactionView } from './order-view.ts';
import type { OrdersRepository, ReportQuery } from './orders-repository.ts';

/**
 * The read side of gift card transactions: the reports and the redeem codes. A transaction id of
 * another account or environment is not found (404), the same as an id that never existed.
 */
// Unpadded fields too ("2026-1-5 3:04:5"): Reloadly's Node SDK sends them (decisions §9).
export const DATE_TIME_TEXT = /^\d{4}-\d{1,2}-\d{1,2}( \d{1,2}:\d{1,2}:\d{1,2})?$/;

function dateParam(field: string, value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const parsed = DATE_TIME_TEXT.test(value) ? parseDateTime(value) : null;
  if (!parsed) {
    throw new AppError('INVALID_REQUEST', `${field} must be yyyy-MM-dd HH:mm:ss`, [
      { field, issue: 'expected yyyy-MM-dd HH:mm:ss (UTC)' },
    ]);
  }
  return parsed;
}

/** A card's code as the cards route writes it: digits become a JSON number unless they start with 0. */
export interface CardCode {
  cardNumber: string;
  pinCode: string;
}

/** A report's query as the route passes it: the dates still as the client wrote them. */
type ReportRequest = Omit<ReportQuery, 'start' | 'endBefore'> & { startDate?: string; endDate?: string };

export function createTransactionReports(deps: { repository: OrdersRepository; codec: CardCodec }) {
  const { repository, codec } = deps;

  async function found(principal: Principal, id: string | number) {
    const number = typeof id === 'number' ? id : /^\d{1,15}$/.test(id) ? Number(id) : null;
    const row =
      number === null ? undefined : await repository.find(principal.accountId, principal.environment, number);
    if (!row) throw new AppError('RESOURCE_NOT_FOUND', `No gift card transaction ${id}`);
    return row;
  }

  /** The report's query with its dates read (400 when malformed or in the wrong order). */
  function reportQuery(q: ReportRequest): ReportQuery {
    const start = dateParam('startDate', q.startDate);
    const end = dateParam('endDate', q.endDate);
    // endDate is inclusive of its whole second (or whole day, when given as a bare date).
    const bareEnd = q.endDate !== undefined && !q.endDate.includes(' ');
    const endBefore = end && new Date(end.getTime() + (bareEnd ? 86_400_000 : 1000));
    if (start && end && start > end) {
      throw new AppError('INVALID_REQUEST', 'startDate is after endDate', [
        { field: 'startDate', issue: 'after endDate' },
      ]);
    }
    const { startDate: _s, endDate: _e, ...filters } = q;
    return { ...filters, start, endBefore };
  }

  return {
    async list(principal: Principal, q: ReportRequest) {
      const rows = await repository.report(principal.accountId, principal.environment, reportQuery(q));
      return rows.map(transactionView);
    },

    /** One page of `list` and how many transactions match in all (the paged wrapper's total). */
    async page(principal: Principal, q: ReportRequest) {
      const query = reportQuery(q);
      const [rows, total] = await Promise.all([
        repository.report(principal.accountId, principal.environment, query),
        repository.reportCount(principal.accountId, principal.environment, query),
      ]);
      return { items: rows.map(transactionView), total };
    },

    async get(principal: Principal, id: string | number) {
      return transactionView(await found(principal, id));
    },

    /** The decrypted codes of a SUCCESSFUL transaction; other states have none yet (or never will). */
    async cards(principal: Principal, id: string | number): Promise<CardCode[]> {
      const row = await found(principal, id);
      if (row.status !== 'SUCCESSFUL') {
        throw new AppError(
          'UNPROCCESSABLE_ENTITY',
          `Transaction ${row.id} is ${row.status}; redeem codes are served once it is SUCCESSFUL`,
        );
      }
      const cards = await repository.cards(row.id);
      return Promise.all(
        cards.map(async (c) => ({
          cardNumber: await codec.open(c.card_number),
          pinCode: await codec.open(c.pin_code),
        })),
      );
    },
  };
}

/**
 * The cards as JSON text: a code of digits without a leading zero is written as a JSON number with
 * exactly those digits (a double would round a 16-digit number); anything else as a string.
 */
export function cardsJson(cards: CardCode[]): string {
  const value = (code: string) => (/^[1-9]\d*$/.test(code) ? code : JSON.stringify(code));
  return `[${cards.map((c) => `{"cardNumber":${value(c.cardNumber)},"pinCode":${value(c.pinCode)}}`).join(',')}]`;
}

export type TransactionReports = ReturnType<typeof createTransactionReports>;
