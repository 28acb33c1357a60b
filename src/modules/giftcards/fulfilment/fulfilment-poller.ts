/**
 * The in-process poller: every `intervalMs` it asks the order service to take the next step of each
 * order whose `next_check_at` has come (the durable record is that column, not a timer). Started by
 * main.ts, stopped on shutdown; tests call `runDue()` directly after moving the clock.
 *
 * @example
 * const poller = fulfilmentPoller((onError) => orders.runDue(onError), 1000);
 * poller.start((error, id) => log.error({ err: error, transactionId: id }, 'fulfilment step failed'));
 * await poller.stop();
 */
export type StepErrorReporter = (error: unknown, transactionId: number | null) => void;

export function fulfilmentPoller(
  runDue: (onError: StepErrorReporter) => Promise<unknown>,
  intervalMs: number,
) {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> | null = null;
  let report: StepErrorReporter = () => {};
  const tick = () => {
    if (running) return; // never two runs at once
    running = runDue(report)
      .catch((error) => report(error, null))
      .finally(() => {
        running = null;
      });
  };
  return {
    /** `onError` hears of every failed step (and failed run), e.g. to log it. */
    start(onError?: StepErrorReporter) {
      if (onError) report = onError;
      timer ??= setInterval(tick, intervalMs);
      timer.unref();
    },
    /** Started and not stopped: what readiness (`/ready`) asks. */
    isRunning() {
      return timer !== null;
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await running;
    },
  };
}
