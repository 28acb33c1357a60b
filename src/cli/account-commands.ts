import { Argument, type Command } from 'commander';
import type { AccountDetails, AccountShapes, Environment } from '../../sdk/src/index.ts';
import {
  columns,
  environmentOption,
  type JsonOption,
  leaf,
  type Output,
  type Run,
  table,
  wholeNumber,
} from './command-parts.ts';

const SECRET_NOTE = '\n\nThe client secret is shown only now; keep it safe.';

const scopeList = (value: string) => value.split(',').map((s) => s.trim());
// Commander turns a parser's null into '', so 'none' stays a word until the request is built.
const limitOr =
  <T>(parse: (value: string) => T) =>
  (value: string): T | 'none' =>
    value === 'none' ? 'none' : parse(value);
const noneAsNull = <T>(value: T | 'none'): T | null => (value === 'none' ? null : value);

interface PageOptions extends JsonOption {
  page: number;
  size: number;
}

/** Page options of a list, `--page 1 --size 200` unless given. */
function paged(command: Command): Command {
  return command
    .option('--page <n>', 'page number', wholeNumber, 1)
    .option('--size <n>', 'entries per page', wholeNumber, 200);
}

/** `accounts ...`, `credentials ...` and `ledger audit`: accounts, their money and their keys. */
export function addAccountCommands(program: Command, run: Run): void {
  const accounts = program.command('accounts').description('accounts, their balances and limits');

  leaf(accounts, 'create', 'an account with its first credential (the secret is shown once)')
    .requiredOption('--name <name>', 'account name')
    .requiredOption('--currency <code>', 'ISO 4217 currency of its balances, e.g. USD')
    .requiredOption('--country <code>', 'ISO 3166-1 alpha-2 country, e.g. US')
    .addOption(environmentOption('of the first credential and of the initial funding'))
    .option('--fund <amount>', 'initial funding of that environment')
    .option('--daily-count-limit <n>', 'orders per day', wholeNumber)
    .option('--daily-amount-limit <amount>', 'amount per day')
    .option('--scopes <a,b>', 'scopes of the first credential (default all)', scopeList)
    .action((o: CreateOptions) =>
      run(o.json, async (admin) => {
        const created = await admin.accounts.create({
          name: o.name,
          currency: o.currency,
          country: o.country,
          environment: o.environment,
          ...(o.fund !== undefined && { fund: o.fund }),
          ...(o.dailyCountLimit !== undefined && { dailyCountLimit: o.dailyCountLimit }),
          ...(o.dailyAmountLimit !== undefined && { dailyAmountLimit: o.dailyAmountLimit }),
          ...(o.scopes && { scopes: o.scopes }),
        });
        const { accountId, environment, clientId, clientSecret, balance } = created;
        const json = { accountId, environment, clientId, clientSecret, balance };
        return { json, text: `${table(json)}${SECRET_NOTE}` };
      }),
    );

  paged(leaf(accounts, 'list', 'one page of accounts')).action((o: PageOptions) =>
    run(o.json, async (admin) => {
      const page = await admin.accounts.list({ page: o.page, size: o.size });
      const lines = page.items.map(
        (a) =>
          `${String(a.accountId).padEnd(6)} ${a.status.padEnd(9)} ${a.currencyCode} ${a.countryCode}  ${a.name}`,
      );
      return { json: page, text: `${lines.join('\n')}\n(${page.items.length} of ${page.total})` };
    }),
  );

  leaf(accounts, 'show', 'an account with its balances and credentials')
    .argument('<id>', 'account id', wholeNumber)
    .action((id: number, o: JsonOption) =>
      run(o.json, async (admin) => {
        const account = await admin.accounts.show(id);
        return { json: account, text: accountText(account) };
      }),
    );

  for (const action of ['deactivate', 'activate'] as const) {
    leaf(
      accounts,
      action,
      action === 'activate' ? 'the account moves money again' : 'the account stops moving money',
    )
      .argument('<id>', 'account id', wholeNumber)
      .action((id: number, o: JsonOption) =>
        run(o.json, async (admin) => {
          const a = await admin.accounts[action](id);
          return { json: a, text: `account ${a.accountId} is ${a.status}` };
        }),
      );
  }

  leaf(accounts, 'limits', 'set or remove (none) the daily limits')
    .argument('<id>', 'account id', wholeNumber)
    .option('--daily-count-limit <n|none>', 'orders per day', limitOr(wholeNumber))
    .option('--daily-amount-limit <amount|none>', 'amount per day', limitOr(String))
    .action((id: number, o: LimitsOptions) =>
      run(o.json, async (admin) => {
        const a = await admin.accounts.setLimits(id, {
          ...(o.dailyCountLimit !== undefined && { dailyCountLimit: noneAsNull(o.dailyCountLimit) }),
          ...(o.dailyAmountLimit !== undefined && { dailyAmountLimit: noneAsNull(o.dailyAmountLimit) }),
        });
        return { json: a, text: table(a) };
      }),
    );

  leaf(accounts, 'shapes', "which shapes the account's gift card answers take (docs/compatibility.md)")
    .argument('<id>', 'account id', wholeNumber)
    .addArgument(
      new Argument(
        '<shapes>',
        "documented (the spec's, the default) or service (the live service's, for its official SDKs)",
      ).choices(['documented', 'service']),
    )
    .action((id: number, shapes: AccountShapes, o: JsonOption) =>
      run(o.json, async (admin) => {
        const a = await admin.accounts.setShapes(id, shapes);
        return { json: a, text: `account ${a.accountId} answers the ${a.shapes} shapes` };
      }),
    );

  for (const action of ['fund', 'adjust'] as const) {
    const command = leaf(
      accounts,
      action,
      action === 'fund'
        ? 'add to a balance (a FUNDING entry)'
        : 'correct a balance, either sign (an ADJUSTMENT entry)',
    )
      .argument('<id>', 'account id', wholeNumber)
      .addOption(environmentOption())
      .requiredOption(
        '--amount <amount>',
        action === 'fund' ? 'amount to add' : 'amount to add, or negative to take',
      );
    if (action === 'fund') command.option('--reason <text>', 'why, kept in the ledger', 'funding');
    else command.requiredOption('--reason <text>', 'why, kept in the ledger');
    command.action((id: number, o: BalanceOptions) =>
      run(o.json, async (admin) => {
        const r = await admin.accounts[action](id, {
          environment: o.environment,
          amount: o.amount,
          reason: o.reason,
        });
        return {
          json: r,
          text: `${r.kind} ${r.amount} ${r.currencyCode}: ${r.oldBalance} -> ${r.newBalance} (entry ${r.entryId})`,
        };
      }),
    );
  }

  paged(leaf(accounts, 'ledger', "one page of an account's ledger entries, newest first"))
    .argument('<id>', 'account id', wholeNumber)
    .addOption(environmentOption())
    .action((id: number, o: PageOptions & { environment: Environment }) =>
      run(o.json, async (admin) => {
        const page = await admin.accounts.ledger(id, {
          environment: o.environment,
          page: o.page,
          size: o.size,
        });
        const lines = page.items.map(
          (e) =>
            `${String(e.id).padEnd(8)} ${e.createdAt}  ${e.kind.padEnd(11)} ${String(e.amount).padStart(14)} -> ${e.balanceAfter}  ${e.reason ?? ''}`,
        );
        return { json: page, text: lines.join('\n') };
      }),
    );

  const credentials = program.command('credentials').description('client ids and secrets of an account');

  leaf(credentials, 'create', 'another credential for an account (the secret is shown once)')
    .argument('<accountId>', 'account id', wholeNumber)
    .addOption(environmentOption())
    .option('--scopes <a,b>', 'its scopes (default all)', scopeList)
    .action((accountId: number, o: JsonOption & { environment: Environment; scopes?: string[] }) =>
      run(o.json, async (admin) => {
        const c = await admin.credentials.create(accountId, {
          environment: o.environment,
          ...(o.scopes && { scopes: o.scopes }),
        });
        return { json: c, text: `${table(c)}${SECRET_NOTE}` };
      }),
    );

  leaf(credentials, 'revoke', 'the credential and its tokens stop working')
    .argument('<clientId>', 'client id')
    .action((clientId: string, o: JsonOption) =>
      run(o.json, async (admin) => {
        const c = await admin.credentials.revoke(clientId);
        return { json: c, text: `credential ${c.clientId} revoked; its tokens no longer work` };
      }),
    );

  const ledger = program.command('ledger').description('the ledger of every account');
  leaf(
    ledger,
    'audit',
    'every balance against the sum of its entries, every order against its entries',
  ).action((o: JsonOption) =>
    run(o.json, async (admin): Promise<Output> => {
      const audit = await admin.ledger.audit();
      const text =
        audit.discrepancies.length === 0 && audit.orders.length === 0
          ? 'every balance equals the sum of its ledger entries, and every order and top-up its entries'
          : JSON.stringify(audit, null, 2);
      return { json: audit, text };
    }),
  );
}

interface CreateOptions extends JsonOption {
  name: string;
  currency: string;
  country: string;
  environment: Environment;
  fund?: string;
  dailyCountLimit?: number;
  dailyAmountLimit?: string;
  scopes?: string[];
}

interface LimitsOptions extends JsonOption {
  dailyCountLimit?: number | 'none';
  dailyAmountLimit?: string | 'none';
}

interface BalanceOptions extends JsonOption {
  environment: Environment;
  amount: string;
  reason: string;
}

/** `accounts show` for people: the account's fields, then its balances and credentials as columns. */
function accountText(account: AccountDetails): string {
  const { balances, credentials, ...fields } = account;
  const balanceRows = Object.entries(balances).map(([environment, b]) => [
    environment,
    String(b.balance),
    b.updatedAt ?? '-',
  ]);
  const credentialRows = credentials.map((c) => [
    c.clientId,
    c.environment,
    c.revoked ? 'revoked' : 'active',
    c.createdAt,
    c.scopes.join(',') || '-',
  ]);
  return [
    table(fields),
    '',
    `balances (${account.currencyCode})`,
    columns(['environment', 'balance', 'updated'], balanceRows),
    '',
    'credentials',
    columns(['clientId', 'environment', 'status', 'created', 'scopes'], credentialRows),
  ].join('\n');
}
