/**
 * Polls `probe` every 150 ms until it gives a truthy value (returned) or `ms` pass (an error naming
 * `what`): for effects another process makes in its own time (a worker's step, an upstream's answer).
 *
 * @example
 * const done = await until('the order to complete', async () => (await get(id)).status === 'SUCCESSFUL');
 */
export async function until<T>(
  what: string,
  probe: () => Promise<T | null | undefined | false>,
  ms = 20_000,
) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}
