import { Readable } from 'node:stream';
import type { TypedApp } from '../../../http/schemas.ts';
import {
  TransactionSearchCsvQuery,
  TransactionSearchPage,
  TransactionSearchQuery,
} from './search-schemas.ts';
import type { TransactionSearch } from './transaction-search.ts';

/**
 * The console's transactions across accounts: a page of the search, and the same filters as a CSV
 * download streamed in batches (every row, a header line, money as exact decimals). Reads only:
 * permission `read` (modules/web/permissions.ts).
 */
export function searchRoutes(app: TypedApp, deps: { search: TransactionSearch }) {
  app.get(
    '/api/transactions',
    {
      schema: {
        querystring: TransactionSearchQuery,
        response: { 200: TransactionSearchPage },
        description:
          "Both products' transactions of every account, newest first, by status, account, customIdentifier, transaction id, recipient and UTC dates",
      },
      config: { permission: 'read' },
    },
    async (request) => {
      const { page = 1, size = 25, ...filter } = request.query;
      return deps.search.page(filter, { page, size });
    },
  );

  app.get(
    '/api/transactions.csv',
    {
      schema: {
        querystring: TransactionSearchCsvQuery,
        description:
          'The same search as CSV (text/csv), every matching row, newest first, streamed; cost is exact',
      },
      config: { permission: 'read' },
    },
    async (request, reply) => {
      const { environment, lines } = await deps.search.csv(request.query);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="transactions-${environment}.csv"`)
        .send(Readable.from(lines));
    },
  );
}
