/**
 * Soak: the server as `npm start` runs it under steady mixed load (catalog reads, gift card orders,
 * top-ups, token requests) at a fixed rate for a long time, sampling its resident memory and event-loop
 * lag (from `GET /metrics`) every few seconds. Passes when RSS and lag stayed flat, no request failed,
 * and the ledger audit is empty at the end.
 *
 *   npm run bench -- soak [--smoke] [--duration=600] [--rate=40] [--postgres]
 *   (or: tsx bench/soak.ts --duration=120)
 *
 * Defaults: 10 minutes at 40 requests/s (about half of what this 2-core machine served in the
 * `orders` benchmark's mixed runs); `--smoke`: 6 s.
 */
import { Agent, request } from 'undici';
import {
  admin,
  type BenchOptions,
  benchOptions,
  type Figure,
  isMain,
  printFigures,
  rssMb,
  sleep,
  startAirgift,
  tokenFor,
} from './lib.ts';

function numberArg(name: string, fallback: number): number {
  const given = process.argv.find((a) => a.startsWith(`--${name}=`));
  const n = given ? Number(given.slice(name.length + 3)) : fallback;
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number`);
  return n;
}

interface Sample {
  at: number;
  rssMb: number;
  lagP99Ms: number;
  lagMaxMs: number;
  done: number;
  errors: number;
}

export async function run(o: BenchOptions): Promise<Figure[]> {
  const seconds = o.smoke ? 6 : numberArg('duration', 600);
  const rate = numberArg('rate', 40);
  const sampleEveryMs = o.smoke ? 1500 : 10_000;
  const server = await startAirgift({
    database: process.argv.includes('--postgres') ? 'postgres' : 'pglite',
  });
  const dispatcher = new Agent({ connect: { ca: server.ca }, connections: 32 });
  try {
    await admin(server, 'POST', `/accounts/${server.credentials.accountId}/fund`, {
      environment: 'sandbox',
      amount: 10_000_000,
      reason: 'soak',
    });
    const tokens = {
      giftcards: await tokenFor(server, '/giftcards-sandbox'),
      topups: await tokenFor(server, '/topups-sandbox'),
    };
    let phone = 0;
    const json = (kind: 'giftcards' | 'topups') => ({
      authorization: `Bearer ${tokens[kind]}`,
      accept: 'application/json',
      'content-type': 'application/json',
    });
    // The mix: [weight, what, request]
    const mix: [
      number,
      string,
      () => { path: string; method: 'GET' | 'POST'; headers: Record<string, string>; body?: string },
    ][] = [
      [
        30,
        'catalog',
        () => ({ method: 'GET', path: '/giftcards-sandbox/products?size=20', headers: json('giftcards') }),
      ],
      [
        15,
        'operators',
        () => ({ method: 'GET', path: '/topups-sandbox/operators/1001', headers: json('topups') }),
      ],
      [
        20,
        'order',
        () => ({
          method: 'POST',
          path: '/giftcards-sandbox/orders',
          headers: json('giftcards'),
          body: JSON.stringify({ productId: 11, quantity: 1, unitPrice: 10, senderName: 'Soak' }),
        }),
      ],
      [
        15,
        'topup',
        () => ({
          method: 'POST',
          path: '/topups-sandbox/topups',
          headers: json('topups'),
          body: JSON.stringify({
            operatorId: 1001,
            amount: 10,
            recipientPhone: {
              countryCode: 'NG',
              number: `0803${String(10_000_000 + (++phone % 9_000_000)).slice(1)}`,
            },
          }),
        }),
      ],
      [
        20,
        'token',
        () => ({
          method: 'POST',
          path: '/auth/oauth/token',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({
            client_id: server.credentials.clientId,
            client_secret: server.credentials.clientSecret,
            grant_type: 'client_credentials',
            audience: `${server.publicUrl}/giftcards-sandbox`,
          }),
        }),
      ],
    ];
    const total = mix.reduce((s, [w]) => s + w, 0);
    const pick = () => {
      let r = Math.random() * total;
      for (const m of mix) {
        r -= m[0];
        if (r <= 0) return m;
      }
      return mix[0] as (typeof mix)[number];
    };
    let done = 0;
    let errors = 0;
    const failures = new Map<string, number>();
    let inFlight = 0;
    const fire = async () => {
      const [, what, make] = pick();
      const r = make();
      inFlight++;
      try {
        const res = await request(`${server.url}${r.path}`, {
          method: r.method,
          headers: r.headers,
          body: r.body,
          dispatcher,
        });
        await res.body.text();
        if (res.statusCode !== 200) {
          errors++;
          const key = `${what} ${res.statusCode}`;
          failures.set(key, (failures.get(key) ?? 0) + 1);
        }
      } catch (error) {
        errors++;
        const key = `${what} ${(error as Error).message}`;
        failures.set(key, (failures.get(key) ?? 0) + 1);
      } finally {
        inFlight--;
        done++;
      }
    };
    const samples: Sample[] = [];
    const metrics = async () => {
      const res = await request(`${server.url}/admin/metrics`, {
        headers: { authorization: `Bearer ${server.adminKey}` },
        dispatcher,
      });
      const text = await res.body.text();
      const series = (name: string) =>
        Number(new RegExp(`^${name.replace(/[{}"=.]/g, '\\$&')} (\\S+)$`, 'm').exec(text)?.[1] ?? Number.NaN);
      return {
        lagP99Ms: series('airgift_event_loop_lag_seconds{quantile="0.99"}') * 1000,
        lagMaxMs: series('airgift_event_loop_lag_seconds{quantile="1"}') * 1000,
      };
    };
    const started = Date.now();
    await metrics(); // resets the lag window
    let nextSample = started + sampleEveryMs;
    const intervalMs = 1000 / rate;
    let sent = 0;
    console.log(`soak: ${seconds} s at ${rate} requests/s, sampling every ${sampleEveryMs / 1000} s`);
    console.log('   t(s)   RSS(MB)  lag p99(ms)  lag max(ms)  requests  errors');
    while (Date.now() - started < seconds * 1000) {
      // Open loop: requests are sent on schedule whether or not earlier ones finished (bounded).
      const due = Math.floor((Date.now() - started) / intervalMs);
      while (sent < due && inFlight < 500) {
        sent++;
        void fire();
      }
      if (Date.now() >= nextSample) {
        nextSample += sampleEveryMs;
        const m = await metrics();
        const s = { at: (Date.now() - started) / 1000, rssMb: await rssMb(server.pid), ...m, done, errors };
        samples.push(s);
        console.log(
          `${s.at.toFixed(0).padStart(7)} ${s.rssMb.toFixed(1).padStart(9)} ${s.lagP99Ms.toFixed(1).padStart(12)} ${s.lagMaxMs.toFixed(1).padStart(12)} ${String(s.done).padStart(9)} ${String(s.errors).padStart(7)}`,
        );
      }
      await sleep(Math.max(1, Math.min(intervalMs, 20)));
    }
    while (inFlight > 0) await sleep(20);
    const audit = await admin<{ discrepancies: unknown[] }>(server, 'GET', '/ledger/audit');
    // Flat: after the first quarter (warm-up), the last quarter's mean is within 15% (RSS) of the
    // second quarter's, and the lag's p99 within 2x + 5 ms.
    const q = Math.max(1, Math.floor(samples.length / 4));
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
    const early = samples.slice(q, 2 * q);
    const late = samples.slice(-q);
    const rssEarly = mean(early.map((s) => s.rssMb));
    const rssLate = mean(late.map((s) => s.rssMb));
    const lagEarly = mean(early.map((s) => s.lagP99Ms));
    const lagLate = mean(late.map((s) => s.lagP99Ms));
    const rssFlat = rssLate <= rssEarly * 1.15;
    const lagFlat = lagLate <= lagEarly * 2 + 5;
    if (failures.size) console.log('failures:', Object.fromEntries(failures));
    const elapsed = (Date.now() - started) / 1000;
    return [
      {
        figure: 'soak requests',
        value: `${done} in ${elapsed.toFixed(0)} s (${(done / elapsed).toFixed(1)}/s)`,
        goal: `${rate}/s`,
      },
      { figure: 'soak errors', value: String(errors), goal: '0', met: errors === 0 },
      {
        figure: 'soak RSS, second quarter -> last quarter',
        value: `${rssEarly.toFixed(1)} -> ${rssLate.toFixed(1)} MB (max ${Math.max(...samples.map((s) => s.rssMb)).toFixed(1)})`,
        goal: 'flat (within 15%)',
        met: o.smoke ? undefined : rssFlat,
      },
      {
        figure: 'soak event-loop lag p99, second quarter -> last quarter',
        value: `${lagEarly.toFixed(1)} -> ${lagLate.toFixed(1)} ms (max ${Math.max(...samples.map((s) => s.lagMaxMs)).toFixed(1)})`,
        goal: 'flat',
        met: o.smoke ? undefined : lagFlat,
      },
      {
        figure: 'soak ledger audit',
        value: `${audit.discrepancies.length} discrepancies`,
        goal: 'empty',
        met: audit.discrepancies.length === 0,
      },
    ];
  } finally {
    await dispatcher.close();
    await server.stop();
  }
}

if (isMain(import.meta.url)) printFigures('soak', await run(benchOptions()));
