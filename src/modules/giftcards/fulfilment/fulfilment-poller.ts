/**
 * The in-process poller: every `intervalMs` it asks the order service to take the next step of each
 * order whose `next_check_at` has come (the durable record is that column, not a timer). Started by
 * main.ts, stopped on shutdown; tests call `runDue()` directly after moving the clock.
 *
 * @example
 * const poller = fulfilmentPoller(() => orders.runDue(), 1000);
 * poller.start(); … await poller.stop();
 */
export function fulfilmentPoller(runDue: () => Promise<unknown>, intervalMs: number) {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> | null = null;
  const tick = () => {
    if (running) return; // never two runs at once
    running = runDue()
      .catch(() => undefined)
      .finally(() => {
        running = null;
      });
  };
  return {
    start() {
      timer ??= setInterval(tick, intervalMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await running;
    },
  };
}
