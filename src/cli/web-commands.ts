import type { Command } from 'commander';
import type { AuditEntry, Invitation } from '../../sdk/src/index.ts';
import { type JsonOption, leaf, type Run, wholeNumber } from './command-parts.ts';

/** An invitation as text: who, and the link to pass on. */
function invitationText(i: Invitation): string {
  return [
    `${i.kind === 'customer' ? `dashboard user of account ${i.accountId}` : 'console operator'}: ${i.email}`,
    `one-time link (valid until ${i.expiresAt} UTC): ${i.link}`,
  ].join('\n');
}

function auditText(items: AuditEntry[]): string {
  if (items.length === 0) return 'the audit log is empty';
  return items
    .map(
      (e) =>
        `${e.at}  ${e.actor.padEnd(24)} ${e.action.padEnd(18)} ${(e.target ?? '').padEnd(16)} ${e.ip ?? ''}  ${JSON.stringify(e.details)}`,
    )
    .join('\n');
}

/** `users invite|list`, `operators create|list` and `audit`: the people of the dashboard and console. */
export function addWebCommands(program: Command, run: Run): void {
  const users = program.command('users').description("the account dashboard's users");
  leaf(users, 'invite', 'a dashboard user of an account: prints a one-time link (72 h) to set a password')
    .requiredOption('--account <id>', 'account id', wholeNumber)
    .requiredOption('--email <email>', "the user's e-mail (their sign-in name)")
    .action((o: JsonOption & { account: number; email: string }) =>
      run(o.json, async (admin) => {
        const invited = await admin.users.invite(o.account, o.email);
        return { json: invited, text: invitationText(invited) };
      }),
    );
  leaf(users, 'list', "an account's dashboard users")
    .requiredOption('--account <id>', 'account id', wholeNumber)
    .action((o: JsonOption & { account: number }) =>
      run(o.json, async (admin) => {
        const list = await admin.users.list(o.account);
        const lines = list.items.map((u) => `${u.email}  ${u.active ? 'active' : 'invited'}  ${u.createdAt}`);
        return { json: list, text: lines.join('\n') || 'no users' };
      }),
    );

  const operators = program.command('operators').description("the operator console's users");
  leaf(operators, 'create', 'an operator: prints a one-time link (72 h) to set a password')
    .requiredOption('--email <email>', "the operator's e-mail (their sign-in name)")
    .action((o: JsonOption & { email: string }) =>
      run(o.json, async (admin) => {
        const invited = await admin.operators.create(o.email);
        return { json: invited, text: invitationText(invited) };
      }),
    );
  leaf(operators, 'list', 'every operator').action((o: JsonOption) =>
    run(o.json, async (admin) => {
      const list = await admin.operators.list();
      const lines = list.items.map((u) => `${u.email}  ${u.active ? 'active' : 'invited'}  ${u.createdAt}`);
      return { json: list, text: lines.join('\n') || 'no operators' };
    }),
  );

  leaf(program, 'audit', "the audit log: every operator's change (who, what, on what, when, from where)")
    .option('--page <n>', 'page number', wholeNumber, 1)
    .option('--size <n>', 'entries per page', wholeNumber, 100)
    .action((o: JsonOption & { page: number; size: number }) =>
      run(o.json, async (admin) => {
        const page = await admin.audit.list({ page: o.page, size: o.size });
        return { json: page, text: auditText(page.items) };
      }),
    );
}
