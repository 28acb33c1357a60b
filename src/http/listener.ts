import http from 'node:http';
import type https from 'node:https';
import net from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * One port, HTTPS only, and a clear answer to plain HTTP. The first byte of each connection tells
 * them apart (a TLS handshake starts with 0x16): TLS connections go to the app's HTTPS server; plain
 * HTTP goes to an HTTP parser that hands the request to the same app, whose transport hook refuses
 * it with the error envelope (decisions §1). Nothing is served over plain HTTP.
 */
const TLS_HANDSHAKE = 0x16;
/** A connection that sends nothing at all is closed after this long (the servers' own timeouts apply after). */
const FIRST_BYTE_TIMEOUT_MS = 10_000;

export interface Listening {
  port: number;
  /**
   * Stops accepting connections, lets the requests in flight finish for at most `graceMs` (their
   * answers say `Connection: close`), then closes every connection left and the app.
   */
  close(graceMs?: number): Promise<void>;
}

export async function listenHttpsOnly(app: FastifyInstance, port: number, host: string): Promise<Listening> {
  await app.ready();
  const tlsServer = app.server as https.Server;
  // Plain HTTP is parsed only to be refused; it gets the HTTPS server's header limit and client-error answers.
  const plainServer = http.createServer(
    { maxHeaderSize: (tlsServer as { maxHeaderSize?: number }).maxHeaderSize },
    (req, res) => tlsServer.emit('request', req, res),
  );
  plainServer.on('clientError', (error, socket) => tlsServer.emit('clientError', error, socket));
  plainServer.keepAliveTimeout = 1000;
  const sockets = new Set<net.Socket>();
  // Requests in flight (plain ones are re-emitted on the TLS server, so this sees them all).
  const inFlight = new Set<http.ServerResponse>();
  let closing = false;
  let drained: (() => void) | null = null;
  tlsServer.prependListener('request', (_req: http.IncomingMessage, res: http.ServerResponse) => {
    inFlight.add(res);
    if (closing) res.setHeader('Connection', 'close');
    res.once('close', () => {
      inFlight.delete(res);
      if (inFlight.size === 0) drained?.();
    });
  });

  const front = net.createServer({ pauseOnConnect: true }, (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    socket.setTimeout(FIRST_BYTE_TIMEOUT_MS, () => socket.destroy());
    socket.once('readable', () => {
      socket.setTimeout(0);
      const first: Buffer | null = socket.read(1);
      if (!first) return socket.destroy();
      socket.unshift(first);
      const target = first[0] === TLS_HANDSHAKE ? tlsServer : plainServer;
      target.emit('connection', socket);
    });
  });

  await new Promise<void>((resolve, reject) => {
    front.once('error', reject);
    front.listen(port, host, () => resolve());
  });
  const address = front.address() as net.AddressInfo;
  return {
    port: address.port,
    async close(graceMs = 0) {
      closing = true;
      const allClosed = new Promise<void>((resolve) => front.close(() => resolve()));
      for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
      tlsServer.closeIdleConnections();
      plainServer.closeIdleConnections();
      if (inFlight.size > 0 && graceMs > 0) {
        let timer: NodeJS.Timeout | undefined;
        await new Promise<void>((resolve) => {
          drained = resolve;
          timer = setTimeout(resolve, graceMs);
        });
        clearTimeout(timer);
      }
      for (const s of sockets) s.destroy();
      await allClosed;
      await app.close();
    },
  };
}
