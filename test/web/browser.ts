import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { type ServerProcess, startServerProcess } from '../harness/server-process.ts';

/**
 * The browser side of the dashboard and console suites (and `scripts/screenshots.ts`): Debian's
 * Chromium driven by playwright-core, one browser per suite, one context (cookie jar) per person.
 * The server's certificate is the harness's development CA's, so contexts ignore HTTPS errors.
 */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);
/** A browser suite's `skip`: the reason where Chromium is not installed. */
export const skipWithoutChromium = hasChromium
  ? false
  : `no chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)`;

/** A browser suite's server process and browser, set once its `before` hooks have run. */
export interface BrowserSuite {
  server: ServerProcess;
  browser: Browser;
}

/**
 * Starts a server process (with `env()`, read when it starts) and a browser before the suite's tests
 * and closes both after them. Call it inside the `describe`, before the suite's own hooks: those run
 * later, with `server` and `browser` set.
 */
export function serverAndBrowser(env: () => Record<string, string> = () => ({})): BrowserSuite {
  const suite = {} as BrowserSuite;
  before(async () => {
    [suite.server, suite.browser] = await Promise.all([startServerProcess(env()), launchBrowser()]);
  });
  after(async () => {
    await suite.browser?.close();
    await suite.server?.cleanup();
  });
  return suite;
}

/** What a browser suite finds wrong on its pages as they go by; it asserts both lists empty at its end. */
export class PageFindings {
  /** axe-core's serious and critical violations, each labelled with where it was met. */
  readonly axe: string[] = [];
  /** What the pages' Content Security Policy refused (of the pages that collect into it). */
  readonly csp: string[] = [];

  /** Runs axe on the page as it is now and keeps its serious and critical violations, labelled `where`. */
  async check(page: Page, where: string) {
    this.axe.push(...(await seriousViolations(page)).map((v) => `${where}: ${v}`));
  }
}

/** A browser suite with the people most suites start from, signed in before the suite's own hooks run. */
export interface SignedInSuite extends BrowserSuite {
  /** The bootstrap sandbox account's user, signed in to the dashboard. */
  customer: Page;
  /** The operator named in `signedInSuite`'s options, signed in to the console (unset without one). */
  operator: Page;
  /** Both pages collect their CSP violations into `findings.csp` from their first page on. */
  findings: PageFindings;
}

/**
 * `serverAndBrowser(env)`, then the bootstrap sandbox user's dashboard page and, with `operator`, an
 * operator invited by the admin API and signed in to the console. Call it inside the `describe`; the
 * suite's own `before` hooks run after, with every field set.
 *
 * @example
 * const suite = signedInSuite({ operator: { email: 'ops@example.com', password: 'ops passphrase 1' } });
 * test('...', async () => {
 *   await suite.customer.goto('/dashboard/#/overview');
 *   await suite.findings.check(suite.customer, 'overview');
 * });
 */
export function signedInSuite(
  o: { env?: () => Record<string, string>; operator?: { email: string; password: string } } = {},
): SignedInSuite {
  const suite = serverAndBrowser(o.env) as SignedInSuite;
  suite.findings = new PageFindings();
  before(async () => {
    suite.customer = await sandboxUserPage(suite, suite.findings.csp);
    if (o.operator)
      suite.operator = await operatorPage(suite, o.operator.email, o.operator.password, suite.findings.csp);
  });
  return suite;
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
}

export async function newContext(browser: Browser, server: ServerProcess): Promise<BrowserContext> {
  const context = await browser.newContext({
    ignoreHTTPSErrors: true,
    baseURL: server.url,
    viewport: { width: 1280, height: 860 },
  });
  // tsx compiles the functions tests hand to page.evaluate with esbuild's keepNames, whose __name
  // helper the page lacks; the DevTools protocol installs it (the page's CSP does not apply there).
  await context.addInitScript('globalThis.__name = (f) => f;');
  return context;
}

/**
 * A new page (its own context) signed in to the dashboard as the bootstrap sandbox account's user;
 * with `cspViolations`, collecting them there from its first page on.
 */
export async function sandboxUserPage(
  { server, browser }: BrowserSuite,
  cspViolations?: string[],
): Promise<Page> {
  const user = await sandboxUser(server);
  const page = await (await newContext(browser, server)).newPage();
  if (cspViolations) collectCspViolations(page, cspViolations);
  await signIn(page, '/dashboard', user.email, user.password);
  return page;
}

/**
 * A new page (its own context) of an operator the admin API invites, who sets a password and signs
 * in to the console; with `cspViolations`, collecting them there from its first page on.
 */
export async function operatorPage(
  { server, browser }: BrowserSuite,
  email: string,
  password: string,
  cspViolations?: string[],
): Promise<Page> {
  const invited = await server.admin.ok('POST', '/operators', { email });
  const page = await (await newContext(browser, server)).newPage();
  if (cspViolations) collectCspViolations(page, cspViolations);
  await acceptInvitation(page, server, invited.link, password);
  await signIn(page, '/console', email, password);
  return page;
}

/** Collects into `into` what the page's console says about its Content Security Policy refusing something. */
export function collectCspViolations(page: Page, into: string[]) {
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) into.push(message.text());
  });
}

/** The bootstrap sandbox account's dashboard user, as `npm start` saved it. */
export async function sandboxUser(server: ServerProcess): Promise<{ email: string; password: string }> {
  const saved = JSON.parse(await readFile(join(server.dataDir, 'sandbox-credentials.json'), 'utf8'));
  return saved.dashboard;
}

export async function signIn(page: Page, path: '/dashboard' | '/console', email: string, password: string) {
  await page.goto(`${path}/#/overview`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}

/** Follows an invitation link in the browser and sets the password. */
export async function acceptInvitation(page: Page, server: ServerProcess, link: string, password: string) {
  const u = new URL(link);
  await page.goto(`${server.url}${u.pathname}${u.hash}`);
  await page.getByLabel('New password').fill(password);
  await page.getByLabel('Repeat it').fill(password);
  await page.getByRole('button', { name: 'Set password' }).click();
  await page.getByText('You can sign in now').waitFor();
  await page.getByRole('button', { name: 'Sign in' }).waitFor();
}

const axeSource = readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The serious and critical axe-core violations of the page as it is now (empty when none). */
export async function seriousViolations(page: Page): Promise<string[]> {
  // evaluated through the DevTools protocol, which the page's CSP does not govern
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(await axeSource);
  const result = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run: (o: unknown) => Promise<any> } }).axe;
    return axe.run({ resultTypes: ['violations'] });
  });
  return (result.violations as { id: string; impact: string; help: string; nodes: { target: string[] }[] }[])
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** Clicks the page's download link named `link` and answers the CSV it downloads, a line an item. */
export async function downloadedCsv(page: Page, link: string): Promise<string[]> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: link }).click(),
  ]);
  const chunks: Buffer[] = [];
  for await (const chunk of (await download.createReadStream()) as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8').trim().split('\r\n');
}
