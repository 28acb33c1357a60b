import { Command, InvalidArgumentError, Option } from 'commander';
import type { Admin } from '../../sdk/src/index.ts';
import { addAccountCommands } from './account-commands.ts';
import { addCatalogCommands } from './catalog-commands.ts';

/** What a command prints: the API's JSON with `--json`, else the text. */
export interface Output {
  json: unknown;
  text: string;
}

/** Runs one command's calls on a connected `Admin` and prints the output (see main.ts). */
export type Run = (json: boolean | undefined, call: (admin: Admin) => Promise<Output>) => Promise<void>;

/** The options every command has. */
export interface JsonOption {
  json?: boolean;
}

const ENVIRONMENT_HELP = `
Server: AIRGIFT_URL (default https://localhost:8443; the admin API is its /admin, or AIRGIFT_ADMIN_URL).
Admin key: AIRGIFT_ADMIN_KEY, or DATA_DIR/admin.key. CA: AIRGIFT_CA_FILE, or DATA_DIR/tls/ca.crt.
DATA_DIR defaults to ./data, where npm start keeps them.`;

/**
 * The `airgift` command tree: each command declares its own arguments and options, from which
 * commander parses the command line and writes `airgift --help` and `airgift <command> --help`.
 * Errors go through `exitOverride`, so main.ts picks the exit code.
 *
 * @example
 * await buildProgram(run).parseAsync(['accounts', 'show', '2', '--json'], { from: 'user' });
 */
export function buildProgram(run: Run): Command {
  const program = new Command('airgift')
    .description(
      "manage an airgift server through its admin API (each command takes --json to print the API's JSON)",
    )
    .exitOverride()
    .configureOutput({ outputError: (text, write) => write(text.replace(/^error: /, 'airgift: ')) })
    .showHelpAfterError('(add --help for usage)')
    .addHelpText('after', ENVIRONMENT_HELP);
  addAccountCommands(program, run);
  addCatalogCommands(program, run);
  return program;
}

/** A command that calls the API: it takes `--json`. */
export function leaf(parent: Command, name: string, description: string): Command {
  return parent
    .command(name)
    .description(description)
    .option('--json', "print the API's JSON answer instead of text");
}

export function wholeNumber(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('Not a whole number.');
  return Number(value);
}

/** `--environment sandbox|live`, required. */
export function environmentOption(
  description = 'which balance: each account has one per environment',
): Option {
  return new Option('--environment <environment>', description)
    .choices(['sandbox', 'live'])
    .makeOptionMandatory();
}

/** An object as aligned `key value` lines. */
export function table(o: object): string {
  return Object.entries(o)
    .map(([k, v]) => `${k.padEnd(18)} ${typeof v === 'object' ? JSON.stringify(v) : v}`)
    .join('\n');
}
