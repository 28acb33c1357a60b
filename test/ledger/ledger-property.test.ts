import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { sql } from 'kysely';
import { D } from '../giftcards/helpers.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';

// Property (issue 3 "Must show"): any mix of orders (successful, failed-then-refunded, refunded at
// once), fundings and the passing of time keeps balance == sum of ledger entries, never below zero,
// and equal to what was funded minus what the non-refunded orders cost.
type Command =
  | { kind: 'order'; productId: 11 | 24 | 25; quantity: number }
  | { kind: 'fund'; cents: number }
  | { kind: 'tick' };

const command: fc.Arbitrary<Command> = fc.oneof(
  fc.record({
    kind: fc.constant('order' as const),
    productId: fc.constantFrom(11 as const, 24 as const, 25 as const),
    quantity: fc.integer({ min: 1, max: 3 }),
  }),
  fc.record({ kind: fc.constant('fund' as const), cents: fc.integer({ min: 1, max: 5_000 }) }),
  fc.record({ kind: fc.constant('tick' as const) }),
);

describe('ledger property under gift card orders', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ env: { SANDBOX_PROCESSING_SECONDS: '5' } });
  });
  after(() => server.close());

  test('balance == sum(entries) >= 0 == funded - cost of orders not refunded', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 10 }), async (commands) => {
        const client = await server.caller('giftcards', 'sandbox', { fund: '30.00' });
        const id = client.account.accountId;
        let funded = new D('30.00');
        for (const c of commands) {
          if (c.kind === 'order') {
            const answer = await client.post('/orders', {
              productId: c.productId,
              quantity: c.quantity,
              unitPrice: 10,
              senderName: 'P',
            });
            assert.ok(
              answer.status === 200 || answer.body.errorCode === 'INSUFFICIENT_BALANCE',
              `${answer.status} ${answer.text}`,
            );
          } else if (c.kind === 'fund') {
            const amount = new D(c.cents).div(100);
            await server.admin.fund(id, amount.toFixed(2));
            funded = funded.plus(amount);
          } else {
            server.clock.advance(5_000);
            await server.runtime.services.worker.runDue((error) => {
              throw error;
            });
          }
          const row = await sql<{ balance: string; sum: string; kept: string }>`
            SELECT (SELECT balance FROM balances WHERE account_id = ${id} AND environment = 'sandbox')::text AS balance,
                   (SELECT COALESCE(SUM(amount), 0) FROM ledger_entries WHERE account_id = ${id})::text AS sum,
                   (SELECT COALESCE(SUM(amount), 0) FROM giftcard_transactions
                     WHERE account_id = ${id} AND status <> 'REFUNDED')::text AS kept`.execute(
            server.db.kysely,
          );
          const { balance, sum, kept } = row.rows[0];
          assert.ok(new D(balance).equals(sum), `balance ${balance} != entries ${sum}`);
          assert.ok(new D(balance).gte(0));
          assert.ok(new D(balance).equals(funded.minus(kept)), `balance ${balance} != ${funded} - ${kept}`);
        }
      }),
      { numRuns: 15 },
    );
    assert.deepEqual(await server.admin.audit(), []);
  });
});
