/**
 * Lists every gift card purchase and every top-up of one month, across as many pages as it takes.
 *
 *   npx tsx examples/monthly-transactions.ts [yyyy-MM]
 *
 * Default: the current month (UTC). AIRGIFT_PAGE_SIZE sets the page size (default 100).
 */
import { GiftCards, Topups } from '../sdk/src/index.ts';
import { run, sandbox } from './connect.ts';

const month = process.argv[2] ?? new Date().toISOString().slice(0, 7);
const size = Number(process.env.AIRGIFT_PAGE_SIZE ?? 100);

function monthRange(yyyyMM: string) {
  const match = /^(\d{4})-(\d{2})$/.exec(yyyyMM);
  if (!match) throw new Error(`month must be yyyy-MM, not "${yyyyMM}"`);
  const lastDay = new Date(Date.UTC(Number(match[1]), Number(match[2]), 0)).getUTCDate();
  return { startDate: `${yyyyMM}-01 00:00:00`, endDate: `${yyyyMM}-${lastDay} 23:59:59` };
}

/** Sums of amounts per currency, kept in hundredths so the totals do not drift. */
function totals() {
  const cents = new Map<string, number>();
  return {
    add: (amount: number, currency: string) =>
      cents.set(currency, (cents.get(currency) ?? 0) + Math.round(amount * 100)),
    toString: () =>
      [...cents].map(([currency, c]) => `${(c / 100).toFixed(2)} ${currency}`).join(', ') || 'nothing',
  };
}

await run(async () => {
  const range = monthRange(month);
  // onRequest sees every request the SDK sends: here it counts the report pages fetched.
  const pages = { giftcards: 0, topups: 0 };
  const giftcards = new GiftCards(
    sandbox('giftcards', {
      onRequest: (r) => {
        if (r.url.includes('/reports/transactions')) pages.giftcards++;
      },
    }),
  );
  const topups = new Topups(
    sandbox('topups', {
      onRequest: (r) => {
        if (r.url.includes('/reports/transactions')) pages.topups++;
      },
    }),
  );

  console.log(`Gift card purchases, ${month}:`);
  let giftcardCount = 0;
  const giftcardTotal = totals();
  for await (const t of giftcards.transactions.list({ ...range, size })) {
    giftcardCount++;
    giftcardTotal.add(t.amount, t.currencyCode);
    console.log(
      `  ${t.transactionCreatedTime}  #${t.transactionId}  ${t.status.padEnd(10)}  ${t.product.quantity} × ${t.product.productName}  ${t.amount} ${t.currencyCode}`,
    );
  }

  console.log(`Top-ups, ${month}:`);
  let topupCount = 0;
  const topupTotal = totals();
  for await (const t of topups.transactions.list({ ...range, size })) {
    topupCount++;
    topupTotal.add(t.balanceInfo.cost, t.balanceInfo.currencyCode);
    console.log(
      `  ${t.transactionDate}  #${t.transactionId}  ${t.status.padEnd(10)}  ${t.operatorName} ${t.recipientPhone ?? t.recipientEmail}  ${t.balanceInfo.cost} ${t.balanceInfo.currencyCode}`,
    );
  }

  console.log(`${giftcardCount} gift card purchases (${giftcardTotal}) in ${pages.giftcards} pages`);
  console.log(`${topupCount} top-ups (${topupTotal}) in ${pages.topups} pages`);
});
