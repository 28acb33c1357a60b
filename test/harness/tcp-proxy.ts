import { createConnection, createServer, type Server, type Socket } from 'node:net';

/**
 * A real loopback TCP proxy to put between two servers, to break the line between them on purpose:
 * it forwards bytes both ways (TLS passes through untouched, end to end), and can `stall` (hold
 * every byte from now on, as a hung peer does), `resume`, or `cut` every connection (a reset). Its
 * port is known before its target, so a server can be started with a public URL on the proxy.
 * `stall('responses')` lets requests through and holds only the answers (the peer did the work, the
 * caller never hears of it). `loseAnswersAfter(marker)`: the first client chunk that holds `marker`
 * (say `COMMIT`) reaches the target, but no answer comes back on that connection, which is reset a
 * moment later (the target did the work; its answer was lost on the way).
 *
 * @example
 * const proxy = await startTcpProxy();
 * proxy.setTarget(upstreamPort);
 * proxy.stall();   // nothing reaches anybody until resume() (held bytes are dropped)
 * proxy.cut();     // every open connection is destroyed
 */
export interface TcpProxy {
  port: number;
  setTarget(port: number): void;
  stall(direction?: 'both' | 'responses'): void;
  resume(): void;
  cut(): void;
  loseAnswersAfter(marker: string, resetAfterMs?: number): void;
  /** Bytes sent from clients to the target so far (what reached it). */
  bytesToTarget(): number;
  close(): Promise<void>;
}

export async function startTcpProxy(): Promise<TcpProxy> {
  let target = 0;
  let stalled = false;
  let responsesStalled = false;
  let bytes = 0;
  let loseAfter: { marker: Buffer; resetAfterMs: number } | null = null;
  const pairs = new Set<{ client: Socket; upstream: Socket; held: Buffer[]; losing: boolean }>();
  const server: Server = createServer((client) => {
    const upstream = createConnection({ host: '127.0.0.1', port: target });
    const pair = { client, upstream, held: [] as Buffer[], losing: false };
    pairs.add(pair);
    const end = () => {
      client.destroy();
      upstream.destroy();
      pairs.delete(pair);
    };
    client.on('data', (chunk) => {
      if (stalled) {
        pair.held.push(chunk);
        return;
      }
      bytes += chunk.length;
      upstream.write(chunk);
      if (loseAfter && chunk.includes(loseAfter.marker)) {
        pair.losing = true;
        setTimeout(() => client.resetAndDestroy(), loseAfter.resetAfterMs);
        loseAfter = null;
      }
    });
    upstream.on('data', (chunk) => {
      if (!stalled && !responsesStalled && !pair.losing) client.write(chunk);
    });
    client.on('error', end);
    upstream.on('error', end);
    client.on('close', end);
    upstream.on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    setTarget(p) {
      target = p;
    },
    stall(direction = 'both') {
      if (direction === 'both') stalled = true;
      responsesStalled = true;
    },
    resume() {
      stalled = false;
      responsesStalled = false;
    },
    loseAnswersAfter(marker, resetAfterMs = 300) {
      loseAfter = { marker: Buffer.from(marker), resetAfterMs };
    },
    cut() {
      for (const p of pairs) {
        p.client.resetAndDestroy();
        p.upstream.destroy();
      }
      pairs.clear();
    },
    bytesToTarget: () => bytes,
    async close() {
      for (const p of pairs) {
        p.client.destroy();
        p.upstream.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
