import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { StartError } from '../start-error.ts';
import { randomToken } from './ids.ts';

/**
 * Keys kept in files of the data directory (`admin.key`, `token-signing.key`, `card-codes.key`, when
 * not given in the environment). They are generated only into a new installation, a database that
 * holds nothing a key protects yet (runtime.ts asks `db/installation.ts`); afterwards a missing or
 * empty key file stops the start, naming the file: a new key would leave every stored code
 * unreadable and every token refused.
 *
 * @example
 * const adminKey = readKeyFile('data/admin.key', { mayCreate: fresh, what: 'the admin key' });
 * const codesKey = await readSecretFile('data/card-codes.key');
 */
export function readKeyFile(path: string, o: { mayCreate: boolean; what: string; bytes?: number }): string {
  if (existsSync(path)) {
    const text = readFileSync(path, 'utf8').trim();
    if (text === '') {
      throw new StartError(
        `${path} (${o.what}) is empty. Put back the file from your backup (or set its variable); ` +
          'airgift never replaces a key of an installation that holds data.',
      );
    }
    return text;
  }
  if (!o.mayCreate) {
    throw new StartError(
      `${path} (${o.what}) is missing, and this database already holds data that depends on it. ` +
        'Put back the file from your backup (or set its variable, see docs/configuration.md); ' +
        'airgift generates keys only into a new installation.',
    );
  }
  const text = randomToken(o.bytes ?? 32);
  mkdirSync(dirname(path), { recursive: true });
  try {
    writeFileSync(path, `${text}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return readKeyFile(path, { ...o, mayCreate: false });
  }
  return text;
}

/** A key file made at start (`readKeyFile`), read again where it is used. */
export async function readSecretFile(path: string): Promise<string> {
  const text = (await readFile(path, 'utf8')).trim();
  if (text === '') throw new Error(`${path} is empty`);
  return text;
}
