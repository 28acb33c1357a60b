import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../../config.ts';
import type { KeyName, KeySource } from './backup-format.ts';

/**
 * The installation's three keys in a backup. Each is a file of DATA_DIR unless its environment
 * variable is set: a file's text goes into the backup (so it restores whole: the card codes key opens
 * the sealed codes, the signing key the tokens already handed out, the admin key the CLI), a
 * variable's value never does; the backup says which it was.
 */
export const KEYS: Record<
  KeyName,
  { file: string; variable: string; setting: 'cardCodesKey' | 'tokenSigningKey' | 'adminKey' }
> = {
  cardCodes: { file: 'card-codes.key', variable: 'CARD_CODES_KEY', setting: 'cardCodesKey' },
  tokenSigning: { file: 'token-signing.key', variable: 'TOKEN_SIGNING_KEY', setting: 'tokenSigningKey' },
  admin: { file: 'admin.key', variable: 'ADMIN_KEY', setting: 'adminKey' },
};

const NAMES = Object.keys(KEYS) as KeyName[];

/** Where each key of the running server comes from, with a file's text unless `withoutKeys`. */
export async function keysForBackup(
  config: Pick<Config, 'dataDir' | 'cardCodesKey' | 'tokenSigningKey' | 'adminKey'>,
  withoutKeys: boolean,
): Promise<Record<KeyName, KeySource>> {
  const out = {} as Record<KeyName, KeySource>;
  for (const name of NAMES) {
    const key = KEYS[name];
    const path = join(config.dataDir, key.file);
    if (config[key.setting] !== undefined) out[name] = { source: 'environment', variable: key.variable };
    else if (withoutKeys) out[name] = { source: 'left out' };
    else if (!existsSync(path)) out[name] = { source: 'none' };
    else out[name] = { source: 'file', value: (await readFile(path, 'utf8')).trim() };
  }
  return out;
}

/** What the restore does with one key, in words for the operator. */
export interface KeyOutcome {
  name: KeyName;
  file: string;
  action: 'written' | 'already there' | 'not in the backup';
  note: string;
}

/**
 * Checks the backup's keys against DATA_DIR before anything is restored: a key file that is there
 * with other content is refused (it would seal or sign with another key than the data's); returns
 * what `writeKeys` will do.
 */
export async function planKeys(
  dataDir: string,
  keys: Record<KeyName, KeySource>,
  env: Record<string, string | undefined>,
): Promise<{ outcomes: KeyOutcome[]; conflicts: string[] }> {
  const outcomes: KeyOutcome[] = [];
  const conflicts: string[] = [];
  for (const name of NAMES) {
    const key = KEYS[name];
    const path = join(dataDir, key.file);
    const entry = keys[name] ?? { source: 'none' };
    const existing = existsSync(path) ? (await readFile(path, 'utf8')).trim() : null;
    if (entry.source === 'file') {
      if (existing !== null && existing !== entry.value) {
        conflicts.push(
          `${path} exists with another key than the backup's: move it away (or restore into another DATA_DIR)`,
        );
      }
      outcomes.push({
        name,
        file: key.file,
        action: existing === null ? 'written' : 'already there',
        note:
          existing === null
            ? `${key.file} written from the backup`
            : `${key.file} already holds the backup's key`,
      });
      continue;
    }
    const setNow = Boolean(env[key.variable]);
    const where = setNow
      ? `${key.variable} is set here: it must be the source's value`
      : existing !== null
        ? `${path} is there: it must be the source's key`
        : `set ${key.variable} to the source's value, or copy the source's ${key.file} into DATA_DIR, before the server starts`;
    const why =
      entry.source === 'environment'
        ? `the source took it from ${entry.variable}`
        : entry.source === 'left out'
          ? 'the backup was made --without-keys'
          : 'the source had none yet';
    outcomes.push({
      name,
      file: key.file,
      action: 'not in the backup',
      note:
        entry.source === 'none' && !setNow
          ? `${key.file}: not in the backup (${why}); the server makes one when it needs it`
          : `${key.file}: NOT in the backup (${why}); ${where}`,
    });
  }
  return { outcomes, conflicts };
}

/** Writes the backup's key files that DATA_DIR lacks (mode 0600, never over an existing file). */
export async function writeKeys(dataDir: string, keys: Record<KeyName, KeySource>, outcomes: KeyOutcome[]) {
  await mkdir(dataDir, { recursive: true });
  for (const outcome of outcomes) {
    const entry = keys[outcome.name];
    if (outcome.action !== 'written' || entry.source !== 'file') continue;
    await writeFile(join(dataDir, outcome.file), `${entry.value}\n`, { mode: 0o600, flag: 'wx' });
  }
}
