/**
 * The suites' one way of waiting for something another process (or a timer) does in its own time:
 * `until` polls `probe` every `everyMs` (150 ms) until it gives a truthy value (returned) or `ms`
 * pass (an error naming `what`); `msUntil` measures how soon a check holds, for the suites whose
 * promise is a delay ("within 1 s").
 *
 * @example
 * const done = await until('the order to complete', async () => (await get(id)).status === 'SUCCESSFUL');
 * assert.ok((await msUntil(async () => (await read(b)).status === 401)) < 1000);
 */
export async function until<T>(
  what: string,
  probe: () => Promise<T | null | undefined | false>,
  ms = 20_000,
  everyMs = 150,
) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(everyMs);
  }
}

/** Milliseconds until `check` holds, polling every `everyMs`; Infinity when it has not within `limitMs`. */
export async function msUntil(
  check: () => Promise<boolean>,
  { everyMs = 20, limitMs = 5000 }: { everyMs?: number; limitMs?: number } = {},
): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < limitMs) {
    if (await check()) return performance.now() - started;
    await sleep(everyMs);
  }
  return Number.POSITIVE_INFINITY;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
