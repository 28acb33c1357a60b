/**
 * What the embedded database's durable commits cost (docs/embedded-database.md quotes it). Not part of
 * `npm run bench`: run it alone,
 *
 *   npx tsx bench/durability.ts [--commits=300] [--turns=3]
 *
 * Two PGlite databases in scratch directories on the same disk: one opened as airgift opens it
 * (`openPglite`: fsync on, the WAL flushed with fdatasync(2)), one with PGlite's defaults (`-F`, no
 * fsync reaches the disk). Each turn makes `--commits` sequential one-row commits on each, the two
 * alternating, and prints the time per commit; the difference is what a commit waits for the disk.
 * An order pays it once per group commit (modules/group-commit), shared by the batch's orders.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { openPglite } from '../src/db/pglite.ts';

const arg = (name: string, fallback: number) =>
  Number(
    new RegExp(`^--${name}=(\\d+)$`).exec(process.argv.find((a) => a.startsWith(`--${name}=`)) ?? '')?.[1] ??
      fallback,
  );
const COMMITS = arg('commits', 300);
const TURNS = arg('turns', 3);

const work = await mkdtemp(join(tmpdir(), 'airgift-bench-durability-'));
try {
  const durable = await openPglite(join(work, 'durable'), { sharedBuffers: '16MB' });
  const plain = await PGlite.create({ dataDir: join(work, 'plain') });
  for (const db of [durable, plain]) await db.exec('CREATE TABLE t (id serial PRIMARY KEY, v text)');

  const perCommitMs = async (db: PGlite) => {
    const started = process.hrtime.bigint();
    for (let i = 0; i < COMMITS; i++) await db.query('INSERT INTO t (v) VALUES ($1)', [`row ${i}`]);
    return Number(process.hrtime.bigint() - started) / 1e6 / COMMITS;
  };
  const rows: { turn: number; durable: number; plain: number }[] = [];
  for (let turn = 1; turn <= TURNS; turn++) {
    // Alternate which goes first, so a disk that warms up or a neighbour's load favours neither.
    const first = turn % 2 ? durable : plain;
    const a = await perCommitMs(first);
    const b = await perCommitMs(first === durable ? plain : durable);
    rows.push({ turn, durable: first === durable ? a : b, plain: first === durable ? b : a });
  }
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
  console.log(`${COMMITS} sequential one-row commits per turn, ${new Date().toISOString()}`);
  for (const r of rows) {
    console.log(
      `turn ${r.turn}: fsync on ${r.durable.toFixed(3)} ms/commit, PGlite default ${r.plain.toFixed(3)} ms/commit`,
    );
  }
  const on = median(rows.map((r) => r.durable));
  const off = median(rows.map((r) => r.plain));
  console.log(
    `median: fsync on ${on.toFixed(3)} ms, off ${off.toFixed(3)} ms: the disk's share ${(on - off).toFixed(3)} ms per commit`,
  );
  await durable.close();
  await plain.close();
} finally {
  await rm(work, { recursive: true, force: true });
}
