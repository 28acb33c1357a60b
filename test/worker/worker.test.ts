import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { offsetClock } from '../../src/lib/clock.ts';
import { createWorker } from '../../src/worker/index.ts';

// The one background poller's loop, with in-memory job handlers: what is due runs, a failure is
// reported without holding back the others, the handler decides when a failed job is due again,
// and two runs never overlap.
function handler(name: string, ids: number[], options: { fail?: number[]; intervalMs?: number } = {}) {
  const done: number[] = [];
  const retried: number[] = [];
  let active = 0;
  let overlapped = false;
  return {
    done,
    retried,
    overlapped: () => overlapped,
    job: {
      name,
      intervalMs: options.intervalMs ?? 100,
      due: async () => ids.filter((id) => !done.includes(id)).map((id) => ({ id })),
      run: async (job: { id: number }) => {
        active += 1;
        if (active > 1) overlapped = true;
        await new Promise((resolve) => setTimeout(resolve, 5));
        active -= 1;
        if (options.fail?.includes(job.id)) throw new Error(`job ${job.id} failed`);
        done.push(job.id);
      },
      failed: async (job: { id: number }) => {
        retried.push(job.id);
      },
    },
  };
}

describe('worker', () => {
  test('runDue runs every due job of every type and counts them', async () => {
    const a = handler('a', [1, 2]);
    const b = handler('b', [3]);
    const worker = createWorker({ clock: offsetClock(), jobs: [a.job, b.job] });
    assert.equal(await worker.runDue(), 3);
    assert.deepEqual([a.done, b.done], [[1, 2], [3]]);
    assert.equal(await worker.runDue(), 0, 'nothing is due twice');
  });

  test('a failed job is reported and handed to `failed`; the others still run', async () => {
    const a = handler('a', [1, 2, 3], { fail: [2] });
    const worker = createWorker({ clock: offsetClock(), jobs: [a.job] });
    const reported: { name: string; id: number | null }[] = [];
    assert.equal(await worker.runDue((_error, job) => reported.push(job)), 3);
    assert.deepEqual(a.done, [1, 3]);
    assert.deepEqual(a.retried, [2]);
    assert.deepEqual(reported, [{ name: 'a', id: 2 }]);
    // without a reporter, the first failure is thrown once every due job was tried
    await assert.rejects(worker.runDue(), /job 2 failed/);
  });

  test('runs never overlap, whoever starts them', async () => {
    const a = handler('a', [1, 2, 3, 4]);
    const worker = createWorker({ clock: offsetClock(), jobs: [a.job] });
    const counts = await Promise.all([worker.runDue(), worker.runDue(), worker.runDue()]);
    assert.equal(counts[0], 4);
    assert.deepEqual(counts.slice(1), [0, 0], 'the later runs find the jobs done');
    assert.equal(a.overlapped(), false);
  });

  test('the loop runs each job type at its own interval, and stops', async () => {
    const fast = handler('fast', [1], { intervalMs: 20 });
    const slow = handler('slow', [2], { intervalMs: 60_000 });
    const worker = createWorker({ clock: offsetClock(), jobs: [fast.job, slow.job] });
    worker.start((error) => assert.fail(String(error)));
    try {
      for (let i = 0; i < 100 && fast.done.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    } finally {
      await worker.stop();
    }
    assert.deepEqual(fast.done, [1]);
    assert.deepEqual(slow.done, [], 'not yet its turn');
  });

  test('stop() lets the job under way finish and gives the rest of its batch back', async () => {
    const done: number[] = [];
    const released: number[][] = [];
    let started!: () => void;
    const first = new Promise<void>((resolve) => {
      started = resolve;
    });
    const worker = createWorker({
      clock: offsetClock(),
      jobs: [
        {
          name: 'slow',
          intervalMs: 10,
          due: async () => (done.length === 0 ? [1, 2, 3].map((id) => ({ id })) : []),
          run: async (job) => {
            started();
            await new Promise((r) => setTimeout(r, 50));
            done.push(job.id);
          },
          release: async (jobs) => {
            released.push(jobs.map((j) => j.id));
          },
        },
      ],
    });
    // the loop's timer is unref'd: something must keep this test's event loop alive meanwhile
    const alive = setInterval(() => {}, 1000);
    worker.start((error) => assert.fail(String(error)));
    await first;
    await worker.stop();
    clearInterval(alive);
    assert.deepEqual(done, [1], 'the job under way finished, no other began');
    assert.deepEqual(released, [[1], [2, 3]], 'its lease ended, the unrun jobs were given back');
  });

  test('a handler with `concurrency` runs that many of its jobs at once', async () => {
    let active = 0;
    let most = 0;
    const worker = createWorker({
      clock: offsetClock(),
      jobs: [
        {
          name: 'network',
          intervalMs: 100,
          concurrency: 4,
          due: async () => Array.from({ length: 10 }, (_, i) => ({ id: i })),
          run: async () => {
            active += 1;
            most = Math.max(most, active);
            await new Promise((r) => setTimeout(r, 20));
            active -= 1;
          },
        },
      ],
    });
    assert.equal(await worker.runDue(), 10);
    assert.equal(most, 4);
  });
});

describe('worker: a handler that drains', () => {
  /** `count` jobs handed out `batchSize` at a time, each taking `ms`; `drains` as given. */
  function backlog(count: number, o: { batchSize: number; ms?: number; drains?: () => boolean }) {
    const done: number[] = [];
    let runs = 0;
    return {
      done,
      runs: () => runs,
      job: {
        name: 'backlog',
        intervalMs: 60_000,
        batchSize: o.batchSize,
        ...(o.drains && { drains: o.drains }),
        due: async (_now: Date, limit: number) => {
          runs += 1;
          const left = Array.from({ length: count }, (_, i) => i + 1).filter((id) => !done.includes(id));
          return left.slice(0, limit).map((id) => ({ id }));
        },
        run: async (job: { id: number }) => {
          if (o.ms) await new Promise((r) => setTimeout(r, o.ms));
          done.push(job.id);
        },
      },
    };
  }

  test('runs again at once while its batches are full; without `drains`, one batch per run', async () => {
    const draining = backlog(7, { batchSize: 2, drains: () => true });
    assert.equal(await createWorker({ clock: offsetClock(), jobs: [draining.job] }).runDue(), 7);
    assert.deepEqual(draining.done, [1, 2, 3, 4, 5, 6, 7]);
    assert.equal(draining.runs(), 4, 'batches of 2, 2, 2 and 1');

    const plain = backlog(7, { batchSize: 2 });
    assert.equal(await createWorker({ clock: offsetClock(), jobs: [plain.job] }).runDue(), 2);
    // the outbox's `drains` says no while the order path is busy: one batch, as without it
    const yielding = backlog(7, { batchSize: 2, drains: () => false });
    assert.equal(await createWorker({ clock: offsetClock(), jobs: [yielding.job] }).runDue(), 2);
  });

  test('while one drains, the other handlers still run at their intervals', async () => {
    const draining = backlog(40, { batchSize: 1, ms: 5, drains: () => true });
    const other = backlog(0, { batchSize: 1 });
    const worker = createWorker({
      clock: offsetClock(),
      jobs: [draining.job, { ...other.job, name: 'other', intervalMs: 20 }],
    });
    const started = performance.now();
    assert.equal(await worker.runDue(), 40);
    const ms = performance.now() - started;
    assert.equal(draining.done.length, 40);
    // 40 runs of ≥ 5 ms: the other handler's 20 ms interval came round several times meanwhile
    const otherRuns = other.runs();
    assert.ok(
      otherRuns >= Math.min(3, Math.floor(ms / 20)),
      `the other ran ${otherRuns} times in ${ms.toFixed(0)} ms`,
    );
  });
});
