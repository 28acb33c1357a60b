/**
 * Delivery at sale scale: a burst of live gift card orders, each with a `recipientEmail`, all e-mailed
 * through an SMTP server on loopback (nodemailer's smtp-server, as a mail relay would accept them).
 * On PostgreSQL (PGlite when it is not reachable), Amazon US sold from the server's own stock, 64
 * clients. Three turns on one server: the same burst without recipients (the order path alone), with
 * recipients (the outbox drains while orders arrive), without again. Figures: the time from the first
 * order of the burst to the last e-mail accepted (goal: 10,000 within 60 s), and the order rate with
 * the outbox draining against the mean of the turns without (goal: unchanged, ≥ 0.9×). Every order
 * must be answered 200, every e-mail arrive once (distinct Message-IDs) to its order's recipient.
 *
 *   npm run bench -- delivery [--smoke]        (or: tsx bench/delivery.ts)
 *   BENCH_DELIVERY_ORDERS=10000: the burst (a smoke run: 100)
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import {
  admin,
  type BenchOptions,
  benchOptions,
  drive,
  type Figure,
  isMain,
  postgresAvailable,
  printFigures,
  type RunningServer,
  sleep,
  startAirgift,
  tokenFor,
} from './lib.ts';

const AMAZON_US = 1840;
const CLIENTS = 64;
const runTag = Math.random().toString(36).slice(2, 8);
/** Card numbers are digits: a run's own 8-digit prefix, then the card's index. */
const cardPrefix = String(10_000_000 + Math.floor(Math.random() * 89_999_999));

/** An SMTP server that accepts everything and counts it: each message's Message-ID and recipient. */
async function startMailSink() {
  const messageIds = new Set<string>();
  let accepted = 0;
  let duplicates = 0;
  let lastAt = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    size: 1024 * 1024,
    onData(stream, _session, callback) {
      let head = '';
      stream.on('data', (chunk: Buffer) => {
        if (head.length < 16_384) head += chunk.toString('latin1');
      });
      stream.on('end', () => {
        const id = /^Message-ID:\s*(<[^>]+>)/im.exec(head)?.[1] ?? `none-${accepted}`;
        if (messageIds.has(id)) duplicates++;
        messageIds.add(id);
        accepted++;
        lastAt = performance.now();
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    stats: () => ({ accepted, distinct: messageIds.size, duplicates, lastAt }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** `n` Amazon US cards of 25 USD with fresh numbers into the server's stock, in chunks of 5,000. */
async function importStock(server: RunningServer, n: number) {
  for (let done = 0; done < n; done += 5_000) {
    const count = Math.min(5_000, n - done);
    const lines = Array.from({ length: count }, (_, i) => {
      const serial = `${cardPrefix}${String(done + i).padStart(8, '0')}`;
      return `${serial},${String(100_000 + ((done + i) % 900_000))},25`;
    });
    const answer = await admin<{ imported: number }>(server, 'POST', `/products/${AMAZON_US}/stock`, {
      csv: `cardNumber,pinCode,faceValue\n${lines.join('\n')}\n`,
    });
    if (answer.imported !== count) throw new Error(`stock import: ${JSON.stringify(answer).slice(0, 500)}`);
  }
}

let sequence = 0;

/** `orders` live orders by 64 clients; with `recipients`, each to its own address. */
async function burst(server: RunningServer, token: string, orders: number, recipients: boolean) {
  let refused = 0;
  let firstRefusal = '';
  const load = await drive(`${server.url}/giftcards/orders`, {
    ca: server.ca,
    total: orders,
    concurrency: CLIENTS,
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: () => {
      const n = ++sequence;
      return JSON.stringify({
        productId: AMAZON_US,
        quantity: 1,
        unitPrice: 25,
        senderName: 'Bench',
        customIdentifier: `delivery-${runTag}-${n}`,
        ...(recipients && { recipientEmail: `recipient-${n}@example.com` }),
      });
    },
    onAnswer: (status, text) => {
      if (status === 200) return;
      refused++;
      firstRefusal ||= `${status} ${text.slice(0, 300)}`;
    },
  });
  if (refused)
    throw new Error(`${refused} of ${orders} orders were not answered 200; the first: ${firstRefusal}`);
  return load;
}

export async function run(o: BenchOptions): Promise<Figure[]> {
  const orders = o.smoke ? 100 : Number(process.env.BENCH_DELIVERY_ORDERS ?? 10_000);
  const database = (await postgresAvailable()) ? 'postgres' : 'pglite';
  const sink = await startMailSink();
  const server = await startAirgift({
    database,
    env: { SMTP_URL: sink.url, SMTP_FROM: 'Gifts <gifts@airgift.test>' },
  });
  try {
    await admin(server, 'PUT', `/products/${AMAZON_US}/provider`, { provider: 'stock' });
    const warmUp = Math.min(orders, 500);
    await importStock(server, warmUp + orders * 3);
    const account = await admin<{ clientId: string; clientSecret: string }>(server, 'POST', '/accounts', {
      name: `delivery bench ${runTag}`,
      currency: 'USD',
      country: 'US',
      environment: 'live',
      fund: String((warmUp + orders * 3) * 30),
    });
    const token = await tokenFor(server, '/giftcards', account);
    await burst(server, token, warmUp, false); // warm-up (JIT, connections)

    const before = await burst(server, token, orders, false);
    const started = performance.now();
    const during = await burst(server, token, orders, true);
    const deadline = started + 300_000;
    while (sink.stats().accepted < orders && performance.now() < deadline) await sleep(100);
    const mail = sink.stats();
    const drainedS = ((mail.lastAt || performance.now()) - started) / 1000;
    const after = await burst(server, token, orders, false);

    // the order path alone: the mean of the turns before and after the burst with recipients
    const ratio = during.rps / ((before.rps + after.rps) / 2);
    const complete = mail.accepted === orders && mail.distinct === orders && mail.duplicates === 0;
    const label = database === 'postgres' ? 'PostgreSQL' : 'PGlite';
    return [
      {
        figure: `${orders} live orders with recipientEmail, all e-mailed (${label})`,
        value: `last e-mail accepted ${drainedS.toFixed(1)} s after the first order (${(mail.accepted / drainedS).toFixed(0)} e-mails/s); ${mail.accepted} accepted, ${mail.distinct} distinct, ${mail.duplicates} twice`,
        baseline: `the burst's orders took ${(during.requests / during.rps).toFixed(1)} s`,
        goal: '10,000 within 60 s, each once',
        met: o.smoke ? undefined : complete && drainedS <= 60 * (orders / 10_000),
      },
      {
        figure: `order rate while the outbox drains (${label}, ${CLIENTS} clients)`,
        value: `${during.rps.toFixed(0)} orders/s p99 ${during.p99.toFixed(1)} ms`,
        baseline: `without recipients ${before.rps.toFixed(0)} and ${after.rps.toFixed(0)} orders/s (before, after)`,
        ratio,
        goal: '≥ 0.9× (unchanged)',
        met: o.smoke ? undefined : ratio >= 0.9,
      },
    ];
  } finally {
    await server.stop();
    await sink.close();
  }
}

if (isMain(import.meta.url)) printFigures('delivery at sale scale', await run(benchOptions()));
