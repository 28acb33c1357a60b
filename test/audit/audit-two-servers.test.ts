import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deploymentForSuite, queryDatabase } from '../harness/server-process.ts';

// Two real server processes of one deployment on one PostgreSQL database appending audit lines at the
// same moment: the chain stays ONE chain (each append locks the chain head in its transaction,
// migration 0022), every line numbered without a gap and linked to the one before it, and
// `audit verify` finds nothing wrong on either server.
const suite = await deploymentForSuite(2);

test('two servers appending at once keep one valid chain', {
  skip: suite.skip,
}, async () => {
  const [a, b] = suite.servers;
  const made = await a.admin.call('POST', '/accounts', {
    name: 'Chain',
    currency: 'USD',
    country: 'US',
    environment: 'sandbox',
  });
  assert.equal(made.status, 200, made.text);
  const accountId = made.body.accountId;
  const before = (await a.admin.call('GET', '/audit/verify')).body.lines as number;
  // 2 servers × 8 clients × 10 changes, all at once: fundings (the ledger's row lock too) and rates
  const rounds = 10;
  const clients = 8;
  const answers = await Promise.all(
    [a, b].flatMap((server, s) =>
      Array.from({ length: clients }, async (_, c) => {
        const statuses: number[] = [];
        for (let i = 0; i < rounds; i++) {
          const answer =
            i % 2 === 0
              ? await server.admin.call('POST', `/accounts/${accountId}/fund`, {
                  environment: 'sandbox',
                  amount: 1,
                  reason: `server ${s} client ${c} round ${i}`,
                })
              : await server.admin.call('PUT', '/fx-rates/EUR', { unitsPerUsd: `0.9${s}${c}${i}` });
          statuses.push(answer.status);
        }
        return statuses;
      }),
    ),
  );
  assert.ok(
    answers.flat().every((s) => s === 200),
    JSON.stringify(answers),
  );
  const appended = 2 * clients * rounds;
  for (const server of [a, b]) {
    const verified = (await server.admin.call('GET', '/audit/verify')).body;
    assert.deepEqual(verified.problems, []);
    assert.equal(verified.ok, true);
    assert.equal(verified.lines, before + appended);
    assert.equal(verified.head.auditId, before + appended);
  }
  // straight from the table: ids 1..n, each line's prev_hash the hash of the line before
  const rows = await queryDatabase<{ id: string; prev_hash: string; hash: string; request_id: string }>(
    a.database,
    'SELECT id, prev_hash, hash, request_id FROM audit_log ORDER BY id',
  );
  rows.forEach((r, i) => {
    assert.equal(Number(r.id), i + 1);
    assert.equal(r.prev_hash, i === 0 ? '0'.repeat(64) : rows[i - 1].hash);
  });
  assert.equal(new Set(rows.map((r) => r.request_id)).size, rows.length, 'one line per request');
});
