import { Argument, type Command, InvalidArgumentError, Option } from 'commander';
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

/** `<product>`, giftcards or topups: the product an upstream or catalogue sync command is about. */
export function productArgument(): Argument {
  return new Argument('<product>', 'giftcards or topups').choices(['giftcards', 'topups']);
}

/**
 * An object as aligned `key value` lines; a nested object's fields become `parent.child` lines and
 * an array of plain values one comma-separated value, so no raw JSON lands in the table.
 *
 * @example
 * table({ accountId: 7, limits: { count: 3 }, scopes: ['a', 'b'] })
 * // accountId          7
 * // limits.count       3
 * // scopes             a, b
 */
export function table(o: object): string {
  const lines: string[] = [];
  const add = (key: string, v: unknown) => {
    if (Array.isArray(v) && v.every((x) => x === null || typeof x !== 'object')) {
      lines.push(`${key.padEnd(18)} ${v.join(', ')}`);
    } else if (v !== null && typeof v === 'object') {
      for (const [k, inner] of Object.entries(v)) add(`${key}.${k}`, inner);
    } else {
      lines.push(`${key.padEnd(18)} ${v}`);
    }
  };
  for (const [k, v] of Object.entries(o)) add(k, v);
  return lines.join('\n');
}

/**
 * Rows as aligned columns under a header line.
 *
 * @example
 * columns(['id', 'name'], [['1', 'acme'], ['22', 'globex']])
 * // id  name
 * // 1   acme
 * // 22  globex
 */
export function columns(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}
