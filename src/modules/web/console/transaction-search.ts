import type { Environment } from '../../../db/schema.ts';
import { AppError } from '../../../errors/error-codes.ts';
import { csvCell } from '../../../lib/csv.ts';
import { displayMoney, exactMoneyText } from '../../../lib/money.ts';
import { formatDateTime } from '../../../lib/time-format.ts';
import type {
  Cursor,
  ProductFilter,
  SearchFilter,
  SearchRow,
  TransactionSearchRepository,
} from './transaction-search-repository.ts';

/**
 * The console's transaction search across accounts (support work): the filters read and checked
 * (400 for a malformed recipient or dates in the wrong order), one page newest first, the same as a
 * CSV stream read in keyset batches (no transaction held, no offset walked), and the environment a
 * page opens on when the address names none.
 *
 * @example
 * const page = await search.page({ customIdentifier: 'order-77' }, { page: 1, size: 25 });
 * reply.send(Readable.from(search.csv({ environment: 'live', status: 'FAILED' })));
 */
export interface SearchRequest {
  environment?: Environment;
  product?: ProductFilter;
  status?: string;
  accountId?: number;
  customIdentifier?: string;
  transactionId?: number;
  recipient?: string;
  startDate?: string;
  endDate?: string;
}

const DAY_MS = 86_400_000;
const CSV_BATCH = 1000;

export const CSV_HEAD = [
  'product',
  'transactionId',
  'accountId',
  'accountName',
  'environment',
  'status',
  'description',
  'customIdentifier',
  'recipient',
  'cost',
  'currencyCode',
  'createdAt',
];

/** A yyyy-MM-dd day as its UTC midnight (400 when it is no calendar day). */
function day(field: string, value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const date = new Date(`${value}T00:00:00Z`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value) {
    throw new AppError('INVALID_REQUEST', `${field} is not a date`, [{ field, issue: 'not a calendar day' }]);
  }
  return date;
}

/** An e-mail (lower-cased) or a phone number's digits; 400 for anything else. */
function recipientOf(text: string | undefined): SearchFilter['recipient'] {
  if (text === undefined) return undefined;
  const trimmed = text.trim();
  if (trimmed.includes('@')) return { email: trimmed.toLowerCase() };
  const digits = trimmed.replace(/[\s\-.()/+\u00a0]/g, '');
  if (!/^\d{4,15}$/.test(digits)) {
    throw new AppError('INVALID_REQUEST', 'recipient is neither an e-mail address nor a phone number', [
      { field: 'recipient', issue: 'an e-mail address or a phone number in international form' },
    ]);
  }
  return { digits };
}

const recipientText = (r: SearchRow) =>
  r.recipient_email ??
  (r.recipient_phone === null
    ? null
    : r.recipient_phone.startsWith('+')
      ? r.recipient_phone
      : `+${r.recipient_phone}`);

function view(r: SearchRow) {
  return {
    product: r.product,
    transactionId: Number(r.id),
    accountId: Number(r.account_id),
    accountName: r.account_name,
    environment: r.environment,
    status: r.status,
    description: r.description,
    customIdentifier: r.custom_identifier,
    recipient: recipientText(r),
    cost: exactMoneyText(r.cost, r.currency_code),
    costText: displayMoney(r.cost, r.currency_code),
    currencyCode: r.currency_code,
    createdAt: formatDateTime(new Date(r.created_at)),
  };
}

export function createTransactionSearch(deps: { repository: TransactionSearchRepository }) {
  const { repository } = deps;

  /** Live when it has transactions, else sandbox when that has, else live (of one account when given). */
  async function openingEnvironment(accountId?: number): Promise<Environment> {
    if (await repository.any('live', accountId)) return 'live';
    return (await repository.any('sandbox', accountId)) ? 'sandbox' : 'live';
  }

  async function filterOf(q: SearchRequest): Promise<SearchFilter> {
    const from = day('startDate', q.startDate);
    const end = day('endDate', q.endDate);
    if (from && end && from > end) {
      throw new AppError('INVALID_REQUEST', 'startDate is after endDate', [
        { field: 'startDate', issue: 'after endDate' },
      ]);
    }
    const recipient = recipientOf(q.recipient);
    return {
      environment: q.environment ?? (await openingEnvironment(q.accountId)),
      product: q.product ?? 'all',
      status: q.status,
      accountId: q.accountId,
      customIdentifier: q.customIdentifier,
      transactionId: q.transactionId,
      recipient,
      from,
      before: end && new Date(end.getTime() + DAY_MS),
    };
  }

  return {
    openingEnvironment,

    /** One page, newest first; `hasMore` when another follows. */
    async page(q: SearchRequest, page: { page: number; size: number }) {
      const f = await filterOf(q);
      const rows = await repository.search(f, { limit: page.size + 1, offset: (page.page - 1) * page.size });
      return {
        environment: f.environment,
        items: rows.slice(0, page.size).map(view),
        hasMore: rows.length > page.size,
        ...page,
      };
    },

    /** The filter's environment and its CSV (a header line, then every row, newest first, CRLF ends). */
    async csv(q: SearchRequest): Promise<{ environment: Environment; lines: AsyncIterable<string> }> {
      const f = await filterOf(q);
      async function* lines() {
        yield `${CSV_HEAD.join(',')}\r\n`;
        let after: Cursor | undefined;
        for (;;) {
          const rows = await repository.search(f, { limit: CSV_BATCH, after });
          if (rows.length === 0) return;
          let chunk = '';
          for (const r of rows) {
            const v = view(r);
            chunk += `${[
              v.product,
              v.transactionId,
              v.accountId,
              v.accountName,
              v.environment,
              v.status,
              v.description,
              v.customIdentifier,
              v.recipient,
              v.cost,
              v.currencyCode,
              v.createdAt,
            ]
              .map(csvCell)
              .join(',')}\r\n`;
          }
          yield chunk;
          if (rows.length < CSV_BATCH) return;
          const last = rows[rows.length - 1];
          after = { at: last.at, id: last.id, product: last.product };
        }
      }
      return { environment: f.environment, lines: lines() };
    },
  };
}

export type TransactionSearch = ReturnType<typeof createTransactionSearch>;
