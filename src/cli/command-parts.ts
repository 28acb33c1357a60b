import { type Command, InvalidArgumentError, Option } from 'commander';
import type { Admin } from '../../sdk/src/index.ts';

// The pieces every command of the `airgift` tree is made of (program.ts assembles the tree).

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
