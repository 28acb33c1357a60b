import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { base32Decode, stepAt, totpCode } from '../../src/lib/totp.ts';
import { AUDIENCES } from '../harness/client.ts';
import { queryDatabase } from '../harness/server-process.ts';
import {
  acceptInvitation,
  collectCspViolations,
  downloadedCsv,
  newContext,
  sandboxUser,
  seriousViolations,
  serverAndBrowser,
  signIn,
  skipWithoutChromium,
} from './browser.ts';

/**
 * The account dashboard and the operator console in a real browser (Debian's Chromium driven by
 * playwright-core) against a real server process: what a customer and an operator do, and what
 * they must not be able to do.
 */
describe('dashboard and console in a browser', { skip: skipWithoutChromium }, () => {
  const suite = serverAndBrowser();
  let customer: BrowserContext;
  let page: Page;
  let user: { email: string; password: string };
  const cspViolations: string[] = [];
  /** axe findings of pages met in other tests (the TOTP enrolment) */
  const problemsOf: string[] = [];

  before(async () => {
    user = await sandboxUser(suite.server);
    customer = await newContext(suite.browser, suite.server);
    page = await customer.newPage();
    collectCspViolations(page, cspViolations);
  });

  test('the bootstrap user signs in and sees the sandbox balance; the banner printed the password', async () => {
    assert.match(suite.server.output(), new RegExp(`password\\s+${user.password}`));
    await signIn(page, '/dashboard', user.email, user.password);
    await page.goto('/dashboard/#/overview?environment=sandbox');
    await assert.doesNotReject(page.getByTestId('balance-sandbox').getByText('10,000.00 USD').waitFor());
    const cookies = await customer.cookies();
    const session = cookies.find((c) => c.name === 'airgift_dashboard');
    assert.ok(session, 'a session cookie');
    assert.equal(session.httpOnly, true);
    assert.equal(session.secure, true);
    assert.equal(session.sameSite, 'Lax');
    assert.equal(session.path, '/dashboard');
    const rows = await queryDatabase<{ n: string }>(
      suite.server.database,
      'SELECT count(*) AS n FROM web_sessions WHERE token_hash = $1',
      [session.value],
    );
    assert.equal(rows[0].n, '0', 'the database keeps only a hash of the session token');
  });

  test('a page still loading never replaces the page navigated to after it', async () => {
    // the overview's data is held back while the user goes on to the webhooks page
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/dashboard/api/overview?*', async (route) => {
      await held;
      await route.continue();
    });
    const to = (hash: string) =>
      page.evaluate((h) => {
        location.hash = h;
      }, hash);
    try {
      await to('#/webhooks?environment=sandbox');
      await page.getByRole('heading', { name: 'Add an endpoint (sandbox)' }).waitFor();
      const overviewAnswered = page.waitForResponse('**/dashboard/api/overview?*');
      await to('#/overview?environment=sandbox');
      await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
      await to('#/webhooks?environment=sandbox');
      await page.getByRole('heading', { name: 'Add an endpoint (sandbox)' }).waitFor();
      release();
      await overviewAnswered;
      await page.waitForTimeout(300); // the overview's render would replace the page now
      assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Webhooks');
      assert.ok(await page.getByRole('heading', { name: 'Add an endpoint (sandbox)' }).isVisible());
    } finally {
      release();
      await page.unroute('**/dashboard/api/overview?*');
    }
  });

  test('a credential is created (secret shown once), gets a token, and is revoked after confirmation', async () => {
    await page.goto('/dashboard/#/credentials?environment=sandbox');
    await page.getByRole('button', { name: 'Create credential' }).click();
    const clientId = (await page.getByTestId('new-client-id').textContent()) as string;
    const clientSecret = (await page.getByTestId('new-client-secret').textContent()) as string;
    assert.match(clientId, /^ag_test_/);
    const token = await suite.server.http.post('/auth/oauth/token', {
      client_id: clientId,
      client_secret: clientSecret,
      grant_type: 'client_credentials',
      audience: AUDIENCES.giftcardsSandbox,
    });
    assert.equal(token.status, 200);
    await page.getByRole('button', { name: 'Done' }).click();
    const row = page.getByRole('row').filter({ hasText: clientId });
    await assert.doesNotReject(
      row
        .getByText(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/)
        .nth(1)
        .waitFor(),
      'last use shown',
    );
    await row.getByRole('button', { name: `Revoke ${clientId}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('row').filter({ hasText: clientId }).getByText('revoked').waitFor();
    const stored = await page.evaluate(
      () => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }),
    );
    assert.ok(!stored.includes(clientSecret), 'no secret in web storage');
    assert.equal(stored, '{}{}');
    const refused = await suite.server.http.post('/auth/oauth/token', {
      client_id: clientId,
      client_secret: clientSecret,
      grant_type: 'client_credentials',
      audience: AUDIENCES.giftcardsSandbox,
    });
    assert.equal(refused.status, 401);
  });

  let orderId: number;
  test('a sandbox order is on the transactions page; its codes are revealed on click and the reveal recorded', async () => {
    const token = await suite.server.token(AUDIENCES.giftcardsSandbox);
    const order = await suite.server.http.post(
      '/giftcards-sandbox/orders',
      { productId: 11, quantity: 1, unitPrice: 10, senderName: 'Ada', customIdentifier: 'browser-order-1' },
      { token },
    );
    assert.equal(order.status, 200, order.text);
    orderId = order.body.transactionId;
    await page.goto('/dashboard/#/transactions?environment=sandbox&customIdentifier=browser-order-1');
    const row = page.getByRole('row').filter({ hasText: 'browser-order-1' });
    await row.getByText('SUCCESSFUL').waitFor();
    const cards = await suite.server.http.get(`/giftcards-sandbox/orders/transactions/${orderId}/cards`, {
      token,
    });
    await row.getByRole('button', { name: `Show codes of gift card order ${orderId}` }).click();
    await row.getByText(String(cards.body[0].cardNumber)).waitFor();
    const reveals = await queryDatabase<{ transaction_id: string }>(
      suite.server.database,
      'SELECT transaction_id FROM web_code_reveals',
    );
    assert.deepEqual(
      reveals.map((r) => Number(r.transaction_id)),
      [orderId],
    );
  });

  test('the CSV export holds the filtered transactions', async () => {
    await page.goto('/dashboard/#/transactions?environment=sandbox&product=giftcards');
    const lines = await downloadedCsv(page, 'Export CSV');
    assert.equal(
      lines[0],
      'product,transactionId,status,description,customIdentifier,cost,currencyCode,createdAt',
    );
    assert.ok(
      lines.some((l) => l.startsWith(`giftcards,${orderId},SUCCESSFUL,`) && l.includes('browser-order-1')),
    );
  });

  test("another account's data is never shown: tampered ids answer 404 and lists hold only the user's own", async () => {
    const other = await suite.server.admin.ok('POST', '/accounts', {
      name: 'Other',
      currency: 'USD',
      country: 'US',
      environment: 'sandbox',
      fund: 100,
    });
    const otherToken = (
      await suite.server.http.post('/auth/oauth/token', {
        client_id: other.clientId,
        client_secret: other.clientSecret,
        grant_type: 'client_credentials',
        audience: AUDIENCES.giftcardsSandbox,
      })
    ).body.access_token;
    const theirs = await suite.server.http.post(
      '/giftcards-sandbox/orders',
      { productId: 11, quantity: 1, unitPrice: 10, senderName: 'Eve', customIdentifier: 'other-order' },
      { token: otherToken },
    );
    assert.equal(theirs.status, 200);
    const answers = await page.evaluate(
      async ({ id, clientId, other }) => {
        const session = await (await fetch('/dashboard/api/session')).json();
        const post = (path: string) =>
          fetch(path, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-csrf-token': session.csrfToken },
            body: '{}',
          }).then((r) => r.status);
        const list = await (
          await fetch('/dashboard/api/transactions?environment=sandbox&customIdentifier=other-order')
        ).json();
        return {
          codes: await post(`/dashboard/api/giftcards/transactions/${id}/codes?environment=sandbox`),
          revoke: await post(`/dashboard/api/credentials/${clientId}/revoke`),
          listed: list.items.length,
          // an account id in the query is no parameter: the overview stays the user's own account
          accountQuery: (
            await (await fetch(`/dashboard/api/overview?environment=sandbox&accountId=${other}`)).json()
          ).account.accountId,
        };
      },
      { id: theirs.body.transactionId, clientId: other.clientId, other: other.accountId },
    );
    assert.deepEqual(answers, {
      codes: 404,
      revoke: 404,
      listed: 0,
      accountQuery: suite.server.credentials.accountId,
    });
    const stillValid = await suite.server.http.post('/auth/oauth/token', {
      client_id: other.clientId,
      client_secret: other.clientSecret,
      grant_type: 'client_credentials',
      audience: AUDIENCES.giftcardsSandbox,
    });
    assert.equal(stillValid.status, 200, "the other account's credential was not revoked");
  });

  test('a mutation without the CSRF token, or with a wrong one, is refused', async () => {
    const statuses = await page.evaluate(async () => {
      const body = JSON.stringify({ environment: 'sandbox', scopes: ['developer'] });
      const send = (headers: Record<string, string>) =>
        fetch('/dashboard/api/credentials', {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body,
        }).then((r) => r.status);
      return [await send({}), await send({ 'x-csrf-token': 'forged' })];
    });
    assert.deepEqual(statuses, [403, 403]);
    const rows = await queryDatabase<{ n: string }>(
      suite.server.database,
      "SELECT count(*) AS n FROM credentials WHERE account_id = $1 AND scopes = '{developer}'",
      [suite.server.credentials.accountId],
    );
    assert.equal(rows[0].n, '0');
  });

  test('the operator funds an account in the console and the customer sees it; the audit log has it', async () => {
    const invited = await suite.server.admin.ok('POST', '/operators', { email: 'ops@example.com' });
    const operator = await newContext(suite.browser, suite.server);
    const console = await operator.newPage();
    await acceptInvitation(console, suite.server, invited.link, 'operator passphrase 1');
    await signIn(console, '/console', 'ops@example.com', 'operator passphrase 1');
    await console.goto('/console/#/accounts?search=Sandbox');
    const id = suite.server.credentials.accountId;
    await console.getByRole('link', { name: String(id), exact: true }).click();
    const fund = console.getByRole('form', { name: 'Fund' });
    await fund.getByLabel('Environment').selectOption('sandbox');
    await fund.getByLabel('Amount').fill('123.45');
    await fund.getByLabel('Reason').fill('wire 42');
    await fund.getByRole('button', { name: 'Fund' }).click();
    // it asks first: cancelled, nothing moves; confirmed, the new balance is shown
    const asked = console.getByRole('dialog', { name: /Fund the sandbox balance of .* with 123.45 USD\?/ });
    await asked.getByRole('button', { name: 'Cancel' }).click();
    await fund.getByText('Not funded.').waitFor();
    await fund.getByRole('button', { name: 'Fund' }).click();
    await asked.getByRole('button', { name: 'Fund' }).click();
    await fund.getByText(/Funded 123.45 USD: the new sandbox balance is [\d,.]+ USD/).waitFor();
    await page.goto('/dashboard/#/balance?environment=sandbox');
    await page.getByRole('row').filter({ hasText: 'wire 42' }).getByText('123.45 USD').first().waitFor();
    const audit = await suite.server.admin.ok('GET', '/audit');
    const entry = audit.items.find((e: { action: string }) => e.action === 'account.fund');
    assert.equal(entry.actor, 'ops@example.com');
    assert.equal(entry.target, `account ${id}`);
    assert.equal(entry.details.amount, '123.45');
    assert.ok(entry.ip);
    await console.goto('/console/#/audit');
    await console.getByRole('row').filter({ hasText: 'account.fund' }).waitFor();
    // an operator session is no dashboard session, and the reverse
    const crossed = await console.evaluate(() => fetch('/dashboard/api/session').then((r) => r.status));
    assert.equal(crossed, 401);
    await operator.close();
  });

  test('the operator deactivates a top-up operator in the console: refused to customers, audited, back on', async () => {
    const operator = await newContext(suite.browser, suite.server);
    const ops = await operator.newPage();
    await signIn(ops, '/console', 'ops@example.com', 'operator passphrase 1');
    await ops.goto('/console/#/operators?search=1001');
    const row = ops.getByRole('row').filter({ hasText: 'Nigeria' }).first();
    await row.getByText('ACTIVE').waitFor();
    await row.getByRole('button', { name: 'Deactivate operator 1001' }).click();
    await ops.getByRole('dialog').getByRole('button', { name: 'Deactivate' }).click();
    await row.getByText('INACTIVE').waitFor();
    const token = await suite.server.token(AUDIENCES.topupsSandbox);
    const sent = await suite.server.http.post(
      '/topups-sandbox/topups',
      { operatorId: 1001, amount: 5, recipientPhone: { countryCode: 'NG', number: '08031234567' } },
      { token },
    );
    assert.equal(sent.status, 422);
    assert.equal(sent.body.errorCode, 'OPERATOR_UNAVAILABLE_OR_CURRENTLY_INACTIVE');
    await row.getByRole('button', { name: 'Activate operator 1001' }).click();
    await ops.getByRole('dialog').getByRole('button', { name: 'Activate' }).click();
    await row.getByText('ACTIVE', { exact: true }).waitFor();
    assert.equal((await suite.server.http.get('/topups-sandbox/operators/1001', { token })).status, 200);
    await ops.goto('/console/#/audit');
    await ops.getByRole('row').filter({ hasText: 'topup-operator.inactive' }).waitFor();
    await ops.getByRole('row').filter({ hasText: 'topup-operator.active' }).waitFor();
    await ops.goto('/console/#/reports?environment=sandbox');
    await ops
      .getByTestId('revenue-note')
      .getByText(/converted to USD/)
      .waitFor();
    await operator.close();
  });

  test('two-step sign-in: enrol with the shown secret, sign out, sign in with a computed code; a wrong code refused', async () => {
    const invited = await suite.server.admin.ok(
      'POST',
      `/accounts/${suite.server.credentials.accountId}/users`,
      {
        email: 'totp@example.com',
      },
    );
    const visitor = await newContext(suite.browser, suite.server);
    const p = await visitor.newPage();
    await acceptInvitation(p, suite.server, invited.link, 'totp passphrase 1');
    await signIn(p, '/dashboard', 'totp@example.com', 'totp passphrase 1');
    await p.goto('/dashboard/#/security');
    await p.getByRole('button', { name: 'Turn on two-step sign-in' }).click();
    const secret = base32Decode((await p.getByTestId('totp-secret').textContent()) as string);
    const uri = new URL((await p.getByTestId('totp-uri').textContent()) as string);
    assert.equal(uri.protocol, 'otpauth:');
    await p.getByRole('img', { name: /QR code/ }).waitFor();
    problemsOf.push(...(await seriousViolations(p)).map((v) => `dashboard security (enrolment): ${v}`));
    const confirmedAt = stepAt(Date.now());
    await p.getByLabel('Code', { exact: true }).fill(totpCode(secret, confirmedAt));
    await p.getByRole('button', { name: 'Turn on', exact: true }).click();
    // the recovery codes, shown this once
    await p.getByTestId('recovery-codes').waitFor();
    const recovery = await p.getByTestId('recovery-codes').locator('li').allTextContents();
    assert.equal(recovery.length, 10);
    problemsOf.push(...(await seriousViolations(p)).map((v) => `dashboard security (recovery codes): ${v}`));
    await p.getByRole('button', { name: 'I have kept them' }).click();
    await p.getByTestId('totp-state').getByText('Two-step sign-in is on').waitFor();
    await p.getByTestId('recovery-left').getByText('10 of 10 recovery codes left').waitFor();
    await p.getByRole('button', { name: 'Sign out' }).click();

    await p.getByLabel('E-mail').fill('totp@example.com');
    await p.getByLabel('Password', { exact: true }).fill('totp passphrase 1');
    await p.getByRole('button', { name: 'Sign in' }).click();
    const code = p.getByLabel('Code from your authenticator app');
    await code.waitFor();
    problemsOf.push(...(await seriousViolations(p)).map((v) => `sign-in (code asked): ${v}`));
    const step = Math.max(stepAt(Date.now()), confirmedAt + 1);
    const right = totpCode(secret, step);
    await code.fill(right === '000000' ? '111111' : '000000');
    await p.getByRole('button', { name: 'Sign in' }).click();
    await p.getByText('Wrong or already used code').waitFor();
    await code.fill(right);
    await p.getByRole('button', { name: 'Sign in' }).click();
    await p.getByRole('button', { name: 'Sign out' }).waitFor();
    await visitor.close();
  });

  test('five failed sign-ins lock the e-mail, even against the right password', async () => {
    const invited = await suite.server.admin.ok(
      'POST',
      `/accounts/${suite.server.credentials.accountId}/users`,
      {
        email: 'locked@example.com',
      },
    );
    const visitor = await newContext(suite.browser, suite.server);
    const p = await visitor.newPage();
    await acceptInvitation(p, suite.server, invited.link, 'the right passphrase');
    const attempt = (password: string) =>
      p.evaluate(
        (pw) =>
          fetch('/dashboard/api/sign-in', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ email: 'locked@example.com', password: pw }),
          }).then((r) => r.status),
        password,
      );
    const failures = [];
    for (let i = 0; i < 5; i++) failures.push(await attempt('wrong passphrase!'));
    assert.deepEqual(failures, [401, 401, 401, 401, 401]);
    assert.equal(await attempt('the right passphrase'), 429);
    // the invitation link works once only
    const again = await p.evaluate(
      (token) =>
        fetch('/dashboard/api/welcome', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ token, password: 'another passphrase' }),
        }).then((r) => r.status),
      new URL(invited.link).hash.split('/').pop() as string,
    );
    assert.equal(again, 404);
    await visitor.close();
  });

  test('every page has a CSP without inline scripts and no serious or critical axe violation', async () => {
    const problems: string[] = [];
    const answer = await page.goto('/dashboard/');
    const csp = answer?.headers()['content-security-policy'] ?? '';
    assert.match(csp, /script-src 'self'/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
    for (const path of [
      'overview',
      'credentials',
      'transactions',
      'balance',
      'docs',
      'settings',
      'security',
    ]) {
      await page.goto(`/dashboard/#/${path}?environment=sandbox`);
      await page.locator('main h1 + div').waitFor();
      problems.push(...(await seriousViolations(page)).map((v) => `dashboard ${path}: ${v}`));
    }
    const anonymous = await newContext(suite.browser, suite.server);
    const signInPage = await anonymous.newPage();
    await signInPage.goto('/dashboard/');
    await signInPage.getByRole('button', { name: 'Sign in' }).waitFor();
    problems.push(...(await seriousViolations(signInPage)).map((v) => `sign-in: ${v}`));
    await signIn(signInPage, '/console', 'ops@example.com', 'operator passphrase 1');
    // an upstream, so that the catalogue page shows its status (its balance cannot be read: port 9)
    await suite.server.admin.ok('PUT', '/upstreams/giftcards', {
      url: 'https://127.0.0.1:9/giftcards',
      authUrl: 'https://127.0.0.1:9/auth',
      clientId: 'reseller-at-upstream',
      clientSecret: 'upstream secret 0123',
      marginPercent: 2,
    });
    for (const path of [
      'accounts',
      `account?id=${suite.server.credentials.accountId}`,
      'transactions',
      'reports',
      'catalogue',
      'operators',
      'audit',
      'security',
    ]) {
      await signInPage.goto(`/console/#/${path}`);
      await signInPage.locator('main h1 + div').waitFor();
      if (path === 'catalogue') {
        await signInPage.getByText('Upstreams (live fulfilment)').waitFor();
        await signInPage.getByText('reseller-at-upstream').waitFor();
        assert.equal(
          await signInPage.getByText('upstream secret 0123').count(),
          0,
          'the secret is never shown',
        );
      }
      problems.push(...(await seriousViolations(signInPage)).map((v) => `console ${path}: ${v}`));
    }
    await anonymous.close();
    problems.push(...problemsOf);
    assert.deepEqual(problems, []);
    assert.deepEqual(cspViolations, [], 'the pages break none of their own CSP');
  });

  test("the customer switches the account's gift card shapes on the Settings page (issue 27)", async () => {
    const id = suite.server.credentials.accountId;
    await page.goto('/dashboard/#/settings');
    const form = page.getByRole('form', { name: 'Gift card API shapes' });
    assert.equal(await form.getByLabel('Shapes').inputValue(), 'documented');
    await form.getByLabel('Shapes').selectOption('service');
    await form.getByRole('button', { name: 'Save shapes' }).click();
    await form.getByText('Saved: the service shapes.').waitFor();
    assert.equal((await suite.server.admin.ok('GET', `/accounts/${id}`)).shapes, 'service');
    const entry = (await suite.server.admin.ok('GET', '/audit')).items.find(
      (e: { action: string }) => e.action === 'account.shapes',
    );
    assert.equal(entry.actor, user.email);
    assert.deepEqual(entry.details, { shapes: 'service' });
    await form.getByLabel('Shapes').selectOption('documented');
    await form.getByRole('button', { name: 'Save shapes' }).click();
    await form.getByText('Saved: the documented shapes.').waitFor();
  });

  test('signing out ends the session on the server', async () => {
    const cookie = (await customer.cookies()).find((c) => c.name === 'airgift_dashboard');
    await page.goto('/dashboard/#/overview');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    const replay = await suite.server.http.get('/dashboard/api/session', {
      headers: { cookie: `airgift_dashboard=${cookie?.value}` },
    });
    assert.equal(replay.status, 401);
  });
});
