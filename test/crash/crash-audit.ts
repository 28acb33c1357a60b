import { queryDatabase } from '../harness/server-process.ts';
import type { PlacedOrder } from './crash-load.ts';

/**
 * What the crash suite proves once the deployment is quiet, read from the database the servers
 * share (and the reports, by the caller): each count must be 0.
 */
export interface CrashCounts {
  orders: number;
  answered: number;
  answerLostButLanded: number;
  cutByClient: number;
  lost: number;
  fulfilledTwice: number;
  ledgerMismatches: number;
  stuck: number;
  webhooksExpected: number;
  webhooksMissing: number;
  unexpectedAnswers: number;
}

const q = <T extends Record<string, unknown>>(db: string, sql: string, values: unknown[] = []) =>
  queryDatabase<T>(db, sql, values);

/** Rows not in a final state, and webhook deliveries still pending: 0 once quiet. */
export async function unfinished(db: string): Promise<number> {
  const [row] = await q<{ n: number }>(
    db,
    `SELECT ((SELECT count(*) FROM giftcard_transactions WHERE status NOT IN ('SUCCESSFUL', 'REFUNDED'))
           + (SELECT count(*) FROM topup_transactions WHERE status NOT IN ('SUCCESSFUL', 'REFUNDED'))
           + (SELECT count(*) FROM webhook_deliveries WHERE status = 'PENDING'))::int AS n`,
  );
  return row.n;
}

export async function audit(
  db: string,
  placed: PlacedOrder[],
  inReports: (order: PlacedOrder) => Promise<string | null>,
  receivedEventIds: Set<string>,
): Promise<{ counts: CrashCounts; problems: string[] }> {
  const problems: string[] = [];
  const note = (what: string, rows: unknown[]) => {
    if (rows.length > 0) problems.push(`${what}: ${JSON.stringify(rows.slice(0, 5))}`);
    return rows.length;
  };

  // 0 lost: every order answered 2xx, or whose answer was lost but landed, is in the reports, final
  let lost = 0;
  for (const order of placed.filter((p) => p.outcome === 'answered' || p.outcome === 'landed')) {
    const status = await inReports(order);
    if (status !== 'SUCCESSFUL' && status !== 'REFUNDED') {
      lost += 1;
      problems.push(`${order.kind} ${order.customIdentifier}: ${status ?? 'not in the reports'}`);
    }
  }

  // 0 fulfilled twice: one debit per transaction, a SUCCESSFUL gift card has exactly its cards,
  // nothing else has any; a reference is used once
  const fulfilledTwice =
    note(
      'more than one debit',
      await q(
        db,
        `SELECT product, transaction_id, count(*) FROM ledger_entries WHERE kind = 'ORDER_DEBIT'
         GROUP BY product, transaction_id HAVING count(*) > 1`,
      ),
    ) +
    note(
      'cards not matching the order',
      await q(
        db,
        `SELECT t.id, t.status, t.quantity, count(c.position)::int AS cards FROM giftcard_transactions t
         LEFT JOIN giftcard_cards c ON c.transaction_id = t.id GROUP BY t.id
         HAVING count(c.position) <> CASE WHEN t.status = 'SUCCESSFUL' THEN t.quantity ELSE 0 END`,
      ),
    ) +
    note(
      'one reference, two transactions',
      await q(
        db,
        `SELECT custom_identifier FROM (SELECT custom_identifier FROM giftcard_transactions
           UNION ALL SELECT custom_identifier FROM topup_transactions) r
         WHERE custom_identifier IS NOT NULL GROUP BY custom_identifier HAVING count(*) > 1`,
      ),
    );

  // 0 ledger mismatches: balance == sum of entries; a refund (of the debit's amount) for every
  // REFUNDED, none for anything else; every transaction has its debit
  const ledgerMismatches =
    note(
      'balance != sum of entries',
      await q(
        db,
        `SELECT b.account_id, b.environment, b.balance, COALESCE(sum(e.amount), 0) AS sum FROM balances b
         LEFT JOIN ledger_entries e ON e.account_id = b.account_id AND e.environment = b.environment
         GROUP BY b.account_id, b.environment, b.balance HAVING b.balance <> COALESCE(sum(e.amount), 0)`,
      ),
    ) +
    note(
      'refunds not matching the state',
      await q(
        db,
        `WITH t AS (SELECT 'giftcards' AS product, id, status FROM giftcard_transactions
                    UNION ALL SELECT 'topups', id, status FROM topup_transactions)
         SELECT t.product, t.id, t.status, d.amount AS debit, r.amount AS refund FROM t
         LEFT JOIN ledger_entries d ON d.kind = 'ORDER_DEBIT' AND d.product = t.product AND d.transaction_id = t.id
         LEFT JOIN ledger_entries r ON r.kind = 'REFUND' AND r.product = t.product AND r.transaction_id = t.id
         WHERE d.id IS NULL OR (t.status = 'REFUNDED') <> (r.id IS NOT NULL)
            OR (r.id IS NOT NULL AND r.amount <> -d.amount)`,
      ),
    );

  const stuck = note(
    'stuck (not final)',
    await q(
      db,
      `SELECT 'giftcard' AS kind, id, status FROM giftcard_transactions WHERE status NOT IN ('SUCCESSFUL', 'REFUNDED')
       UNION ALL SELECT 'topup', id, status FROM topup_transactions WHERE status NOT IN ('SUCCESSFUL', 'REFUNDED')`,
    ),
  );

  // 0 webhooks missing: every event the final states call for was received (signature verified)
  const expected = await q<{ id: number; type: string }>(db, `SELECT e.id, e.type FROM webhook_events e`);
  const wanted = await q<{ n: number }>(
    db,
    `SELECT ((SELECT count(*) FROM giftcard_transactions)
           + (SELECT count(*) FROM giftcard_transactions WHERE id IN
               (SELECT subject_id FROM webhook_events WHERE type = 'giftcard.order.failed'))
           + (SELECT count(*) FROM topup_transactions))::int AS n`,
  );
  const orderEvents = expected.filter((e) => !e.type.startsWith('balance.')).length;
  if (orderEvents !== wanted[0].n) {
    problems.push(`outbox has ${orderEvents} order events, the final states call for ${wanted[0].n}`);
  }
  const missing = expected.filter((e) => !receivedEventIds.has(`evt_${e.id}`));
  note('webhooks missing', missing);

  const unexpected = placed.filter((p) => p.outcome === 'unexpected');
  note('unexpected answers', unexpected);

  return {
    problems,
    counts: {
      orders: placed.length,
      answered: placed.filter((p) => p.outcome === 'answered').length,
      answerLostButLanded: placed.filter((p) => p.outcome === 'landed').length,
      cutByClient: placed.reduce((n, p) => n + p.cut, 0),
      lost,
      fulfilledTwice,
      ledgerMismatches,
      stuck,
      webhooksExpected: expected.length,
      webhooksMissing: missing.length + Math.abs(orderEvents - wanted[0].n),
      unexpectedAnswers: unexpected.length,
    },
  };
}
