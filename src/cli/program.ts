import { Command } from 'commander';
import { addAccountCommands } from './account-commands.ts';
import { addBackupCommands } from './backup-commands.ts';
import { addCatalogCommands } from './catalog-commands.ts';
import type { Run } from './command-parts.ts';
import { addFundingCommands } from './funding-commands.ts';
import { addStockCommands } from './stock-commands.ts';
import { addUpstreamCommands } from './upstream-commands.ts';
import { addWebCommands } from './web-commands.ts';
import { addWebhookCommands } from './webhook-commands.ts';

const ENVIRONMENT_HELP = `
Server: AIRGIFT_URL (default https://localhost:8443; the admin API is its /admin, or AIRGIFT_ADMIN_URL).
Admin key: AIRGIFT_ADMIN_KEY, or DATA_DIR/admin.key. CA: AIRGIFT_CA_FILE, or DATA_DIR/tls/ca.crt.
DATA_DIR defaults to ./data, where npm start keeps them. restore reads DATA_DIR and DATABASE_URL as the server does.`;

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
  addStockCommands(program, run);
  addUpstreamCommands(program, run);
  addWebhookCommands(program, run);
  addFundingCommands(program, run);
  addWebCommands(program, run);
  addBackupCommands(program, run);
  return program;
}
