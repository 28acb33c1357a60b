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
   * answers say `Connection: close`), then closes every connection left and the app. Resolves with
   * the number of requests still in flight that had to be cut.
   */
  close(graceMs?: number): Promise<number>;
}

/**
 * The port, bound before anything else is opened (main.ts binds it before the data directory's
 * database: a second start on a taken port stops before it touches anything). Connections that arrive
 * before `serve` wait, paused, and are handed over when the app is ready.
 */
export interface BoundPort {
  port: number;
  /** Serves `app` on the port: HTTPS and the plain-HTTP refusal (TLS on), or `app.server` as it is (TLS off). */
  serve(app: FastifyInstance, options?: { tls: boolean }): Promise<Listening>;
  /** Gives the port back without serving (a start that failed after binding it). */
  close(): Promise<void>;
}

export async function bindPort(port: number, host: string): Promise<BoundPort> {
  let route: ((socket: net.Socket) => void) | null = null;
  const early: net.Socket[] = [];
  const front = net.createServer({ pauseOnConnect: true }, (socket) => {
    if (route) route(socket);
    else {
      early.push(socket);
      socket.once('close', () => early.splice(early.indexOf(socket) >>> 0, 1));
      socket.on('error', () => socket.destroy());
    }
  });
  await new Promise<void>((resolve, reject) => {
    front.once('error', reject);
    front.listen(port, host, () => resolve());
  });
  const address = front.address() as net.AddressInfo;
  return {
    port: address.port,
    async serve(app, options = { tls: true }) {
      const served = await serveOn(front, app, options.tls);
      route = served.route;
      for (const socket of early.splice(0)) route(socket);
      return { port: address.port, close: served.close };
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of early.splice(0)) socket.destroy();
        front.close(() => resolve());
      }),
  };
}

/** Binds the port and serves `app` on it at once (the test harness). */
export async function listenHttpsOnly(app: FastifyInstance, port: number, host: string): Promise<Listening> {
  return (await bindPort(port, host)).serve(app);
}

/** The response a connection is answering (null between requests; undefined before its first). */
const RESPONSE = Symbol('airgift.response');
type AnsweringSocket = net.Socket & { [RESPONSE]?: http.ServerResponse | null };

async function serveOn(
  front: net.Server,
  app: FastifyInstance,
  tls: boolean,
): Promise<{ route: (socket: net.Socket) => void; close: Listening['close'] }> {
  await app.ready();
  const tlsServer = app.server as https.Server;
  // Plain HTTP is parsed only to be refused; it gets the HTTPS server's header limit and client-error answers.
  const plainServer = http.createServer(
    { maxHeaderSize: (tlsServer as { maxHeaderSize?: number }).maxHeaderSize },
    (req, res) => tlsServer.emit('request', req, res),
  );
  plainServer.on('clientError', (error, socket) => tlsServer.emit('clientError', error, socket));
  plainServer.keepAliveTimeout = 1000;
  // Connections: a Set is right for them (each lives for many requests).
  const sockets = new Set<net.Socket>();
  // Requests in flight (plain ones are re-emitted on the TLS server, so this sees them all): a count,
  // and each connection's response kept on the connection the parser hands it (HTTP/1.1 answers a
  // connection's requests in turn). Not a Set of responses: a Set added to and deleted from on every
  // request made V8 promote every response once the Set's table had reached the old generation (a
  // rehash leaves the old table, its entries in it, pointing at young responses until the next full
  // collection, and the new table is allocated old too): ~2 KB of each request promoted, young
  // collections 5–7 times longer, a kept read's CPU +45% (bench/README.md, 2026-11-27).
  const answering = new Set<AnsweringSocket>();
  let inFlight = 0;
  let closing = false;
  let drained: (() => void) | null = null;
  tlsServer.prependListener('request', (_req: http.IncomingMessage, res: http.ServerResponse) => {
    inFlight++;
    if (closing) res.setHeader('Connection', 'close');
    const socket = res.socket as AnsweringSocket | null;
    if (socket) {
      if (socket[RESPONSE] === undefined) {
        answering.add(socket);
        socket.once('close', () => answering.delete(socket));
      }
      socket[RESPONSE] = res;
    }
    res.once('close', () => {
      if (socket?.[RESPONSE] === res) socket[RESPONSE] = null;
      inFlight--;
      if (inFlight === 0) drained?.();
    });
  });

  const route = (socket: net.Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    if (!tls) {
      // behind a TLS-terminating proxy (TLS=off): every connection is the app's (its hooks refuse
      // what did not come through a trusted proxy)
      tlsServer.emit('connection', socket);
      socket.resume();
      return;
    }
    socket.setTimeout(FIRST_BYTE_TIMEOUT_MS, () => socket.destroy());
    socket.once('readable', () => {
      socket.setTimeout(0);
      const first: Buffer | null = socket.read(1);
      if (!first) return socket.destroy();
      socket.unshift(first);
      const target = first[0] === TLS_HANDSHAKE ? tlsServer : plainServer;
      target.emit('connection', socket);
    });
  };

  return {
    route,
    async close(graceMs = 0) {
      closing = true;
      const allClosed = new Promise<void>((resolve) => front.close(() => resolve()));
      for (const socket of answering) {
        const res = socket[RESPONSE];
        if (res && !res.headersSent) res.setHeader('Connection', 'close');
      }
      tlsServer.closeIdleConnections();
      plainServer.closeIdleConnections();
      if (inFlight > 0 && graceMs > 0) {
        let timer: NodeJS.Timeout | undefined;
        await new Promise<void>((resolve) => {
          drained = resolve;
          timer = setTimeout(resolve, graceMs);
        });
        clearTimeout(timer);
      }
      const cut = inFlight;
      for (const s of sockets) s.destroy();
      await allClosed;
      await app.close();
      return cut;
    },
  };
}
