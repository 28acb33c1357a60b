import { type Command, Option } from 'commander';
import type { AuditEntry, AuditQuery, Invitation } from '../../sdk/src/index.ts';
import { type JsonOption, leaf, type Run, wholeNumber } from './command-parts.ts';
import { CliError } from './connect.ts';

/** An invitation as text: who, and the link to pass on. */
function invitationText(i: Invitation): string {
  return [
    `${i.kind === 'customer' ? `dashboard user of account ${i.accountId}` : 'console operator'}: ${i.email}`,
    `one-time link (valid until ${i.expiresAt} UTC): ${i.link}`,
  ].join('\n');
}

function auditText(items: AuditEntry[]): string {
  if (items.length === 0) return 'no audit line matches';
  return items
    .map(
      (e) =>
        `${String(e.auditId).padStart(6)}  ${e.at}  ${e.channel.padEnd(9)} ${e.actor.padEnd(24)} ${e.action.padEnd(22)} ${(e.target ?? '').padEnd(18)} ${e.ip ?? ''}  ${JSON.stringify(e.details)}`,
    )
    .join('\n');
}

interface AuditOptions extends JsonOption {
  page: number;
  size: number;
  csv?: boolean;
  channel?: AuditQuery['channel'];
  actor?: string;
  action?: string;
  account?: number;
  startDate?: string;
  endDate?: string;
}

/** `users invite|list`, `operators create|list` and `audit`: the people of the dashboard and console. */
export function addWebCommands(program: Command, run: Run): void {
  const users = program.command('users').description("the account dashboard's users");
  leaf(users, 'invite', 'a dashboard user of an account: prints a one-time link (72 h) to set a password')
    .requiredOption('--account <id>', 'account id', wholeNumber)
    .requiredOption('--email <email>', "the user's e-mail (their sign-in name)")
    .addOption(
      new Option('--role <role>', 'what they may do (docs/dashboard-and-console.md)')
        .choices(['owner', 'developer', 'finance', 'support', 'viewer'])
        .default('owner'),
    )
    .action((o: JsonOption & { account: number; email: string; role: 'owner' }) =>
      run(o.json, async (admin) => {
        const invited = await admin.users.invite(o.account, o.email, o.role);
        return { json: invited, text: invitationText(invited) };
      }),
    );
  leaf(users, 'list', "an account's dashboard users")
    .requiredOption('--account <id>', 'account id', wholeNumber)
    .action((o: JsonOption & { account: number }) =>
      run(o.json, async (admin) => {
        const list = await admin.users.list(o.account);
        const lines = list.items.map(
          (u) => `${u.email}  ${u.role}  ${u.active ? 'active' : 'invited'}  ${u.createdAt}`,
        );
        return { json: list, text: lines.join('\n') || 'no users' };
      }),
    );

  const operators = program.command('operators').description("the operator console's users");
  leaf(operators, 'create', 'an operator: prints a one-time link (72 h) to set a password')
    .requiredOption('--email <email>', "the operator's e-mail (their sign-in name)")
    .addOption(
      new Option('--role <role>', 'admin (everything) or support (read and resend, no money moves)')
        .choices(['admin', 'support'])
        .default('admin'),
    )
    .action((o: JsonOption & { email: string; role: 'admin' | 'support' }) =>
      run(o.json, async (admin) => {
        const invited = await admin.operators.create(o.email, o.role);
        return { json: invited, text: invitationText(invited) };
      }),
    );
  leaf(operators, 'list', 'every operator').action((o: JsonOption) =>
    run(o.json, async (admin) => {
      const list = await admin.operators.list();
      const lines = list.items.map(
        (u) => `${u.email}  ${u.role}  ${u.active ? 'active' : 'invited'}  ${u.createdAt}`,
      );
      return { json: list, text: lines.join('\n') || 'no operators' };
    }),
  );

  const audit = program
    .command('audit')
    .description(
      'the audit log: every change made through the admin API, the console or the dashboard (who, what, on what, before and after, when, from where)',
    );
  // the default: `airgift audit --action account.fund` lists
  audit
    .command('list', { isDefault: true })
    .description('the lines, newest first, filtered')
    .option('--json', "print the API's JSON answer instead of text")
    .option('--page <n>', 'page number', wholeNumber, 1)
    .option('--size <n>', 'lines per page', wholeNumber, 100)
    .addOption(
      new Option('--channel <channel>', 'only this channel').choices(['admin', 'console', 'dashboard']),
    )
    .option('--actor <actor>', "an actor's id (an admin key's id, a user's id) or e-mail")
    .option('--action <action>', 'an action, or a prefix ending in a dot (account.)')
    .option('--account <id>', 'the account concerned', wholeNumber)
    .option('--start-date <date>', 'from (yyyy-MM-dd or yyyy-MM-dd HH:mm:ss, UTC)')
    .option('--end-date <date>', 'to (a date takes in its whole day)')
    .option('--csv', 'print every matching line as CSV (at most 100 000) instead of a page')
    .action((o: AuditOptions) =>
      run(o.json, async (admin) => {
        const query: AuditQuery = {
          channel: o.channel,
          actor: o.actor,
          action: o.action,
          accountId: o.account,
          startDate: o.startDate,
          endDate: o.endDate,
        };
        if (o.csv) {
          const csv = (await admin.audit.csv(query)).replace(/\r\n$/, '');
          return { json: csv, text: csv };
        }
        const page = await admin.audit.list({ ...query, page: o.page, size: o.size });
        return { json: page, text: auditText(page.items) };
      }),
    );
  leaf(
    audit,
    'verify',
    'walks the whole chain of hashes: a line removed or edited since it was written is named (exit code 1)',
  ).action(async (o: JsonOption) => {
    let intact = true;
    await run(o.json, async (admin) => {
      const v = await admin.audit.verify();
      intact = v.ok;
      const text = v.ok
        ? `the audit log holds ${v.lines} lines, chained without a break\nhead: line ${v.head.auditId}, hash ${v.head.hash} (note it elsewhere: a chain rewritten up to its head can only be told by it)`
        : `the audit log is NOT intact (${v.lines} lines):\n${v.problems.map((p) => `  line ${p.auditId}: ${p.problem}`).join('\n')}`;
      return { json: v, text };
    });
    if (!intact) throw new CliError('the audit log is not intact');
  });
}
