import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { Decimal } from 'decimal.js';
import { sql } from 'kysely';
import { referenceOf } from '../../src/modules/funding/index.ts';
import { ADMIN_KEY, AUDIENCES, type TestAccount } from '../harness/client.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';
import { CACHE_DIR } from '../harness/templates.ts';
import { consoleSession, dashboardSession, type WebSession } from '../harness/web-session.ts';

/**
 * Funding by bank transfer on a real database (docs/funding.md): the operator's bank details, a
 * customer's announcement, the operator's confirmation (one FUNDING entry, once, however often it is
 * clicked) or rejection, the e-mails of both sides, another account seeing none of it, the receipt,
 * and the monthly statement adding up against the ledger across a month boundary.
 */
const BANK = {
  accountHolder: 'Airgift Operations Ltd',
  accountNumber: 'DE89 3704 0044 0532 0130 00',
  bic: 'cobadeffxxx',
  bankName: 'Commerzbank',
  instructions: 'SEPA credit transfer only.',
};

describe('funding by bank transfer', () => {
  let server: TestServer;
  let account: TestAccount;
  let other: TestAccount;
  let customer: WebSession;
  let stranger: WebSession;
  let operator: WebSession;

  before(async () => {
    server = await startTestServer();
    account = await server.admin.createAccount({ environment: 'sandbox', fund: 100 });
    other = await server.admin.createAccount({ environment: 'sandbox', fund: 100 });
    customer = await dashboardSession(server, account.accountId, 'finance@example.com');
    stranger = await dashboardSession(server, other.accountId, 'x@example.com');
    operator = await consoleSession(server, 'ops@example.com');
  });
  after(() => server?.close());

  const liveBalance = async (accountId: number) =>
    (await server.admin.call('GET', `/accounts/${accountId}`)).body.balances.live.balance as number;
  const messages = async (transferId: number) =>
    (
      await sql<{ recipient: string; data: { status: string; side: string } }>`
        SELECT recipient, data FROM messages
        WHERE kind = 'funding.transfer' AND (data->>'transferId')::int = ${transferId}
        ORDER BY id`.execute(server.db.kysely)
    ).rows.map((m) => `${m.data.status} ${m.data.side} ${m.recipient}`);
  const today = () => server.clock.now().toISOString().slice(0, 10);

  test('the operator sets bank details per currency; bad ones are refused with their field', async () => {
    const set = await server.admin.call('PUT', '/bank-details/usd', BANK);
    assert.equal(set.status, 200, set.text);
    assert.equal(set.body.currencyCode, 'USD');
    assert.equal(set.body.bic, 'COBADEFFXXX');
    const badBic = await server.admin.call('PUT', '/bank-details/EUR', { ...BANK, bic: 'ABC' });
    assert.equal(badBic.status, 400);
    const unknown = await server.admin.call('PUT', '/bank-details/XXY', BANK);
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.details[0].field, 'currencyCode');
    const listed = await operator.get('/api/bank-details');
    assert.deepEqual(
      listed.body.items.map((b: { currencyCode: string }) => b.currencyCode),
      ['USD'],
    );
  });

  test("the customer sees the bank details with the account's reference, and amounts are checked", async () => {
    const info = await customer.get('/api/funding');
    assert.equal(info.status, 200, info.text);
    assert.equal(info.body.reference, referenceOf(account.accountId));
    assert.match(info.body.reference, new RegExp(`^AG-${account.accountId}-\\d{2}$`));
    assert.equal(info.body.bankDetails.accountNumber, BANK.accountNumber);
    for (const [amount, field] of [
      ['0', 'amount'],
      ['10.005', 'amount'],
      [-5, 'amount'],
    ] as const) {
      const refused = await customer.post('/api/funding/transfers', { amount, transferDate: today() });
      assert.equal(refused.status, 400, `${amount}: ${refused.text}`);
      assert.equal(refused.body.details[0].field, field);
    }
    const future = await customer.post('/api/funding/transfers', {
      amount: '10',
      transferDate: '2999-01-01',
    });
    assert.equal(future.status, 400);
    assert.equal(future.body.details[0].field, 'transferDate');
    const notADay = await customer.post('/api/funding/transfers', {
      amount: '10',
      transferDate: '2026-02-30',
    });
    assert.equal(notADay.status, 400);
  });

  test('a currency without bank details cannot be announced to (422 BANK_DETAILS_NOT_SET)', async () => {
    const euros = await server.admin.createAccount({
      currency: 'EUR',
      country: 'DE',
      environment: 'sandbox',
    });
    const user = await dashboardSession(server, euros.accountId, 'eu@example.com');
    assert.equal((await user.get('/api/funding')).body.bankDetails, null);
    const refused = await user.post('/api/funding/transfers', { amount: '10', transferDate: today() });
    assert.equal(refused.status, 422);
    assert.equal(refused.body.errorCode, 'BANK_DETAILS_NOT_SET');
  });

  test('announce -> confirm: the live balance is funded once, by a FUNDING entry naming the reference', async () => {
    const before = await liveBalance(account.accountId);
    const announced = await customer.post('/api/funding/transfers', {
      amount: '250.50',
      transferDate: today(),
      payerReference: 'INV-2026-11',
    });
    assert.equal(announced.status, 200, announced.text);
    const t = announced.body;
    assert.equal(t.status, 'announced');
    assert.equal(t.amount, '250.50');
    assert.equal(t.reference, referenceOf(account.accountId));

    const queue = await operator.get('/api/funding/transfers?status=announced');
    assert.equal(queue.status, 200, queue.text);
    assert.ok(queue.body.items.some((q: { transferId: number }) => q.transferId === t.transferId));

    const confirmed = await operator.post(`/api/funding/transfers/${t.transferId}/confirm`);
    assert.equal(confirmed.status, 200, confirmed.text);
    assert.equal(confirmed.body.status, 'confirmed');
    assert.equal(confirmed.body.decidedBy, 'ops@example.com');
    assert.equal(confirmed.body.newBalance, new Decimal(before).plus('250.50').toFixed(2));
    assert.equal(await liveBalance(account.accountId), new Decimal(before).plus('250.50').toNumber());

    const ledger = await server.admin.call('GET', `/accounts/${account.accountId}/ledger?environment=live`);
    const entry = ledger.body.items[0];
    assert.equal(entry.id, confirmed.body.ledgerEntryId);
    assert.equal(entry.kind, 'FUNDING');
    assert.equal(entry.amount, 250.5);
    assert.ok(entry.reason.includes(t.reference) && entry.reason.includes('INV-2026-11'), entry.reason);

    // the second click, the other operator, the admin key: nothing more moves
    const again = await operator.post(`/api/funding/transfers/${t.transferId}/confirm`);
    assert.equal(again.status, 409);
    assert.equal(again.body.errorCode, 'TRANSFER_ALREADY_DECIDED');
    const byKey = await server.admin.call('POST', `/funding/transfers/${t.transferId}/confirm`);
    assert.equal(byKey.status, 409);
    const rejectLate = await operator.post(`/api/funding/transfers/${t.transferId}/reject`, {
      reason: 'late',
    });
    assert.equal(rejectLate.status, 409);
    assert.equal(await liveBalance(account.accountId), new Decimal(before).plus('250.50').toNumber());
    assert.deepEqual((await server.admin.call('GET', '/ledger/audit')).body.discrepancies, []);

    const mine = await customer.get('/api/funding/transfers');
    assert.equal(mine.body.items[0].status, 'confirmed');
    assert.equal(mine.body.items[0].ledgerEntryId, entry.id);
    assert.equal('decidedBy' in mine.body.items[0], false, "the customer is not told the operator's e-mail");

    const receipt = await customer.get(`/api/receipts/${entry.id}`);
    assert.equal(receipt.status, 200, receipt.text);
    assert.equal(receipt.body.amount, '250.50');
    assert.equal(receipt.body.reference, t.reference);
    assert.equal(receipt.body.transfer.payerReference, 'INV-2026-11');

    assert.deepEqual(await messages(t.transferId), [
      'announced customer finance@example.com',
      'announced operator ops@example.com',
      'confirmed customer finance@example.com',
      'confirmed operator ops@example.com',
    ]);
  });

  test('two confirmations at once fund once', async () => {
    const before = await liveBalance(account.accountId);
    const t = (await customer.post('/api/funding/transfers', { amount: '40', transferDate: today() })).body;
    const answers = await Promise.all([
      operator.post(`/api/funding/transfers/${t.transferId}/confirm`),
      operator.post(`/api/funding/transfers/${t.transferId}/confirm`),
      server.admin.call('POST', `/funding/transfers/${t.transferId}/confirm`),
    ]);
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 409, 409]);
    assert.equal(await liveBalance(account.accountId), new Decimal(before).plus(40).toNumber());
  });

  test('reject: the customer reads the reason, no money moves, both sides are e-mailed', async () => {
    const before = await liveBalance(account.accountId);
    const t = (await customer.post('/api/funding/transfers', { amount: '75', transferDate: today() })).body;
    const empty = await operator.post(`/api/funding/transfers/${t.transferId}/reject`, { reason: '   ' });
    assert.equal(empty.status, 400);
    const rejected = await operator.post(`/api/funding/transfers/${t.transferId}/reject`, {
      reason: 'No transfer with this reference arrived',
    });
    assert.equal(rejected.status, 200, rejected.text);
    assert.equal(rejected.body.status, 'rejected');
    assert.equal(rejected.body.ledgerEntryId, null);
    assert.equal(await liveBalance(account.accountId), before);
    const mine = await customer.get('/api/funding/transfers?status=rejected');
    assert.equal(mine.body.items[0].rejectReason, 'No transfer with this reference arrived');
    const confirmLate = await operator.post(`/api/funding/transfers/${t.transferId}/confirm`);
    assert.equal(confirmLate.status, 409);
    assert.deepEqual((await messages(t.transferId)).slice(2), [
      'rejected customer finance@example.com',
      'rejected operator ops@example.com',
    ]);
    const unknown = await operator.post('/api/funding/transfers/999999/confirm');
    assert.equal(unknown.status, 404);
  });

  test("another account's user sees none of it", async () => {
    const theirs = await stranger.get('/api/funding/transfers');
    assert.equal(theirs.status, 200);
    assert.deepEqual(theirs.body.items, []);
    const mine = await customer.get('/api/funding/transfers?status=confirmed');
    const entryId = mine.body.items[0].ledgerEntryId;
    assert.equal((await stranger.get(`/api/receipts/${entryId}`)).status, 404);
    assert.equal((await stranger.get('/api/funding')).body.reference, referenceOf(other.accountId));
  });

  test('roles: a developer may not fund or read statements; a support operator reads the queue but decides nothing', async () => {
    const dev = await dashboardSession(server, account.accountId, 'dev@example.com');
    const support = await consoleSession(server, 'support@example.com');
    await sql`UPDATE web_users SET role = CASE kind WHEN 'customer' THEN 'developer' ELSE 'support' END
              WHERE email IN ('dev@example.com', 'support@example.com')`.execute(server.db.kysely);
    for (const answer of [
      await dev.get('/api/funding'),
      await dev.get('/api/funding/transfers'),
      await dev.post('/api/funding/transfers', { amount: '1', transferDate: today() }),
      await dev.get('/api/statement?environment=live&month=2026-11'),
      await dev.get('/api/statement.csv?environment=live&month=2026-11'),
    ]) {
      assert.equal(answer.status, 403, answer.text);
    }
    const t = (await customer.post('/api/funding/transfers', { amount: '1', transferDate: today() })).body;
    assert.equal((await support.get('/api/funding/transfers?status=announced')).status, 200);
    assert.equal((await support.post(`/api/funding/transfers/${t.transferId}/confirm`)).status, 403);
    assert.equal(
      (await support.post(`/api/funding/transfers/${t.transferId}/reject`, { reason: 'x' })).status,
      403,
    );
    assert.equal((await support.post('/api/bank-details/USD', BANK)).status, 403);
    assert.equal(
      (await operator.post(`/api/funding/transfers/${t.transferId}/reject`, { reason: 'test' })).status,
      200,
    );
  });

  test('the monthly statement adds up against the ledger, across a month boundary', async () => {
    const fresh = await server.admin.createAccount({ environment: 'sandbox', fund: 0 });
    const user = await dashboardSession(server, fresh.accountId, 'st@example.com');
    const id = fresh.accountId;
    const post = async (path: string, amount: string, reason: string) => {
      const a = await server.admin.call('POST', `/accounts/${id}/${path}`, {
        environment: 'sandbox',
        amount,
        reason,
      });
      assert.equal(a.status, 200, a.text);
    };
    server.clock.set(new Date('2026-09-15T10:00:00.000Z'));
    await post('fund', '1000', 'september');
    // the test's clock runs on from where it is set: these two are within October's last seconds
    server.clock.set(new Date('2026-10-31T23:59:57.000Z'));
    await post('fund', '200.25', 'last seconds of october');
    const token = await server.admin.token(fresh, AUDIENCES.giftcardsSandbox);
    const order = await server.http.post(
      '/giftcards-sandbox/orders',
      { productId: 11, quantity: 1, unitPrice: 10, senderName: 'Statement' },
      { token, headers: { accept: 'application/com.reloadly.giftcards-v1+json' } },
    );
    assert.equal(order.status, 200, order.text);
    server.clock.set(new Date('2026-11-01T00:00:00.000Z'));
    await post('adjust', '-3.10', 'first instant of november');
    await post('fund', '50', 'november');
    server.clock.set(new Date());

    const statement = async (month: string) => {
      const s = await user.get(`/api/statement?environment=sandbox&month=${month}`);
      assert.equal(s.status, 200, s.text);
      return s.body;
    };
    const [sep, oct, nov] = [
      await statement('2026-09'),
      await statement('2026-10'),
      await statement('2026-11'),
    ];
    for (const s of [sep, oct, nov]) {
      const sum = s.entries.reduce((t: Decimal, e: { amount: string }) => t.plus(e.amount), new Decimal(0));
      assert.equal(new Decimal(s.openingBalance).plus(sum).toFixed(2), s.closingBalance, s.month);
      assert.equal(
        new Decimal(s.openingBalance).plus(s.totalIn).plus(s.totalOut).toFixed(2),
        s.closingBalance,
      );
      assert.equal(s.entryCount, s.entries.length);
      assert.equal(s.truncated, false);
      if (s.entries.length > 0)
        assert.equal(s.entries.at(-1).balanceAfter, s.closingBalance, 'as the ledger left it');
    }
    assert.equal(sep.openingBalance, '0.00');
    assert.equal(oct.openingBalance, sep.closingBalance);
    assert.equal(nov.openingBalance, oct.closingBalance);
    assert.deepEqual(
      oct.entries.map((e: { kind: string }) => e.kind),
      ['FUNDING', 'ORDER_DEBIT'],
      'the last seconds of October are in October',
    );
    assert.equal(nov.entries[0].reason, 'first instant of november');
    const balance = (await server.admin.call('GET', `/accounts/${id}`)).body.balances.sandbox.balance;
    assert.equal(nov.closingBalance, new Decimal(balance).toFixed(2), "November closes at today's balance");
    const ledger = (await server.admin.call('GET', `/accounts/${id}/ledger?environment=sandbox`)).body.items;
    assert.equal(
      sep.entries.length + oct.entries.length + nov.entries.length,
      ledger.length,
      'every entry, once',
    );

    const csv = await user.get('/api/statement.csv?environment=sandbox&month=2026-11');
    assert.equal(csv.status, 200);
    assert.match(String(csv.headers['content-type']), /^text\/csv/);
    const lines = csv.text
      .trim()
      .split('\r\n')
      .map((l) => l.split(','));
    assert.deepEqual(lines[0].slice(0, 5), ['entryId', 'createdAt', 'kind', 'amount', 'balanceAfter']);
    assert.equal(lines[1][2], 'OPENING_BALANCE');
    assert.equal(lines[1][4], nov.openingBalance);
    assert.equal(lines.at(-1)?.[2], 'CLOSING_BALANCE');
    assert.equal(lines.at(-1)?.[4], nov.closingBalance);
    assert.deepEqual(
      lines.slice(2, -1).map((l) => l[3]),
      ['-3.10', '50.00'],
      'amounts as numbers (no formula guard on a negative amount)',
    );
    const bad = await user.get('/api/statement?environment=sandbox&month=2026-13');
    assert.equal(bad.status, 400);
  });

  test('the CLI sets bank details, lists the queue, confirms and rejects', async () => {
    const env = {
      ...process.env,
      AIRGIFT_URL: server.url,
      AIRGIFT_ADMIN_KEY: ADMIN_KEY,
      AIRGIFT_CA_FILE: join(CACHE_DIR, 'tls', 'ca.crt'),
    };
    const bin = join(import.meta.dirname, '..', '..', 'bin', 'airgift.mjs');
    const airgift = async (...args: string[]) =>
      (await promisify(execFile)(process.execPath, [bin, ...args], { env })).stdout;
    const set = JSON.parse(
      await airgift(
        'bank-details',
        'set',
        'gbp',
        '--holder',
        'Airgift Ltd',
        '--account',
        'GB33BUKB20201555555555',
        '--bic',
        'BUKBGB22',
        '--bank',
        'Barclays',
        '--json',
      ),
    );
    assert.equal(set.currencyCode, 'GBP');
    assert.match(
      await airgift('bank-details', 'list'),
      /GBP\s+Airgift Ltd\s+GB33BUKB20201555555555\s+BUKBGB22/,
    );
    const [a, b] = [
      (
        await customer.post('/api/funding/transfers', {
          amount: '5',
          transferDate: today(),
          payerReference: 'CLI-A',
        })
      ).body,
      (
        await customer.post('/api/funding/transfers', {
          amount: '6',
          transferDate: today(),
          payerReference: 'CLI-B',
        })
      ).body,
    ];
    const queue = await airgift('transfers', 'list');
    assert.match(
      queue,
      new RegExp(`${a.transferId}\\s+${account.accountId} .*5\\.00 USD.*CLI-A\\s+announced`),
    );
    assert.match(
      await airgift('transfers', 'confirm', String(a.transferId)),
      /confirmed: account \d+ funded 5\.00 USD/,
    );
    assert.match(
      await airgift('transfers', 'reject', String(b.transferId), '--reason', 'duplicate'),
      /rejected: duplicate/,
    );
    const again = await airgift('transfers', 'confirm', String(a.transferId)).catch((e) => e);
    assert.equal(again.code, 1);
    assert.match(String(again.stderr) + String(again.stdout), /TRANSFER_ALREADY_DECIDED|already confirmed/);
    const confirmed = JSON.parse(await airgift('transfers', 'list', '--status', 'confirmed', '--json'));
    assert.equal(confirmed.items[0].decidedBy.startsWith('admin key '), true);
    assert.match(await airgift('bank-details', 'remove', 'GBP'), /bank details of GBP removed/);
  });
});

// Real concurrency needs real connections: on PostgreSQL, eight confirmations of one transfer at once
// (console sessions and the admin key) fund it once, and the ledger audit stays clean.
describe('funding by bank transfer on PostgreSQL, confirmed by many at once', () => {
  let server: TestServer;
  after(() => server?.close());

  test('eight simultaneous confirmations: one 200, seven 409, one FUNDING entry', async () => {
    server = await startTestServer({ database: 'postgres' });
    const account = await server.admin.createAccount({ environment: 'sandbox', fund: 1 });
    await server.admin.call('PUT', '/bank-details/USD', BANK);
    const customer = await dashboardSession(server, account.accountId, 'pg@example.com');
    const ops = await Promise.all([1, 2, 3].map((n) => consoleSession(server, `ops${n}@example.com`)));
    const day = server.clock.now().toISOString().slice(0, 10);
    for (let round = 0; round < 3; round++) {
      const t = (await customer.post('/api/funding/transfers', { amount: '33.33', transferDate: day })).body;
      const confirm = `/funding/transfers/${t.transferId}/confirm`;
      const answers = await Promise.all([
        ...ops.flatMap((o) => [o.post(`/api/${confirm.slice(1)}`), o.post(`/api/${confirm.slice(1)}`)]),
        server.admin.call('POST', confirm),
        server.admin.call('POST', confirm),
      ]);
      const statuses = answers.map((a) => a.status).sort();
      assert.deepEqual(
        statuses,
        [200, 409, 409, 409, 409, 409, 409, 409],
        JSON.stringify(answers.map((a) => a.body)),
      );
    }
    const ledger = await server.admin.call('GET', `/accounts/${account.accountId}/ledger?environment=live`);
    assert.deepEqual(
      ledger.body.items.map((e: { kind: string; amount: number }) => `${e.kind} ${e.amount}`),
      ['FUNDING 33.33', 'FUNDING 33.33', 'FUNDING 33.33'],
    );
    const detail = await server.admin.call('GET', `/accounts/${account.accountId}`);
    assert.equal(detail.body.balances.live.balance, 99.99);
    assert.deepEqual((await server.admin.call('GET', '/ledger/audit')).body.discrepancies, []);
  });
});
