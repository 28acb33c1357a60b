import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { offsetClock } from '../../src/lib/clock.ts';
import { memoryRateLimiter } from '../../src/lib/rate-limiter.ts';
import { redisRateLimiter } from '../../src/lib/redis-rate-limiter.ts';

const rule = { limit: 3, windowMs: 10_000 };

test('the in-process limiter counts a fixed window per key on the injected clock', async () => {
  const clock = offsetClock();
  const limiter = memoryRateLimiter(clock);
  const seen = [];
  for (let i = 0; i < 4; i++) seen.push(await limiter.hit('k', rule));
  assert.deepEqual(
    seen.map((d) => [d.allowed, d.remaining]),
    [
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
    ],
  );
  assert.ok(seen[3].resetMs > 9_000 && seen[3].resetMs <= 10_000);
  assert.equal((await limiter.hit('other', rule)).remaining, 2);

  clock.advance(9_000);
  assert.equal((await limiter.hit('k', rule)).allowed, false);
  clock.advance(1_000);
  const fresh = await limiter.hit('k', rule);
  assert.deepEqual([fresh.allowed, fresh.remaining, fresh.resetMs], [true, 2, 10_000]);
});

test('expired windows are swept once the table grows, so new keys cannot grow it for ever', async () => {
  const clock = offsetClock();
  const limiter = memoryRateLimiter(clock);
  for (let i = 0; i < 10_000; i++) await limiter.hit(`key-${i}`, rule);
  assert.equal(limiter.size(), 10_000);
  clock.advance(10_000);
  await limiter.hit('one more', rule);
  assert.equal(limiter.size(), 1);
});

test('a Redis nothing listens on: every hit is answered at once, counted in the process, one down event', async () => {
  const events: string[] = [];
  const limiter = redisRateLimiter({
    url: 'redis://127.0.0.1:1',
    prefix: 'unit:',
    fallback: memoryRateLimiter(offsetClock()),
  });
  limiter.onChange((e) => events.push(e.kind));
  try {
    await new Promise((r) => setTimeout(r, 300));
    const started = performance.now();
    const decisions = [];
    for (let i = 0; i < 4; i++) decisions.push(await limiter.hit('k', rule));
    assert.ok(performance.now() - started < 100);
    assert.deepEqual(
      decisions.map((d) => d.allowed),
      [true, true, true, false],
    );
    assert.equal(limiter.state(), 'down');
    assert.deepEqual(events, ['down']);
  } finally {
    await limiter.close();
  }
});

test('limits are configurable, 0 turns one off, and REDIS_URL must be a redis URL', () => {
  const defaults = loadConfig({});
  assert.deepEqual(
    [defaults.rateLimitTokenRequests, defaults.rateLimitApiRequests, defaults.rateLimitWindowSeconds],
    [200, 1000, 10],
  );
  assert.equal(defaults.redisUrl, undefined);
  assert.equal(defaults.redisKeyPrefix, 'airgift:');
  assert.equal(loadConfig({ RATE_LIMIT_API_REQUESTS: '0' }).rateLimitApiRequests, 0);
  assert.throws(() => loadConfig({ REDIS_URL: 'http://x' }), ConfigError);
  assert.throws(() => loadConfig({ RATE_LIMIT_WINDOW_SECONDS: '0' }), /RATE_LIMIT_WINDOW_SECONDS/);
});
