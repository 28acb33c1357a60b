/**
 * Benchmark: GET /accounts/balance through the whole stack (TLS, base routing, token check with its
 * credential lookup, balance read) against a bare node:https server answering the same bytes.
 * Both servers run in their own processes; this process generates the load.
 *
 *   npm run bench:balance -- [--requests 5000] [--concurrency 32]
 *
 * Embedded PGlite by default; set DATABASE_URL to measure on PostgreSQL.
 */
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';
import { drive, report, startAirgift, startBaseline, tokenFor } from './lib.ts';

const { values } = parseArgs({
  options: { requests: { type: 'string', default: '5000' }, concurrency: { type: 'string', default: '32' } },
});
const total = Number(values.requests);
const concurrency = Number(values.concurrency);

const airgift = await startAirgift();
try {
  const token = await tokenFor(airgift, '/giftcards-sandbox');
  const url = `${airgift.url}/giftcards-sandbox/accounts/balance`;
  const headers = { authorization: `Bearer ${token}`, accept: 'application/json' };
  const sample = await drive(url, { ca: airgift.ca, total: 1, concurrency: 1, headers });
  if (sample.failures) throw new Error('the balance call fails');
  const body = await (
    await request(url, { headers, dispatcher: new Agent({ connect: { ca: airgift.ca } }) })
  ).body.text();
  const baseline = await startBaseline(airgift.dataDir, body);
  try {
    await drive(url, { ca: airgift.ca, total: Math.min(1000, total), concurrency, headers }); // warm-up
    const a = await drive(url, { ca: airgift.ca, total, concurrency, headers });
    const b = await drive(`${baseline.url}/giftcards-sandbox/accounts/balance`, {
      ca: airgift.ca,
      total,
      concurrency,
      headers,
    });
    console.log(
      `GET /giftcards-sandbox/accounts/balance, ${total} requests, concurrency ${concurrency}, ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}`,
    );
    console.log(report('airgift', a));
    console.log(report('bare node:https', b));
    console.log(`ratio airgift / bare: ${(a.rps / b.rps).toFixed(2)}`);
  } finally {
    await baseline.stop();
  }
} finally {
  await airgift.stop();
}
