import type { Static } from 'typebox';
import { currencyName } from '../../../lib/currencies.ts';
import { dec } from '../../../lib/money.ts';
import { formatDateTime } from '../../../lib/time-format.ts';
import type { TopupTransaction } from './topup-schemas.ts';
import type { TopupRow } from './topups-repository.ts';

/**
 * The Top-up transaction resource (spec table + `balanceInfo`, decisions §5, + `links`, §4).
 * `recipientEmail` appears only for the e-mail addressed operator; `balanceInfo` is the balance
 * around the debit (a later refund is its own ledger entry); `links.self` is the report URL on the
 * base the caller used.
 */
export function topupView(row: TopupRow, baseUrl: string): Static<typeof TopupTransaction> {
  const currency = row.requested_currency_code;
  const self = `${baseUrl}/topups/reports/transactions/${row.id}`;
  return {
    transactionId: Number(row.id),
    status: row.status,
    operatorTransactionId: row.operator_transaction_id,
    customIdentifier: row.custom_identifier,
    recipientPhone: row.recipient_phone,
    ...(row.recipient_email === null ? {} : { recipientEmail: row.recipient_email }),
    senderPhone: row.sender_phone,
    countryCode: row.country_code,
    operatorId: row.operator_id,
    operatorName: row.operator_name,
    discount: dec(row.discount).toNumber(),
    discountCurrencyCode: currency,
    requestedAmount: dec(row.requested_amount).toNumber(),
    requestedAmountCurrencyCode: currency,
    deliveredAmount: dec(row.delivered_amount).toNumber(),
    deliveredAmountCurrencyCode: row.delivered_currency_code,
    transactionDate: formatDateTime(row.created_at),
    balanceInfo: {
      oldBalance: dec(row.old_balance).toNumber(),
      newBalance: dec(row.new_balance).toNumber(),
      cost: dec(row.cost).toNumber(),
      currencyCode: currency,
      currencyName: currencyName(currency),
      updatedAt: formatDateTime(row.balance_updated_at),
    },
    pinDetail: row.pin_detail,
    links: [{ href: self, rel: 'self', method: 'GET' }],
  };
}
