import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A stored snapshot of a rendered message (test/messaging/snapshots/<name>): written when missing or
 * with UPDATE_SNAPSHOTS=1, compared otherwise. Review a changed snapshot like code.
 */
const DIR = join(import.meta.dirname, 'snapshots');

export function matchSnapshot(name: string, actual: string) {
  const file = join(DIR, name);
  if (!existsSync(file) || process.env.UPDATE_SNAPSHOTS === '1') {
    writeFileSync(file, actual);
    return;
  }
  assert.equal(
    actual,
    readFileSync(file, 'utf8'),
    `snapshot ${name} (UPDATE_SNAPSHOTS=1 to accept a change)`,
  );
}
