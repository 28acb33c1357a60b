// Loaded into the server by bench/statements-per-order.ts (`node --import`): counts the statements
// the process sends through node-postgres, by their text (a named prepared statement shows its
// name), and writes the counts to BENCH_STATEMENTS_FILE on SIGUSR2, then starts counting afresh.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const pg = createRequire(join(process.cwd(), 'package.json'))('pg');
const counts = new Map();
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (config, values, callback) {
  const text = typeof config === 'string' ? config : (config?.text ?? '?');
  const name = typeof config === 'object' && config?.name ? `[${config.name}] ` : '';
  const key = name + text.replace(/\s+/g, ' ').trim().slice(0, 140);
  counts.set(key, (counts.get(key) ?? 0) + 1);
  return query.call(this, config, values, callback);
};
process.on('SIGUSR2', () => {
  writeFileSync(process.env.BENCH_STATEMENTS_FILE, JSON.stringify([...counts].sort((a, b) => b[1] - a[1])));
  counts.clear();
});
