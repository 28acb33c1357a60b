// The floor of an order on this machine (bench/floor.ts): a bare node:https server, no framework,
// that does only what any order server must: read the POST, parse its JSON, and answer a JSON
// document the size of a top-up's. FLOOR_MODE=answer answers at once; FLOOR_MODE=commit first debits
// one balance row and inserts the orders' rows in PostgreSQL (FLOOR_DATABASE_URL), the orders
// waiting meanwhile sharing a transaction (two in flight, as airgift's group commit), so the row
// lock is taken once per batch. No auth, no validation, no ledger, no log: what is left is the cost
// of HTTPS, HTTP, JSON and the pg protocol in Node.js, which no airgift change can go below.
import { readFileSync } from 'node:fs';
import https from 'node:https';
import pg from 'pg';

const mode = process.env.FLOOR_MODE ?? 'answer';
const clients =
  mode === 'commit'
    ? await Promise.all(
        [0, 1].map(async () => {
          const c = new pg.Client({ connectionString: process.env.FLOOR_DATABASE_URL });
          await c.connect();
          return c;
        }),
      )
    : [];
const idle = [...clients];
let pending = [];
let nextId = 1;
let batches = 0;
let batched = 0;

function answer(res, order, id, balance) {
  const body = JSON.stringify({
    transactionId: id,
    status: 'SUCCESSFUL',
    operatorTransactionId: null,
    customIdentifier: order.customIdentifier ?? null,
    recipientPhone: order.recipientPhone?.number ?? null,
    recipientEmail: null,
    senderPhone: null,
    countryCode: 'NG',
    operatorId: order.operatorId ?? 0,
    operatorName: 'MTN Nigeria',
    discount: 0.12,
    discountCurrencyCode: 'USD',
    requestedAmount: order.amount ?? 0,
    requestedAmountCurrencyCode: 'USD',
    deliveredAmount: 4150.5,
    deliveredAmountCurrencyCode: 'NGN',
    transactionDate: new Date().toISOString().replace('T', ' ').slice(0, 19),
    pinDetail: null,
    balanceInfo: {
      oldBalance: balance + 10,
      newBalance: balance,
      cost: 10,
      currencyCode: 'USD',
      currencyName: 'US Dollar',
      updatedAt: new Date().toISOString().replace('T', ' ').slice(0, 19),
    },
  });
  res.writeHead(200, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}

async function runBatch(client) {
  if (!pending.length) {
    idle.push(client);
    return;
  }
  const batch = pending;
  pending = [];
  batches++;
  batched += batch.length;
  try {
    await client.query('BEGIN');
    const total = batch.length * 10;
    const { rows } = await client.query(
      'UPDATE floor_balance SET balance = balance - $1 WHERE id = 1 RETURNING balance',
      [total],
    );
    const ids = await client.query(
      'INSERT INTO floor_orders (custom_identifier, amount) SELECT * FROM unnest($1::text[], $2::numeric[]) RETURNING id',
      [batch.map((b) => String(b.order.customIdentifier)), batch.map(() => '10')],
    );
    await client.query('COMMIT');
    const balance = Number(rows[0].balance);
    for (const [i, b] of batch.entries()) answer(b.res, b.order, Number(ids.rows[i].id), balance);
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    for (const b of batch) {
      b.res.writeHead(503);
      b.res.end(String(error.message));
    }
  }
  if (pending.length) runBatch(client);
  else idle.push(client);
}

const server = https.createServer(
  { key: readFileSync(process.env.KEY), cert: readFileSync(process.env.CERT) },
  (req, res) => {
    if (req.method === 'GET') {
      // bench/floor.ts reads the committing floor's batch size around its run
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ batches, orders: batched }));
      return;
    }
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      let order;
      try {
        order = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        res.writeHead(400);
        res.end('{}');
        return;
      }
      if (mode !== 'commit') return answer(res, order, nextId++, 1000);
      pending.push({ order, res });
      const client = idle.pop();
      // Batches start on the next turn, so the requests read in the same turn share one.
      if (client) setImmediate(() => runBatch(client));
    });
  },
);
server.listen(0, '127.0.0.1', () => console.log(`floor on ${server.address().port}`));
process.on('SIGTERM', () => {
  server.close();
  for (const c of clients) c.end();
  setTimeout(() => process.exit(0), 200).unref();
});
setTimeout(() => process.exit(0), 3_600_000).unref();
