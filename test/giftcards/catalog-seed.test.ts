import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';

// The versioned seed (data/seed) keeps the invariants its checker states: unique ids, every reference
// resolvable, denominations within the currency's minor units, a rate for every currency, and the
// catalog sizes issue 3 asks for. A hand edit or a rebuild that breaks one fails CI here.
test('data/seed passes scripts/check-catalog-seed.ts', async () => {
  const root = join(import.meta.dirname, '..', '..');
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', join(root, 'scripts', 'check-catalog-seed.ts')],
    {
      cwd: root,
    },
  );
  assert.match(
    stdout,
    /catalog seed OK: \d+ countries, \d+ currencies, \d+ categories, \d+ brands, \d+ products/,
  );
});
