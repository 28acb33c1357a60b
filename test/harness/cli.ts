import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ADMIN_KEY, CA_FILE } from './client.ts';

/**
 * The `airgift` command (bin/airgift.mjs) as an operator runs it against a test server: its URL,
 * the admin key and the suites' CA in the environment. `airgiftCli(url)` gives a function that runs
 * one command and resolves with its stdout and stderr (rejects on a non-zero exit).
 *
 * @example
 * const airgift = airgiftCli(server.url);
 * const shown = JSON.parse((await airgift('upstream', 'show', '--json')).stdout);
 */
export const BIN = join(import.meta.dirname, '..', '..', 'bin', 'airgift.mjs');
const run = promisify(execFile);

/** The environment the command reads: `url`, the admin key, `caFile` (the suites' CA unless given). */
export function cliEnv(url: string, caFile = CA_FILE): NodeJS.ProcessEnv {
  return { ...process.env, AIRGIFT_URL: url, AIRGIFT_ADMIN_KEY: ADMIN_KEY, AIRGIFT_CA_FILE: caFile };
}

export function airgiftCli(url: string, o: { caFile?: string; env?: NodeJS.ProcessEnv } = {}) {
  const env = { ...cliEnv(url, o.caFile), ...o.env };
  return (...args: string[]) => run(process.execPath, [BIN, ...args], { env, maxBuffer: 64 * 1024 * 1024 });
}
