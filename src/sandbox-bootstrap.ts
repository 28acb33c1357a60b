import { existsSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Services } from './services.ts';

/**
 * The sandbox account `npm start` makes on a new installation (decisions §8): a funded sandbox
 * account, its credential and its dashboard user, saved in `DATA_DIR/sandbox-credentials.json`
 * (mode 0600, written whole under another name and renamed into place). Secrets are stored hashed,
 * so a file lost after the account was made (a kill between the two, a deletion) cannot be written
 * again from the database: the next start makes the bootstrap account a new credential and a new
 * dashboard password, and saves those.
 *
 * @example
 * const made = await bootstrapSandbox(runtime.services, config.dataDir); // null when nothing was made
 */
export const SANDBOX_USER_EMAIL = 'sandbox@airgift.localhost';
export const SANDBOX_CREDENTIALS_FILE = 'sandbox-credentials.json';

export interface SandboxBootstrap {
  account: { accountId: number; clientId: string; clientSecret: string; balance: number };
  dashboardUser: { email: string; password: string };
  /** True when the account existed and only its credential and password were made anew. */
  renewed: boolean;
}

export async function bootstrapSandbox(
  services: Services,
  dataDir: string,
): Promise<SandboxBootstrap | null> {
  const file = join(dataDir, SANDBOX_CREDENTIALS_FILE);
  let made: SandboxBootstrap['account'];
  let renewed = false;
  if ((await services.accounts.count()) === 0) {
    made = await services.accounts.create({
      name: 'Sandbox',
      currencyCode: 'USD',
      countryCode: 'US',
      environment: 'sandbox',
      fund: '10000',
    });
  } else {
    if (existsSync(file)) return null;
    const accountId = await bootstrapAccountId(services);
    if (accountId === null) return null;
    const credential = await services.accounts.createCredential(accountId, 'sandbox');
    const { balances } = await services.accounts.describe(accountId);
    made = {
      accountId,
      clientId: credential.clientId,
      clientSecret: credential.clientSecret,
      balance: balances.sandbox.balance,
    };
    renewed = true;
  }
  const user = await services.web.users.createWithPassword('customer', SANDBOX_USER_EMAIL, made.accountId);
  const dashboardUser = { email: user.email, password: user.password };
  const scratch = `${file}.${process.pid}`;
  await writeFile(scratch, `${JSON.stringify({ ...made, dashboard: dashboardUser }, null, 2)}\n`, {
    mode: 0o600,
  });
  await rename(scratch, file);
  return { account: made, dashboardUser, renewed };
}

/** The bootstrap account: its dashboard user's, else the first account named Sandbox. */
async function bootstrapAccountId(services: Services): Promise<number | null> {
  const user = (await services.web.users.list('customer')).find((u) => u.email === SANDBOX_USER_EMAIL);
  if (user?.accountId) return user.accountId;
  const { items } = await services.accounts.list({ limit: 1000, offset: 0 });
  return (
    items.filter((a) => a.name === 'Sandbox').sort((a, b) => a.accountId - b.accountId)[0]?.accountId ?? null
  );
}
