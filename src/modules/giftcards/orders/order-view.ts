import { currencyName } from '../../../lib/currencies.ts';
import { formatDateTime } from '../../../lib/time-format.ts';
import type { TransactionRow } from './orders-repository.ts';

/**
 * The Transaction resource of giftcards.md (spellings included: `receipientPhone`). A numeric
 * column's text read as a number: what `dec(value).toNumber()` gives, without a Decimal per field.
 */
const num = (value: string | number) => Number(value);

export function transactionView(row: TransactionRow) {
  return {
    transactionId: row.id,
    amount: num(row.amount),
    discount: num(row.discount),
    currencyCode: row.currency_code,
    fee: num(row.fee),
    customIdentifier: row.custom_identifier,
    status: row.status,
    product: {
      productId: row.product_id,
      productName: row.product_name,
      countryCode: row.country_code,
      quantity: row.quantity,
      unitPrice: num(row.unit_price),
      totalPrice: num(row.total_price),
      currencyCode: row.recipient_currency_code,
      brand: { brandId: row.brand_id, brandName: row.brand_name },
    },
    smsFee: num(row.sms_fee),
    totalFee: num(row.total_fee),
    // E.164 without its '+': at most 15 digits, so exact as a JSON number.
    receipientPhone: row.recipient_phone === null ? null : Number(row.recipient_phone.replace(/\D/g, '')),
    // Compatibility alias (decisions §9): Reloadly's Java SDK reads `recipientPhone`, a string.
    recipientPhone: row.recipient_phone === null ? null : row.recipient_phone.replace(/\D/g, ''),
    recipientEmail: row.recipient_email,
    transactionCreatedTime: formatDateTime(row.created_at),
    preOrdered: row.pre_ordered,
    balanceInfo: {
      oldBalance: num(row.old_balance),
      newBalance: num(row.new_balance),
      cost: num(row.amount),
      currencyCode: row.currency_code,
      currencyName: currencyName(row.currency_code),
      updatedAt: formatDateTime(row.balance_updated_at),
    },
  };
}

export type TransactionView = ReturnType<typeof transactionView>;
