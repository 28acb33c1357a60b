import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { randomToken } from './ids.ts';

/**
 * A secret kept in a file of the data directory, made on first use (mode 0600). Used for the admin
 * key and the token signing key when they are not configured.
 *
 * @example
 * const adminKey = await readOrCreateSecret('data/admin.key');
 */
export async function readOrCreateSecret(path: string, bytes = 32): Promise<string> {
  if (existsSync(path)) return (await readFile(path, 'utf8')).trim();
  await mkdir(dirname(path), { recursive: true });
  const secret = randomToken(bytes);
  await writeFile(path, `${secret}\n`, { mode: 0o600, flag: 'wx' }).catch(
    async (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    },
  );
  return (await readFile(path, 'utf8')).trim();
}
