import { CommanderError } from 'commander';
import { AirgiftError } from '../../sdk/src/index.ts';
import type { Run } from './command-parts.ts';
import { CliError, connectFromEnv } from './connect.ts';
import { buildProgram } from './program.ts';

/**
 * `airgift`: the operator's command line, a thin client of the admin API through the SDK's `Admin`.
 * Exit codes: 0 done (or help shown), 1 an error (a refused request, a bad option, an unreachable
 * server), 2 no such command. With `--json`, an API error's JSON body is printed on stdout too.
 */
const run: Run = async (json, call) => {
  const { admin, adminUrl, close } = connectFromEnv();
  try {
    const output = await call(admin);
    process.stdout.write(`${json ? JSON.stringify(output.json, null, 2) : output.text}\n`);
  } catch (error) {
    if (!(error instanceof AirgiftError)) throw error;
    if (error.status === 0) {
      throw new CliError(`Cannot reach ${adminUrl}: ${rootCause(error)}. Is the server running (npm start)?`);
    }
    if (json) process.stdout.write(`${JSON.stringify(error.body, null, 2)}\n`);
    const details = error.details.map((d) => `\n  ${d.field}: ${d.issue}`).join('');
    throw new CliError(`${error.status} ${error.errorCode} ${error.message}${details}`);
  } finally {
    await close();
  }
};

/** The innermost cause's message: undici's "fetch failed" wraps the socket's or TLS's own error. */
function rootCause(error: Error): string {
  let e: unknown = error;
  while (e instanceof Error && e.cause instanceof Error) e = e.cause;
  return e instanceof Error ? e.message : String(e);
}

async function main(argv: string[]): Promise<number> {
  const program = buildProgram(run);
  if (argv.length === 0) {
    program.outputHelp();
    return 0;
  }
  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    // Commander has printed its message or the help already.
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return 0;
      if (error.code === 'commander.unknownCommand' || error.code === 'commander.help') return 2;
      return 1;
    }
    if (error instanceof CliError) {
      process.stderr.write(`airgift: ${error.message}\n`);
      return 1;
    }
    process.stderr.write(`airgift: ${error instanceof Error ? error.stack : error}\n`);
    return 1;
  }
}

// exitCode, not exit(): stdout may be a pipe, and exit() would cut what is still being written.
process.exitCode = await main(process.argv.slice(2));
