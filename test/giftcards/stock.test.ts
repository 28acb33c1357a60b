import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { airgiftCli } from '../harness/cli.ts';
import type { Caller } from '../harness/client.ts';
import { caPem } from '../harness/client.ts';
import { postgresForTests, startTestServer, type TestServer } from '../harness/server.ts';
import { assertTransaction } from './helpers.ts';

// Issue 8, code stock: the operator loads codes (encrypted at rest), routes a live product to its
// stock, and live orders draw those codes; exhaustion refuses with nothing debited, a pre-order waits
// PENDING until an import brings codes. Every answer is the one a sandbox order gives.
const AMAZON_US = 1840; // FIXED 10/25/50/100/200 USD, no pre-orders
const SPOTIFY_US = 9840; // FIXED 10/30/100 USD, supports pre-orders
let server: TestServer;
const pg = await postgresForTests();

const csv = (rows: string[], header = 'cardNumber,pinCode,faceValue') => `${header}\n${rows.join('\n')}\n`;
let serial = 4000_0000_0000_0000n;
/** `n` fresh codes (16-digit numbers, 6-digit PINs) of one face value, as CSV rows and as cards. */
function codes(n: number, faceValue: string | number) {
  const cards = Array.from({ length: n }, () => {
    serial += 7n;
    return { cardNumber: String(serial), pinCode: String(100000 + Number(serial % 900000n)) };
  });
  return { cards, rows: cards.map((c) => `${c.cardNumber},${c.pinCode},${faceValue}`) };
}

const importCodes = (productId: number, text: string) =>
  server.admin.call('POST', `/products/${productId}/stock`, { csv: text });
const route = (productId: number, provider: string) =>
  server.admin.call('PUT', `/products/${productId}/provider`, { provider });
const stockOf = async (productId: number) =>
  (await server.admin.call('GET', `/stock?productId=${productId}`)).body.items as any[];
const balanceOf = async (client: Caller) => (await client.get('/accounts/balance')).body.balance as number;

async function liveClient(fund = 10_000) {
  return server.caller('giftcards', 'live', { fund });
}

for (const database of ['pglite', 'postgres'] as const) {
  describe(`code stock on ${database === 'pglite' ? 'PGlite' : 'PostgreSQL'}`, {
    skip: database === 'postgres' && !pg && 'PostgreSQL not reachable',
  }, () => {
    before(async () => {
      server = await startTestServer({ database });
    });
    after(() => server.close());

    test('an import loads every code, encrypted, and show counts them per product and face value', async () => {
      const tens = codes(3, 10);
      const fifties = codes(2, '50.00');
      const answer = await importCodes(AMAZON_US, csv([...tens.rows, ...fifties.rows]));
      assert.equal(answer.status, 200, answer.text);
      assert.equal(answer.body.imported, 5);
      const lines = await stockOf(AMAZON_US);
      assert.deepEqual(
        lines.map((l) => [l.faceValue, l.available, l.sold, l.expired, l.preOrdered, l.currencyCode]),
        [
          [10, 3, 0, 0, 0, 'USD'],
          [50, 2, 0, 0, 0, 'USD'],
        ],
      );
      assert.equal(lines[0].provider, 'default');
      // at rest: neither number nor PIN in clear, and a fingerprint that is not the number either
      const stored = await server.db.kysely.selectFrom('giftcard_stock').selectAll().execute();
      const text = JSON.stringify(stored);
      for (const c of [...tens.cards, ...fifties.cards]) {
        assert.ok(!text.includes(c.cardNumber), 'a card number is stored in clear');
        assert.ok(!text.includes(c.pinCode), 'a PIN is stored in clear');
      }
      const all = (await server.admin.call('GET', '/stock')).body.items as any[];
      assert.ok(all.some((l) => l.productId === AMAZON_US));
    });

    test('a file with a code already in stock is refused whole, naming the line', async () => {
      const first = codes(2, 25);
      assert.equal((await importCodes(AMAZON_US, csv(first.rows))).status, 200);
      const before = await stockOf(AMAZON_US);
      const fresh = codes(2, 25);
      const answer = await importCodes(AMAZON_US, csv([fresh.rows[0], first.rows[1], fresh.rows[1]]));
      assert.equal(answer.status, 400);
      assert.equal(answer.body.errorCode, 'INVALID_REQUEST');
      assert.deepEqual(answer.body.details, [
        { field: 'line 3', issue: `cardNumber is already in stock for product ${AMAZON_US}` },
      ]);
      assert.match(answer.body.message, /line 3/);
      assert.deepEqual(await stockOf(AMAZON_US), before, 'nothing of the file was imported');
      // the same card number for another product is another card
      assert.equal((await importCodes(SPOTIFY_US, csv([`${first.cards[0].cardNumber},1,10`]))).status, 200);
    });

    test('a large file goes in whole, and a duplicate deep inside a second one is found by its line', async () => {
      const VANILLA_US = 36840; // FIXED 50/200/250/500 USD
      const big = codes(12_000, 50);
      const first = await importCodes(VANILLA_US, csv(big.rows));
      assert.equal(first.status, 200, first.text.slice(0, 300));
      assert.equal(first.body.imported, 12_000);
      const second = codes(11_000, 50);
      second.rows[10_500] = big.rows[11_999];
      const refused = await importCodes(VANILLA_US, csv(second.rows));
      assert.equal(refused.status, 400);
      assert.deepEqual(refused.body.details, [
        { field: 'line 10502', issue: `cardNumber is already in stock for product ${VANILLA_US}` },
      ]);
      assert.equal((await stockOf(VANILLA_US))[0].available, 12_000);
    });

    test('bad rows are refused with their line numbers, and nothing is imported', async () => {
      const before = await stockOf(AMAZON_US);
      const good = codes(2, 10);
      const answer = await importCodes(
        AMAZON_US,
        csv([
          good.rows[0],
          '5555000011112222,1234,30', // line 3: 30 is not a denomination of 1840
          ',1234,10', // line 4: no card number
          good.rows[0], // line 5: repeats line 2
          '5555000011113333,1234,10,not-a-date', // line 6: one field too many
          '5555000011114444,1234,abc', // line 7
          good.rows[1],
        ]),
      );
      assert.equal(answer.status, 400, answer.text);
      assert.deepEqual(
        answer.body.details.map((d: any) => d.field),
        ['line 3', 'line 4', 'line 5', 'line 6', 'line 7'],
      );
      assert.match(answer.body.details[0].issue, /not one of/);
      assert.match(answer.body.details[2].issue, /repeats line 2/);
      assert.deepEqual(await stockOf(AMAZON_US), before);

      const expired = await importCodes(
        AMAZON_US,
        csv(['5555000011115555,1,10,2020-01-01'], 'cardNumber,pinCode,faceValue,expiresAt'),
      );
      assert.equal(expired.status, 400);
      assert.deepEqual(expired.body.details, [{ field: 'line 2', issue: 'expiresAt 2020-01-01 has passed' }]);
      const header = await importCodes(AMAZON_US, 'number,pin,value\n1,2,10\n');
      assert.equal(header.status, 400);
      assert.equal(header.body.details[0].field, 'line 1');
      assert.equal((await importCodes(99_999_999, csv(good.rows))).status, 404);
      assert.equal((await importCodes(11, csv(good.rows))).status, 404, 'sandbox test products are not live');
    });

    test('a live order of a product routed to its stock gets the imported codes; reports look like a sandbox order', async () => {
      const client = await liveClient();
      const order = (body: Record<string, unknown>) =>
        client.post('/orders', {
          productId: AMAZON_US,
          quantity: 2,
          unitPrice: 100,
          senderName: 'Ada',
          ...body,
        });
      const refused = await order({ customIdentifier: 'stock-unrouted' });
      assert.equal(refused.status, 422, 'not routed: refused as before');
      assert.equal(await balanceOf(client), 10_000);

      const hundreds = codes(3, 100);
      assert.equal((await importCodes(AMAZON_US, csv(hundreds.rows))).status, 200);
      const routed = await route(AMAZON_US, 'stock');
      assert.deepEqual(routed.body, { productId: AMAZON_US, provider: 'stock' });

      const placed = await order({ customIdentifier: 'stock-1' });
      assert.equal(placed.status, 200, placed.text);
      assertTransaction(placed.body);
      assert.equal(placed.body.status, 'SUCCESSFUL');
      assert.equal(placed.body.preOrdered, false);
      assert.equal(placed.body.balanceInfo.oldBalance, 10_000);
      assert.equal(await balanceOf(client), placed.body.balanceInfo.newBalance);
      const cards = await client.get(`/orders/transactions/${placed.body.transactionId}/cards`);
      assert.equal(cards.status, 200);
      // the oldest codes first, their digits exact (the raw JSON numbers)
      assert.equal(
        cards.text,
        JSON.stringify(hundreds.cards.slice(0, 2)).replace(/"(\d+)"/g, (_m, d) => d),
      );
      const report = await client.get('/reports/transactions?customIdentifier=stock-1');
      assert.equal(report.body.length, 1);
      assertTransaction(report.body[0]);
      assert.deepEqual(
        report.body[0],
        (await client.get(`/reports/transactions/${placed.body.transactionId}`)).body,
      );
      const line = (await stockOf(AMAZON_US)).find((l) => l.faceValue === 100);
      assert.deepEqual([line.available, line.sold, line.provider], [1, 2, 'stock']);
      assert.deepEqual(await server.admin.audit(), []);
    });

    test('not enough codes and no pre-order: 422, nothing debited, nothing recorded, no code taken', async () => {
      await route(AMAZON_US, 'stock');
      const client = await liveClient();
      const before = (await stockOf(AMAZON_US)).find((l) => l.faceValue === 200);
      assert.equal(before, undefined, 'no 200 codes yet');
      assert.equal((await importCodes(AMAZON_US, csv(codes(1, 200).rows))).status, 200);
      const answer = await client.post('/orders', {
        productId: AMAZON_US,
        quantity: 2,
        unitPrice: 200,
        senderName: 'Ada',
        customIdentifier: 'stock-exhausted',
      });
      assert.equal(answer.status, 422);
      assert.equal(answer.body.errorCode, 'UNPROCCESSABLE_ENTITY');
      assert.match(answer.body.message, /out of stock/);
      assert.equal(await balanceOf(client), 10_000);
      assert.deepEqual((await client.get('/reports/transactions?customIdentifier=stock-exhausted')).body, []);
      const after = (await stockOf(AMAZON_US)).find((l) => l.faceValue === 200);
      assert.deepEqual([after.available, after.sold], [1, 0]);
      // the one code left still sells, then the stock is empty
      const one = { productId: AMAZON_US, quantity: 1, unitPrice: 200, senderName: 'Ada' };
      assert.equal((await client.post('/orders', one)).body.status, 'SUCCESSFUL');
      assert.equal((await client.post('/orders', one)).status, 422);
      assert.deepEqual(await server.admin.audit(), []);
    });

    test('the draw itself refuses when another order took the codes after the quick check (debit rolled back)', async () => {
      // Two orders of one account for the last code, sent together: one gets it, the other is refused
      // and pays nothing, whichever check catches it.
      await route(AMAZON_US, 'stock');
      assert.equal((await importCodes(AMAZON_US, csv(codes(1, 10).rows))).status, 200);
      const client = await liveClient();
      const available = (await stockOf(AMAZON_US)).find((l) => l.faceValue === 10).available;
      const answers = await Promise.all(
        Array.from({ length: available + 2 }, () =>
          client.post('/orders', { productId: AMAZON_US, quantity: 1, unitPrice: 10, senderName: 'Ada' }),
        ),
      );
      const sold = answers.filter((a) => a.status === 200);
      assert.equal(sold.length, available);
      assert.ok(answers.filter((a) => a.status !== 200).every((a) => a.status === 422));
      const spent = sold.reduce((sum, a) => sum + a.body.amount, 0);
      assert.equal(Math.round((10_000 - (await balanceOf(client))) * 100), Math.round(spent * 100));
      assert.deepEqual(await server.admin.audit(), []);
    });

    test("a burst of live orders of one account: each batch's draws are one statement, every code sold once, the oldest first", async () => {
      await route(AMAZON_US, 'stock');
      const left = (await stockOf(AMAZON_US)).find((l) => l.faceValue === 25) ?? { available: 0, sold: 0 };
      const imported = codes(40, 25);
      assert.equal((await importCodes(AMAZON_US, csv(imported.rows))).status, 200);
      const client = await liveClient();
      const before = server.runtime.services.ledger.batchStats();
      // 24 orders, every fourth of two cards: 30 of the 40 codes
      const answers = await Promise.all(
        Array.from({ length: 24 }, (_, i) =>
          client.post('/orders', {
            productId: AMAZON_US,
            quantity: i % 4 === 3 ? 2 : 1,
            unitPrice: 25,
            senderName: 'Ada',
            customIdentifier: `stock-burst-${i}`,
          }),
        ),
      );
      const after = server.runtime.services.ledger.batchStats();
      assert.ok(after.orders - before.orders > after.batches - before.batches, 'no batch formed');
      assert.equal(after.fallbacks, before.fallbacks, 'a batch drew short and ran its orders alone');
      const sold: string[] = [];
      for (const [i, a] of answers.entries()) {
        assert.equal(a.status, 200, a.text);
        assert.equal(a.body.status, 'SUCCESSFUL');
        const read = await client.get(`/reports/transactions/${a.body.transactionId}`);
        assert.deepEqual(read.body, a.body, 'the stored transaction differs from the answer');
        const cards = await client.get(`/orders/transactions/${a.body.transactionId}/cards`);
        assert.equal(cards.body.length, i % 4 === 3 ? 2 : 1);
        const numbers = cards.body.map((c: { cardNumber: number | string }) => String(c.cardNumber));
        // an order's cards are in the order they were imported (drawn oldest first)
        const places = numbers.map((n: string) => imported.cards.findIndex((c) => c.cardNumber === n));
        assert.deepEqual(
          places,
          [...places].sort((x, y) => x - y),
        );
        sold.push(...numbers);
      }
      // each code to one order, the oldest first: the codes left from before, then the first imported
      assert.equal(new Set(sold).size, 30);
      const firstImported = 30 - left.available;
      for (const [i, c] of imported.cards.entries())
        assert.equal(sold.includes(c.cardNumber), i < firstImported, `imported code ${i}`);
      const line = (await stockOf(AMAZON_US)).find((l) => l.faceValue === 25);
      assert.deepEqual([line.available, line.sold], [left.available + 10, left.sold + 30]);
      const spent = answers.reduce((sum, a) => sum + a.body.amount, 0);
      assert.equal(Math.round((10_000 - (await balanceOf(client))) * 100), Math.round(spent * 100));
      assert.deepEqual(await server.admin.audit(), []);
    });

    test('a batch that draws short runs its orders alone: the first ones filled, then refusals and pre-orders waiting', async () => {
      await route(SPOTIFY_US, 'stock');
      const left = (await stockOf(SPOTIFY_US)).find((l) => l.faceValue === 10) ?? { available: 0, sold: 0 };
      assert.ok(left.available < 21);
      assert.equal((await importCodes(SPOTIFY_US, csv(codes(21 - left.available, 10).rows))).status, 200);
      const client = await liveClient();
      const before = server.runtime.services.ledger.batchStats();
      // 12 orders of two cards for 21 codes (each passes the quick check), every other one a pre-order:
      // 10 are filled; the two left over (whichever arrive last) are refused with nothing debited, or
      // wait as pre-orders, and none takes the code left
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          client.post('/orders', {
            productId: SPOTIFY_US,
            quantity: 2,
            unitPrice: 10,
            senderName: 'Ada',
            preOrder: i % 2 === 1,
            customIdentifier: `stock-short-${i}`,
          }),
        ),
      );
      const after = server.runtime.services.ledger.batchStats();
      // How the 12 requests are batched depends on when the server reads them: a batch that draws
      // short falls back and runs its orders alone. If none did, no batch held more orders than the
      // codes could fill: the 10 filled shared batches at most, and each order left over that reached
      // the ledger ran alone (one that arrived after the codes were gone may be answered by the quick
      // check without reaching it). Either way the answers below.
      const orders = after.orders - before.orders;
      const batches = after.batches - before.batches;
      assert.ok(
        after.fallbacks > before.fallbacks || orders - batches <= 10 - 1,
        `no batch fell back and the orders left over did not run alone: ${JSON.stringify({ before, after })}`,
      );
      const filled = answers.filter((a) => a.status === 200 && a.body.status === 'SUCCESSFUL');
      const waiting = answers.filter((a) => a.status === 200 && a.body.status === 'PENDING');
      const refused = answers.filter((a) => a.status !== 200);
      assert.equal(filled.length, 10);
      assert.equal(waiting.length + refused.length, 2);
      for (const a of waiting) assert.equal(a.body.preOrdered, true);
      for (const a of refused) {
        assert.equal(a.status, 422, a.text);
        assert.match(a.body.message, /out of stock/);
      }
      const line = (await stockOf(SPOTIFY_US)).find((l) => l.faceValue === 10);
      assert.deepEqual([line.available, line.sold, line.preOrdered], [1, left.sold + 20, 2 * waiting.length]);
      const paid = [...filled, ...waiting].reduce((sum, a) => sum + a.body.amount, 0);
      assert.equal(Math.round((10_000 - (await balanceOf(client))) * 100), Math.round(paid * 100));
      // codes for the waiting pre-orders, if any: the worker fills them
      if (waiting.length > 0) {
        assert.equal((await importCodes(SPOTIFY_US, csv(codes(2 * waiting.length, 10).rows))).status, 200);
        await server.runtime.services.worker.runDue();
      }
      for (const a of waiting) {
        const done = await client.get(`/reports/transactions/${a.body.transactionId}`);
        assert.equal(done.body.status, 'SUCCESSFUL');
      }
      assert.deepEqual(await server.admin.audit(), []);
    });

    test('a pre-order waits PENDING and is fulfilled by the worker once an import brings codes', async () => {
      await route(SPOTIFY_US, 'stock');
      const client = await liveClient();
      const placed = await client.post('/orders', {
        productId: SPOTIFY_US,
        quantity: 2,
        unitPrice: 30,
        senderName: 'Ada',
        preOrder: true,
        customIdentifier: 'stock-pre-1',
      });
      assert.equal(placed.status, 200, placed.text);
      assertTransaction(placed.body);
      assert.equal(placed.body.status, 'PENDING');
      assert.equal(placed.body.preOrdered, true);
      const id = placed.body.transactionId;
      assert.equal(
        await balanceOf(client),
        placed.body.balanceInfo.newBalance,
        'a pre-order is paid when accepted',
      );
      assert.equal((await client.get(`/orders/transactions/${id}/cards`)).status, 422);
      const waiting = (await stockOf(SPOTIFY_US)).find((l) => l.faceValue === 30);
      assert.equal(waiting.preOrdered, 2);
      assert.equal(await server.runtime.services.worker.runDue(), 0, 'nothing due before codes arrive');

      // one code is not enough for two cards: still PENDING, the code stays in stock
      assert.equal((await importCodes(SPOTIFY_US, csv(codes(1, 30).rows))).status, 200);
      await server.runtime.services.worker.runDue();
      assert.equal((await client.get(`/reports/transactions/${id}`)).body.status, 'PENDING');
      assert.equal((await stockOf(SPOTIFY_US)).find((l) => l.faceValue === 30).available, 1);

      const more = codes(1, 30);
      assert.equal((await importCodes(SPOTIFY_US, csv(more.rows))).status, 200);
      assert.equal(
        await server.runtime.services.worker.runDue(),
        1,
        'the import brought the pre-order forward',
      );
      const done = await client.get(`/reports/transactions/${id}`);
      assert.equal(done.body.status, 'SUCCESSFUL');
      assertTransaction(done.body);
      const cards = await client.get(`/orders/transactions/${id}/cards`);
      assert.equal(cards.body.length, 2);
      assert.equal(String(cards.body[1].cardNumber), more.cards[0].cardNumber);
      const line = (await stockOf(SPOTIFY_US)).find((l) => l.faceValue === 30);
      assert.deepEqual([line.available, line.sold, line.preOrdered], [0, 2, 0]);
      assert.deepEqual(await server.admin.audit(), []);
    });

    test('a pre-order with codes in stock is served at once; expired codes are never sold', async () => {
      await route(SPOTIFY_US, 'stock');
      const client = await liveClient();
      const soon = new Date(server.clock.now().getTime() + 3_600_000).toISOString();
      const expiring = codes(1, 100);
      const lasting = codes(1, 100);
      assert.equal(
        (
          await importCodes(
            SPOTIFY_US,
            csv(
              [`${expiring.rows[0]},${soon}`, `${lasting.rows[0]},`],
              'cardNumber,pinCode,faceValue,expiresAt',
            ),
          )
        ).status,
        200,
      );
      server.clock.advance(2 * 3_600_000);
      try {
        const line = (await stockOf(SPOTIFY_US)).find((l) => l.faceValue === 100);
        assert.deepEqual([line.available, line.expired], [1, 1]);
        const placed = await client.post('/orders', {
          productId: SPOTIFY_US,
          quantity: 1,
          unitPrice: 100,
          senderName: 'Ada',
          preOrder: true,
        });
        assert.equal(placed.body.status, 'SUCCESSFUL');
        assert.equal(placed.body.preOrdered, true);
        const cards = await client.get(`/orders/transactions/${placed.body.transactionId}/cards`);
        assert.equal(String(cards.body[0].cardNumber), lasting.cards[0].cardNumber);
        const again = await client.post('/orders', {
          productId: SPOTIFY_US,
          quantity: 1,
          unitPrice: 100,
          senderName: 'A',
        });
        assert.equal(again.status, 422, 'the expired code is not sold');
      } finally {
        server.clock.advance(-2 * 3_600_000);
      }
    });

    test('codes held by an order still in its transaction: the order waits for it, then is served or refused', {
      skip: database === 'pglite' && 'one connection: no other transaction can hold codes',
    }, async () => {
      await route(AMAZON_US, 'stock');
      const client = await liveClient();
      const order = () =>
        client.post('/orders', { productId: AMAZON_US, quantity: 1, unitPrice: 200, senderName: 'Ada' });
      const left = (await stockOf(AMAZON_US)).find((l) => l.faceValue === 200)?.available ?? 0;
      assert.equal((await importCodes(AMAZON_US, csv(codes(1, 200).rows))).status, 200);
      // another transaction takes every 200 code as a drawing order would, and keeps them `ms` (its
      // connection stays out of the pool until its ROLLBACK)
      const hold = async (ms: number) => {
        let taken!: () => void;
        const held = new Promise<void>((resolve) => {
          taken = resolve;
        });
        const released = server.db.kysely.connection().execute(async (conn) => {
          await sql`BEGIN`.execute(conn);
          const drawn = await sql`
            UPDATE giftcard_stock SET transaction_id = -1, sold_at = now()
            WHERE product_id = ${AMAZON_US} AND face_value = 200 AND transaction_id IS NULL`.execute(conn);
          assert.equal(Number(drawn.numAffectedRows), left + 1, 'every 200 code held');
          taken();
          await new Promise((resolve) => setTimeout(resolve, ms));
          await sql`ROLLBACK`.execute(conn);
        });
        await Promise.race([held, released]);
        return { released };
      };
      // given back 100 ms after the order was sent (its debit refused, say): the order gets a code
      const givenBack = await hold(100);
      const [served] = await Promise.all([order(), givenBack.released]);
      assert.equal(served.status, 200, served.text);
      assert.equal(served.body.status, 'SUCCESSFUL');
      // held longer than the order waits: out of stock, nothing debited
      assert.equal((await importCodes(AMAZON_US, csv(codes(1, 200).rows))).status, 200);
      const balance = await balanceOf(client);
      const keptLong = await hold(1_500);
      const [refused] = await Promise.all([order(), keptLong.released]);
      assert.equal(refused.status, 422, refused.text);
      assert.match(refused.body.message, /out of stock/);
      assert.equal(await balanceOf(client), balance);
      assert.deepEqual(await server.admin.audit(), []);
    });

    test('upstream and default routes refuse live orders with nothing debited (no upstream exists yet)', async () => {
      const client = await liveClient();
      assert.equal((await importCodes(AMAZON_US, csv(codes(1, 50).rows))).status, 200);
      for (const provider of ['upstream', 'default']) {
        assert.deepEqual((await route(AMAZON_US, provider)).body, { productId: AMAZON_US, provider });
        const answer = await client.post('/orders', {
          productId: AMAZON_US,
          quantity: 1,
          unitPrice: 50,
          senderName: 'A',
        });
        assert.equal(answer.status, 422);
        assert.equal(answer.body.errorCode, 'UNPROCCESSABLE_ENTITY');
        assert.equal(await balanceOf(client), 10_000);
        assert.equal((await stockOf(AMAZON_US))[0].provider, provider);
      }
      assert.equal((await route(99_999_999, 'stock')).status, 404);
      assert.equal((await route(AMAZON_US, 'elsewhere')).status, 400);
      // the sandbox is not routed: its simulator serves 1840 as always
      const sandbox = await server.caller('giftcards');
      const order = await sandbox.post('/orders', {
        productId: AMAZON_US,
        quantity: 1,
        unitPrice: 50,
        senderName: 'A',
      });
      assert.equal(order.body.status, 'SUCCESSFUL');
      assert.deepEqual(await server.admin.audit(), []);
    });

    test('the airgift command: stock import, stock show, products provider', async (t) => {
      const dir = await mkdtemp(join(tmpdir(), 'airgift-stock-cli-'));
      t.after(() => rm(dir, { recursive: true, force: true }));
      const caFile = join(dir, 'ca.pem');
      await writeFile(caFile, caPem());
      const airgift = airgiftCli(server.url, { caFile });
      const file = join(dir, 'codes.csv');
      await writeFile(file, csv(codes(2, 15).rows));
      const imported = JSON.parse(
        (await airgift('stock', 'import', '--product', '126840', '--file', file, '--json')).stdout,
      );
      assert.equal(imported.imported, 2);
      const shown = JSON.parse((await airgift('stock', 'show', '--product', '126840', '--json')).stdout);
      assert.deepEqual(
        shown.items.map((l: any) => [l.productId, l.faceValue, l.available]),
        [[126840, 15, 2]],
      );
      const routed = JSON.parse((await airgift('products', 'provider', '126840', 'stock', '--json')).stdout);
      assert.deepEqual(routed, { productId: 126840, provider: 'stock' });
      // the same file again: refused, its line named, exit 1
      const again = await airgift('stock', 'import', '--product', '126840', '--file', file, '--json').catch(
        (e) => e,
      );
      assert.equal(again.code, 1);
      assert.equal(JSON.parse(again.stdout).details[0].field, 'line 2');
      assert.match(again.stderr, /line 2/);
      const bad = await airgift('products', 'provider', '126840', 'nowhere').catch((e) => e);
      assert.equal(bad.code, 1);
    });
  });
}
