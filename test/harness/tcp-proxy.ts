import { createConnection, createServer, type Server, type Socket } from 'node:net';

/**
 * A real loopback TCP proxy to put between two servers, to break the line between them on purpose:
 * it forwards bytes both ways (TLS passes through untouched, end to end), and can `stall` (hold
 * every byte from now on, as a hung peer does), `resume`, or `cut` every connection (a reset). Its
 * port is known before its target, so a server can be started with a public URL on the proxy.
 * `stall('responses')` lets requests through and holds only the answers (the peer did the work, the
 * caller never hears of it).
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
  /** Bytes sent from clients to the target so far (what reached it). */
  bytesToTarget(): number;
  close(): Promise<void>;
}

export async function startTcpProxy(): Promise<TcpProxy> {
  let target = 0;
  let stalled = false;
  let responsesStalled = false;
  let bytes = 0;
  const pairs = new Set<{ client: Socket; upstream: Socket; held: Buffer[] }>();
  const server: Server = createServer((client) => {
    const upstream = createConnection({ host: '127.0.0.1', port: target });
    const pair = { client, upstream, held: [] as Buffer[] };
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
    });
    upstream.on('data', (chunk) => {
      if (!stalled && !responsesStalled) client.write(chunk);
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
