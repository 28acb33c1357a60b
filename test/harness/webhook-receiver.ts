import type { IncomingHttpHeaders } from 'node:http';
import { createServer, type Server } from 'node:https';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { loadTls } from '../../src/http/tls.ts';
import { CACHE_DIR } from './templates.ts';

/**
 * A real HTTPS webhook receiver for tests, on loopback with a certificate of the harness's
 * development CA (servers trust it through WEBHOOKS_CA_FILE = `caFile`). It answers as told: `accept`
 * (204), `fail` (500), or `down` (not listening at all: connections refused), and keeps every request
 * it saw with the time it was seen (`now`: the server's injected clock, so signatures can be checked
 * at the time they were made).
 *
 * @example
 * const receiver = await startWebhookReceiver();
 * receiver.mode = 'fail';
 * await receiver.setDown(true);
 * receiver.verified(secret); // the requests whose Standard Webhooks signature verifies
 */
export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
  answered: number;
}

export async function startWebhookReceiver(options: { now?: () => number } = {}) {
  const now = options.now ?? (() => Date.now());
  const tls = await loadTls({ dataDir: CACHE_DIR, hosts: ['localhost'] });
  const received: ReceivedWebhook[] = [];
  const state = { mode: 'accept' as 'accept' | 'fail' };
  const server: Server = createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const answered = state.mode === 'accept' ? 204 : 500;
      received.push({
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: now(),
        answered,
      });
      res.writeHead(answered).end();
    });
  });
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve((server.address() as { port: number }).port);
      });
    });
  const port = await listen(0);
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  let down = false;
  return {
    url: `https://localhost:${port}/hooks/airgift`,
    caFile: join(CACHE_DIR, 'tls', 'ca.crt'),
    received,
    get mode() {
      return state.mode;
    },
    set mode(mode: 'accept' | 'fail') {
      state.mode = mode;
    },
    /** Stops listening (connections refused) or listens again on the same port. */
    async setDown(value: boolean) {
      if (value === down) return;
      down = value;
      if (value) await close();
      else await listen(port);
    },
    /** The accepted requests whose signature the standardwebhooks package verifies, parsed. */
    verified(secret: string) {
      const wh = new Webhook(secret);
      const realNow = Date.now;
      return received
        .filter((r) => r.answered === 204)
        .map((r) => {
          // the verifier's tolerance check runs at the time the request arrived (the server's clock)
          Date.now = () => r.at;
          try {
            return { ok: true, payload: wh.verify(r.body, r.headers as Record<string, string>) as any, r };
          } catch {
            return { ok: false, payload: null, r };
          } finally {
            Date.now = realNow;
          }
        });
    },
    close: () => (down ? Promise.resolve() : close()),
  };
}

export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;
