/**
 * Knows whether the database is away, so that an outage is logged twice (when it starts, when it
 * ends) instead of once per failed request. Whoever meets an infrastructure error calls `failed()`;
 * the monitor then checks the database itself and declares an outage only if that check fails too:
 * a request that began during an outage can fail after the database is back (a connection attempt
 * that waited, a pooled connection that died meanwhile), and that late failure is no new outage.
 * While the database is away the monitor checks it every `probeIntervalMs` and reports the end as
 * soon as a check passes (a passing readiness check ends it too, through `succeeded()`).
 *
 * @example
 * const outage = createOutageMonitor({ check: () => pingDatabase(1000) });
 * outage.onChange((e) => log.warn(e, e.kind === 'started' ? 'database unavailable' : 'database back'));
 * outage.failed(error); // from the error handler or a worker
 */
export type OutageEvent = { kind: 'started'; reason: string } | { kind: 'ended'; downForMs: number };

export interface OutageMonitor {
  failed(reason: string): void;
  succeeded(): void;
  isDown(): boolean;
  onChange(listener: (event: OutageEvent) => void): void;
  stop(): void;
}

export function createOutageMonitor(o: {
  check: () => Promise<unknown>;
  probeIntervalMs?: number;
}): OutageMonitor {
  const interval = o.probeIntervalMs ?? 500;
  let downSince: number | null = null;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  let confirming = false;
  const listeners: ((event: OutageEvent) => void)[] = [];
  const emit = (event: OutageEvent) => {
    for (const l of listeners) l(event);
  };

  const probe = () => {
    timer = null;
    if (downSince === null || stopped) return;
    o.check().then(succeeded, schedule);
  };
  function schedule() {
    if (downSince === null || stopped || timer) return;
    timer = setTimeout(probe, interval);
    // The probe never keeps a stopping process alive; shutdown has its own deadline.
    timer.unref();
  }
  function succeeded() {
    if (downSince === null) return;
    const downForMs = Date.now() - downSince;
    downSince = null;
    if (timer) clearTimeout(timer);
    timer = null;
    emit({ kind: 'ended', downForMs });
  }

  return {
    failed(reason) {
      if (downSince !== null || confirming || stopped) return;
      confirming = true;
      const failedAt = Date.now();
      o.check().then(
        () => {
          confirming = false;
        },
        () => {
          confirming = false;
          if (downSince !== null || stopped) return;
          downSince = failedAt;
          emit({ kind: 'started', reason });
          schedule();
        },
      );
    },
    succeeded,
    isDown: () => downSince !== null,
    onChange(listener) {
      listeners.push(listener);
    },
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
