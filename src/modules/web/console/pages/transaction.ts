import type { TransactionDetail } from '../../transactions/transaction-schemas.ts';
import { get } from '../../ui/api.ts';
import { h } from '../../ui/dom.ts';
import { backToTransactions, printableReceipt, transactionPageOf } from '../../ui/transaction-receipt.ts';

/**
 * One transaction of an account (`#/transaction?environment=…&account=…&product=…&id=…`, linked from
 * the transactions table): the receipt and ledger entries the account's dashboard shows; its
 * messages are on the Outbox page.
 */
export const transactionPage = transactionPageOf(async (body, { env, product, id }, route) => {
  const accountId = Number(route.query.get('account'));
  const back = backToTransactions(
    env,
    ' · ',
    accountId ? h('a', { href: `#/account?id=${accountId}` }, `Account ${accountId}`) : null,
  );
  if (!accountId || !id) {
    body.append(back, h('p', {}, 'Choose a transaction in the transactions table.'));
    return;
  }
  const d = await get<typeof TransactionDetail>(`/api/accounts/${accountId}/transactions/${product}/${id}`, {
    environment: env,
  });
  body.append(back, ...printableReceipt(d));
});
