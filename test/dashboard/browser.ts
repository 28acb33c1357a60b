import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { ADMIN_KEY } from '../harness/server.ts';
import type { ServerProcess } from '../harness/server-process.ts';

/**
 * The browser side of the dashboard and console suites (and `scripts/screenshots.ts`): Debian's
 * Chromium driven by playwright-core, one browser per suite, one context (cookie jar) per person.
 * The server's certificate is the harness's development CA's, so contexts ignore HTTPS errors.
 */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);

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

/** An admin API call (the operator's key). */
export async function admin(server: ServerProcess, method: string, path: string, body?: unknown) {
  const answer = await server.http.call(method, `/admin${path}`, {
    headers: { authorization: `Bearer ${ADMIN_KEY}` },
    body,
  });
  if (answer.status !== 200) throw new Error(`admin ${method} ${path}: ${answer.status} ${answer.text}`);
  return answer.body;
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
