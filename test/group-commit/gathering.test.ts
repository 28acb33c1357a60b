import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Kysely } from 'kysely';
import type { Database } from '../../src/db/schema.ts';
import { createGathering } from '../../src/modules/group-commit/gathering.ts';

// ledger/gathering.ts: the calls made on a batch's transaction in one event-loop turn become one
// statement per group of calls that can share one (`canShare`), each call with its own result. The
// transaction is only the gathering's key here; `one` and `many` record what they were given.
interface Item {
  kind: string;
  n: number;
}

/** A gathering that records its statements; `many` fails for the kind `failing`, `gathers` as given. */
function recorder(o: { gathers?: boolean; failing?: string } = {}) {
  const statements: string[] = [];
  const name = (i: Item) => `${i.kind}${i.n}`;
  const gathering = createGathering<Item, string>({
    gathers: () => o.gathers ?? true,
    one: async (_trx, i) => {
      statements.push(`one ${name(i)}`);
      return name(i);
    },
    many: async (_trx, items) => {
      statements.push(`many ${items.map(name).join(',')}`);
      if (items[0].kind === o.failing) throw new Error('refused');
      return items.map(name);
    },
    canShare: (a, b) => a.kind === b.kind,
  });
  return { statements, gathering };
}

const trx = {} as Kysely<Database>;

test('calls of two kinds in one turn: one statement per kind, in arrival order, each its own result', async () => {
  const { statements, gathering } = recorder();
  const calls = [
    { kind: 'g', n: 1 },
    { kind: 't', n: 2 },
    { kind: 'g', n: 3 },
    { kind: 't', n: 4 },
    { kind: 'g', n: 5 },
  ];
  const results = await Promise.all(calls.map((c) => gathering.run(trx, c)));
  assert.deepEqual(results, ['g1', 't2', 'g3', 't4', 'g5']);
  assert.deepEqual(statements, ['many g1,g3,g5', 'many t2,t4']);
});

test('a call alone in its group is made with `one`; a group whose statement fails fails alone', async () => {
  const { statements, gathering } = recorder({ failing: 'x' });
  const settled = await Promise.allSettled([
    gathering.run(trx, { kind: 'x', n: 1 }),
    gathering.run(trx, { kind: 'g', n: 2 }),
    gathering.run(trx, { kind: 'x', n: 3 }),
  ]);
  assert.deepEqual(
    settled.map((s) => s.status),
    ['rejected', 'fulfilled', 'rejected'],
  );
  assert.deepEqual(statements, ['many x1,x3', 'one g2']);
});

test('on a transaction that does not gather (no batch), every call is made alone at once', async () => {
  const { statements, gathering } = recorder({ gathers: false });
  assert.deepEqual(
    await Promise.all([gathering.run(trx, { kind: 'g', n: 1 }), gathering.run(trx, { kind: 'g', n: 2 })]),
    ['g1', 'g2'],
  );
  assert.deepEqual(statements, ['one g1', 'one g2']);
});
