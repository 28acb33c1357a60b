import type { Static } from 'typebox';
import { currencyName } from '../../../lib/currencies.ts';
import { formatDateTime } from '../../../lib/time-format.ts';
import type { TopupTransaction } from './order-schemas.ts';
import type { TopupRow } from './orders-repository.ts';

/**
 * The Top-up transaction resource (spec table + `balanceInfo`, decisions §5, + `links`, §4).
 * `recipientEmail` appears only for the e-mail addressed operator; `balanceInfo` is the balance
 * around the debit (a later refund is its own ledger entry); `links.self` is the report URL on the
 * base the caller used. Numeric columns are read with `Number` (what `dec(text).toNumber()` gives).
 */
export type TopupView = Static<typeof TopupTransaction>;

export function topupView(row: TopupRow, baseUrl: string): TopupView {
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
    discount: Number(row.discount),
    discountCurrencyCode: currency,
    requestedAmount: Number(row.requested_amount),
    requestedAmountCurrencyCode: currency,
    deliveredAmount: Number(row.delivered_amount),
    deliveredAmountCurrencyCode: row.delivered_currency_code,
    transactionDate: formatDateTime(row.created_at),
    balanceInfo: {
      oldBalance: Number(row.old_balance),
      newBalance: Number(row.new_balance),
      cost: Number(row.cost),
      currencyCode: currency,
      currencyName: currencyName(currency),
      updatedAt: formatDateTime(row.balance_updated_at),
    },
    pinDetail: row.pin_detail,
    links: [{ href: self, rel: 'self', method: 'GET' }],
  };
}
