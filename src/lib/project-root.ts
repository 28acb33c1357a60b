import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The checkout's root folder (the one whose package.json is airgift's), found from this file's
 * place: the same answer whether the server runs from its TypeScript sources (`src/lib/`) or from
 * the production bundle (`dist/main.mjs`, see scripts/build.mjs). Files the server reads at run time
 * (seed data, migrations, docs assets) are named from here, never from `import.meta.dirname`, which
 * differs between the two.
 *
 * @example
 * join(PROJECT_ROOT, 'data', 'seed'); // '/srv/airgift/data/seed'
 */
function findProjectRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).name === 'airgift') return dir;
    if (dirname(dir) === dir) throw new Error(`airgift's package.json not found above ${from}`);
  }
}

export const PROJECT_ROOT = findProjectRoot(import.meta.dirname);
