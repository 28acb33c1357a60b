import { randomBytes } from 'node:crypto';
import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';

/**
 * PostgreSQL notifications (`LISTEN`/`NOTIFY`) as a server uses them to keep memory in step with the
 * database. A notification is sent only when its transaction commits, in commit order; one that
 * is missed (the listening connection was down) is lost for good, so a listener says when it may
 * have missed some (`onReset`: drop everything learnt from the channel) and whether it is
 * `healthy()` right now (connected, listening, and its connection answered a heartbeat within
 * `staleAfterMs`): what a process keeps from notifications may be trusted only while it is.
 *
 * - PostgreSQL: a connection of its own (not one of the pool's), a heartbeat every `heartbeatMs`, and
 *   a new connection (then `onReset`) whenever the old one fails. The heartbeat is a notification
 *   the listener sends itself on the channel (payload `~heartbeat …`, which every listener skips):
 *   healthy means it came back, so a connection that answers but does not deliver (a pooler in
 *   transaction mode, where LISTEN does not hold) is never trusted.
 * - PGlite: the embedded database lives in this process, which is the only one that can write to
 *   it; its notifications are delivered with the answer of the statement that committed.
 */
export interface NotificationHandlers {
  onMessage(payload: string): void;
  /** Called whenever notifications may have been missed (before the first and after a reconnection). */
  onReset(): void;
}

export interface Listening {
  healthy(): boolean;
  close(): Promise<void>;
}

export async function listenPglite(
  pglite: PGlite,
  channel: string,
  handlers: NotificationHandlers,
): Promise<Listening> {
  handlers.onReset();
  const unlisten = await pglite.listen(channel, handlers.onMessage);
  let closed = false;
  return {
    healthy: () => !closed && !pglite.closed,
    async close() {
      if (closed) return;
      closed = true;
      if (!pglite.closed) await unlisten().catch(() => undefined);
    },
  };
}

export function listenPostgres(
  newClient: () => pg.Client,
  channel: string,
  handlers: NotificationHandlers,
  options: { heartbeatMs?: number; staleAfterMs?: number } = {},
): Listening {
  const heartbeatMs = options.heartbeatMs ?? 250;
  const staleAfterMs = options.staleAfterMs ?? 1000;
  let client: pg.Client | null = null;
  let lastAnswer = Number.NEGATIVE_INFINITY;
  let closed = false;
  let timer: NodeJS.Timeout | null = null;
  let failures = 0;
  let beat = 0;
  const self = `${process.pid}-${randomBytes(4).toString('hex')}`;
  let awaitedEcho = '';

  const later = (fn: () => void, ms: number) => {
    if (closed) return;
    timer = setTimeout(fn, ms);
    timer.unref();
  };

  function drop(c: pg.Client) {
    if (client !== c) return;
    client = null;
    lastAnswer = Number.NEGATIVE_INFINITY;
    c.end().catch(() => undefined);
    failures++;
    later(connect, Math.min(2000, 100 * 2 ** Math.min(failures, 5)));
  }

  async function connect() {
    timer = null;
    const c = newClient();
    client = c;
    c.on('error', () => drop(c));
    c.on('end', () => drop(c));
    c.on('notification', (n) => {
      if (client !== c || n.channel !== channel || n.payload === undefined) return;
      if (n.payload === awaitedEcho) lastAnswer = performance.now();
      else if (!n.payload.startsWith('~')) handlers.onMessage(n.payload);
    });
    try {
      await c.connect();
      // The socket must not keep a process alive on its own (a CLI run, a test's end).
      (c as unknown as { connection?: { stream?: { unref?(): void } } }).connection?.stream?.unref?.();
      await c.query(`LISTEN ${channel}`);
      if (client !== c || closed) return;
      handlers.onReset();
      failures = 0;
      void heartbeat();
    } catch {
      drop(c);
    }
  }

  async function heartbeat() {
    timer = null;
    const c = client;
    if (!c) return;
    beat++;
    const payload = `~heartbeat ${self} ${beat}`;
    awaitedEcho = payload;
    const answered = await Promise.race([
      c.query('SELECT pg_notify($1, $2)', [channel, payload]).then(
        () => true,
        () => false,
      ),
      new Promise<false>((resolve) => setTimeout(resolve, staleAfterMs, false).unref()),
    ]);
    if (client !== c) return;
    // No answer, or answers that stopped delivering: start over. (One that never delivered, like a
    // pooler, is kept but never healthy: balances are read from the database there.)
    const stopped =
      lastAnswer !== Number.NEGATIVE_INFINITY && performance.now() - lastAnswer > 4 * staleAfterMs;
    if (!answered || stopped) {
      drop(c);
      return;
    }
    later(heartbeat, heartbeatMs);
  }

  void connect();
  return {
    healthy: () => !closed && client !== null && performance.now() - lastAnswer < staleAfterMs,
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      const c = client;
      client = null;
      await c?.end().catch(() => undefined);
    },
  };
}
