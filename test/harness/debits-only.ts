import { sql } from 'kysely';
import type { Ledger } from '../../src/modules/ledger/index.ts';

/**
 * The debit of a product without rows of its own (a row writer that writes nothing), for the suites
 * that post debits of made-up transaction ids straight through the ledger: the same path as an
 * order's (`ledger.registerRowWriter`), alone or gathered into a batch's one statement, and nothing
 * else. Make it once per server (each call is a gathering of its own).
 *
 * @example
 * const debit = debitsOnly(server.runtime.services.ledger);
 * await ledger.orderTransaction(key, (trx) => debit(trx, { ...key, amount: dec('1.25'), product: 'giftcards', transactionId: 1 }));
 */
export function debitsOnly(ledger: Ledger) {
  const debit = ledger.registerRowWriter<null>({ one: async () => {}, many: () => sql`` });
  type Trx = Parameters<typeof debit>[0];
  type Debit = Parameters<typeof debit>[1];
  // nothing follows the debit in these callbacks: its batch's COMMIT may go right behind it
  return (trx: Trx, o: Debit) => debit(trx, o, null, true);
}
