/**
 * Detects the operator of a phone number and tops it up in the sandbox.
 *
 *   npx tsx examples/topup.ts [phone] [countryIso] [amount]
 *
 * Defaults: +2348031234567 (MTN Nigeria), NG, the operator's most popular (or smallest) amount.
 * The same number can be topped up again only 2 minutes later (PHONE_RECENTLY_RECHARGED).
 */
import { type Operator, Topups } from '../sdk/src/index.ts';
import { newCustomIdentifier, run, sandbox } from './connect.ts';

function defaultAmount(operator: Operator): number {
  if (operator.denominationType === 'FIXED') return operator.fixedAmounts[0]!;
  return operator.mostPopularAmount ?? operator.minAmount!;
}

await run(async () => {
  const topups = new Topups(sandbox('topups'));
  const [phone = '+2348031234567', country = 'NG', amountArg] = process.argv.slice(2);

  const operator = await topups.operators.autoDetect(phone, country);
  const amount = amountArg === undefined ? defaultAmount(operator) : Number(amountArg);
  console.log(
    `${phone} is served by ${operator.name} (operator ${operator.operatorId}, ${operator.denominationType}, ${operator.destinationCurrencyCode})`,
  );

  const sent = await topups.orders.create({
    operatorId: operator.operatorId,
    amount,
    customIdentifier: newCustomIdentifier('example-topup'),
    recipientPhone: { countryCode: country, number: phone },
  });
  console.log(
    `Sent ${sent.requestedAmount} ${sent.requestedAmountCurrencyCode}, delivered ${sent.deliveredAmount} ${sent.deliveredAmountCurrencyCode}: transaction ${sent.transactionId}, ${sent.status}`,
  );
  console.log(
    `Cost ${sent.balanceInfo.cost} ${sent.balanceInfo.currencyCode} after a discount of ${sent.discount}; balance now ${sent.balanceInfo.newBalance}`,
  );
});
