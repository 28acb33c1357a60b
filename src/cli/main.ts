import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  type AdminClient,
  ApiError,
  adminClientOptionsFromEnv,
  CliError,
  createAdminClient,
} from './admin-client.ts';

/**
 * `airgift`: the operator's command line, a thin client of the admin API. Every command takes
 * `--json` to print the API's JSON instead of text.
 */
const USAGE = `airgift: manage an airgift server through its admin API

  airgift accounts create --name N --currency USD --country US --environment sandbox|live
                          [--fund 1000] [--daily-count-limit N] [--daily-amount-limit A] [--scopes a,b]
  airgift accounts list [--page 1] [--size 200]
  airgift accounts show ID
  airgift accounts deactivate ID | accounts activate ID
  airgift accounts limits ID [--daily-count-limit N|none] [--daily-amount-limit A|none]
  airgift accounts fund ID --environment E --amount A --reason TEXT
  airgift accounts adjust ID --environment E --amount -A --reason TEXT
  airgift accounts ledger ID --environment E [--page 1] [--size 200]
  airgift credentials create ACCOUNT_ID --environment E [--scopes a,b]
  airgift credentials revoke CLIENT_ID
  airgift ledger audit
  airgift catalog import FILE|DIR   (a catalog file, or a directory holding the seed's three files)
  airgift catalog export > catalog.json
  airgift products activate ID | products deactivate ID

Every command takes --json. Server: AIRGIFT_URL (default https://localhost:8443); admin key:
AIRGIFT_ADMIN_KEY or DATA_DIR/admin.key; CA: DATA_DIR/tls/ca.crt (DATA_DIR default ./data).`;

const STRING_FLAGS = [
  'name',
  'currency',
  'country',
  'environment',
  'fund',
  'daily-count-limit',
  'daily-amount-limit',
  'scopes',
  'page',
  'size',
  'amount',
  'reason',
];

type Flags = Record<string, string | boolean | undefined>;
type Command = (api: AdminClient, args: string[], flags: Flags) => Promise<{ json: unknown; text: string }>;

const need = (flags: Flags, name: string): string => {
  const value = flags[name];
  if (typeof value !== 'string' || value === '') throw new CliError(`--${name} is required`);
  return value;
};
const id = (args: string[], what = 'ID'): string => {
  if (!args[0]) throw new CliError(`${what} is required`);
  return encodeURIComponent(args[0]);
};
const scopes = (flags: Flags) =>
  typeof flags.scopes === 'string' ? flags.scopes.split(',').map((s) => s.trim()) : undefined;
const limit = (v: string | boolean | undefined) =>
  v === undefined ? undefined : v === 'none' ? null : String(v);
const table = (o: Record<string, unknown>) =>
  Object.entries(o)
    .map(([k, v]) => `${k.padEnd(18)} ${typeof v === 'object' ? JSON.stringify(v) : v}`)
    .join('\n');

const COMMANDS: Record<string, Command> = {
  'accounts create': async (api, _args, flags) => {
    const created = await api.call<Record<string, unknown>>('POST', '/accounts', {
      name: need(flags, 'name'),
      currency: need(flags, 'currency'),
      country: need(flags, 'country'),
      environment: need(flags, 'environment'),
      ...(flags.fund !== undefined && { fund: String(flags.fund) }),
      ...(flags['daily-count-limit'] !== undefined && {
        dailyCountLimit: Number(flags['daily-count-limit']),
      }),
      ...(flags['daily-amount-limit'] !== undefined && {
        dailyAmountLimit: String(flags['daily-amount-limit']),
      }),
      ...(scopes(flags) && { scopes: scopes(flags) }),
    });
    const { accountId, environment, clientId, clientSecret, balance } = created;
    const json = { accountId, environment, clientId, clientSecret, balance };
    return { json, text: `${table(json)}\n\nThe client secret is shown only now; keep it safe.` };
  },
  'accounts list': async (api, _args, flags) => {
    const q = new URLSearchParams({ page: String(flags.page ?? 1), size: String(flags.size ?? 200) });
    const page = await api.call<{ items: Record<string, unknown>[]; total: number }>('GET', `/accounts?${q}`);
    const text = page.items
      .map(
        (a) =>
          `${String(a.accountId).padEnd(6)} ${String(a.status).padEnd(9)} ${a.currencyCode} ${a.countryCode}  ${a.name}`,
      )
      .join('\n');
    return { json: page, text: `${text}\n(${page.items.length} of ${page.total})` };
  },
  'accounts show': async (api, args) => {
    const account = await api.call<Record<string, unknown>>('GET', `/accounts/${id(args)}`);
    return { json: account, text: table(account) };
  },
  'accounts deactivate': async (api, args) => {
    const a = await api.call<Record<string, unknown>>('POST', `/accounts/${id(args)}/deactivate`);
    return { json: a, text: `account ${a.accountId} is ${a.status}` };
  },
  'accounts activate': async (api, args) => {
    const a = await api.call<Record<string, unknown>>('POST', `/accounts/${id(args)}/activate`);
    return { json: a, text: `account ${a.accountId} is ${a.status}` };
  },
  'accounts limits': async (api, args, flags) => {
    const body = {
      ...(flags['daily-count-limit'] !== undefined && {
        dailyCountLimit:
          limit(flags['daily-count-limit']) === null ? null : Number(flags['daily-count-limit']),
      }),
      ...(flags['daily-amount-limit'] !== undefined && {
        dailyAmountLimit: limit(flags['daily-amount-limit']),
      }),
    };
    const a = await api.call<Record<string, unknown>>('PATCH', `/accounts/${id(args)}`, body);
    return { json: a, text: table(a) };
  },
  'accounts fund': async (api, args, flags) => balanceChange(api, 'fund', args, flags),
  'accounts adjust': async (api, args, flags) => balanceChange(api, 'adjust', args, flags),
  'accounts ledger': async (api, args, flags) => {
    const q = new URLSearchParams({
      environment: need(flags, 'environment'),
      page: String(flags.page ?? 1),
      size: String(flags.size ?? 200),
    });
    const page = await api.call<{ items: Record<string, unknown>[] }>(
      'GET',
      `/accounts/${id(args)}/ledger?${q}`,
    );
    const text = page.items
      .map(
        (e) =>
          `${String(e.id).padEnd(8)} ${e.createdAt}  ${String(e.kind).padEnd(11)} ${String(e.amount).padStart(14)} -> ${e.balanceAfter}  ${e.reason ?? ''}`,
      )
      .join('\n');
    return { json: page, text };
  },
  'credentials create': async (api, args, flags) => {
    const c = await api.call<Record<string, unknown>>(
      'POST',
      `/accounts/${id(args, 'ACCOUNT_ID')}/credentials`,
      {
        environment: need(flags, 'environment'),
        ...(scopes(flags) && { scopes: scopes(flags) }),
      },
    );
    return { json: c, text: `${table(c)}\n\nThe client secret is shown only now; keep it safe.` };
  },
  'credentials revoke': async (api, args) => {
    const c = await api.call<Record<string, unknown>>('POST', `/credentials/${id(args, 'CLIENT_ID')}/revoke`);
    return { json: c, text: `credential ${c.clientId} revoked; its tokens no longer work` };
  },
  'ledger audit': async (api) => {
    const audit = await api.call<{ discrepancies: unknown[] }>('GET', '/ledger/audit');
    const text =
      audit.discrepancies.length === 0
        ? 'every balance equals the sum of its ledger entries'
        : JSON.stringify(audit.discrepancies, null, 2);
    return { json: audit, text };
  },
};

/** A catalog file, or a seed directory (categories.json, brands.json, products.json) read as one. */
function readCatalog(path: string): unknown {
  if (!existsSync(path)) throw new CliError(`${path} does not exist`);
  const read = (file: string) => JSON.parse(readFileSync(file, 'utf8'));
  if (!statSync(path).isDirectory()) return read(path);
  return Object.fromEntries(
    ['categories', 'brands', 'products'].map((k) => [k, read(join(path, `${k}.json`))]),
  );
}

const CATALOG_COMMANDS: Record<string, Command> = {
  'catalog import': async (api, args) => {
    if (!args[0]) throw new CliError('FILE is required');
    const counts = await api.call<Record<string, number>>('POST', '/catalog/import', readCatalog(args[0]));
    return {
      json: counts,
      text: `imported ${counts.categories} categories, ${counts.brands} brands, ${counts.products} products`,
    };
  },
  'catalog export': async (api) => {
    const catalog = await api.call('GET', '/catalog/export');
    return { json: catalog, text: JSON.stringify(catalog, null, 2) };
  },
  'products activate': async (api, args) => {
    const p = await api.call<Record<string, unknown>>('POST', `/products/${id(args)}/activate`);
    return { json: p, text: `product ${p.productId} is ${p.status}` };
  },
  'products deactivate': async (api, args) => {
    const p = await api.call<Record<string, unknown>>('POST', `/products/${id(args)}/deactivate`);
    return { json: p, text: `product ${p.productId} is ${p.status}` };
  },
};
Object.assign(COMMANDS, CATALOG_COMMANDS);

async function balanceChange(api: AdminClient, action: 'fund' | 'adjust', args: string[], flags: Flags) {
  const result = await api.call<Record<string, unknown>>('POST', `/accounts/${id(args)}/${action}`, {
    environment: need(flags, 'environment'),
    amount: need(flags, 'amount'),
    reason:
      typeof flags.reason === 'string' ? flags.reason : action === 'fund' ? 'funding' : need(flags, 'reason'),
  });
  return {
    json: result,
    text: `${result.kind} ${result.amount} ${result.currencyCode}: ${result.oldBalance} -> ${result.newBalance} (entry ${result.entryId})`,
  };
}

/** `--amount -10` would read as two flags; join a value that starts with a minus sign to its flag. */
function joinNegativeValues(argv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const next = argv[i + 1];
    if (argv[i].startsWith('--') && !argv[i].includes('=') && next !== undefined && /^-\d/.test(next)) {
      out.push(`${argv[i]}=${next}`);
      i++;
    } else out.push(argv[i]);
  }
  return out;
}

async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: joinNegativeValues(argv),
    allowPositionals: true,
    strict: true,
    options: {
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
      ...Object.fromEntries(STRING_FLAGS.map((f) => [f, { type: 'string' as const }])),
    },
  });
  const flags = values as Flags;
  const name = positionals.slice(0, 2).join(' ');
  const command = COMMANDS[name];
  if (flags.help || !command) {
    process.stdout.write(`${USAGE}\n`);
    return flags.help || positionals.length === 0 ? 0 : 2;
  }
  const api = createAdminClient(adminClientOptionsFromEnv());
  try {
    const { json, text } = await command(api, positionals.slice(2), flags);
    process.stdout.write(`${flags.json ? JSON.stringify(json, null, 2) : text}\n`);
    return 0;
  } finally {
    await api.close();
  }
}

// exitCode, not exit(): stdout may be a pipe, and exit() would cut what is still being written.
run(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    if (
      error instanceof ApiError ||
      error instanceof CliError ||
      (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')
    ) {
      process.stderr.write(`airgift: ${error.message}\n`);
      if (error instanceof ApiError && process.argv.includes('--json'))
        process.stdout.write(`${JSON.stringify(error.body, null, 2)}\n`);
      process.exitCode = 1;
      return;
    }
    process.stderr.write(`airgift: ${error instanceof Error ? error.stack : error}\n`);
    process.exitCode = 1;
  },
);
