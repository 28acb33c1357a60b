import { request } from 'node:https';
import { assertOutsideTransaction } from '../../db/connection-guard.ts';
import { guardedLookup } from './target-guard.ts';

/**
 * One POST of a webhook: HTTPS only, at most `timeoutMs` (10 s) from the start to the end of the
 * answer, redirects never followed (a 3xx is a failed attempt), the address checked at connection
 * time (target-guard.ts), the answer's body read up to 4 KiB and dropped. Never throws: a failure is
 * an outcome with no status code and an error text.
 *
 * @example
 * const send = webhookSender({ timeoutMs: 10_000, allowPrivate: false });
 * await send('https://hooks.example.com/x', headers, body); // { statusCode: 204, latencyMs: 83, error: null }
 */
export interface SendOutcome {
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
}

export function webhookSender(options: { timeoutMs: number; allowPrivate: boolean; ca?: string }) {
  const lookup = guardedLookup(options.allowPrivate);
  return (url: string, headers: Record<string, string>, body: string): Promise<SendOutcome> => {
    assertOutsideTransaction('a webhook delivery');
    const started = performance.now();
    const latency = () => Math.round(performance.now() - started);
    return new Promise((resolve) => {
      let settled = false;
      const done = (outcome: Omit<SendOutcome, 'latencyMs'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ ...outcome, latencyMs: latency() });
      };
      const req = request(url, {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'airgift-webhooks/1',
        },
        lookup: lookup as never,
        agent: false,
        ...(options.ca ? { ca: options.ca } : {}),
      });
      const timer = setTimeout(() => {
        done({ statusCode: null, error: `no answer within ${options.timeoutMs} ms` });
        req.destroy();
      }, options.timeoutMs);
      req.on('response', (res) => {
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > 4096) res.destroy();
        });
        const finish = () => {
          const code = res.statusCode ?? 0;
          done({ statusCode: code, error: code >= 200 && code < 300 ? null : `answered ${code}` });
        };
        res.on('end', finish);
        res.on('close', finish);
        res.on('error', finish);
      });
      req.on('error', (error) => done({ statusCode: null, error: error.message }));
      req.end(body);
    });
  };
}

export type WebhookSender = ReturnType<typeof webhookSender>;
