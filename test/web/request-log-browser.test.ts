import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AUDIENCES } from '../harness/client.ts';
import { downloadedCsv, signedInSuite, skipWithoutChromium } from './browser.ts';

/**
 * Issue 28 in a real browser: a developer reads the request log of a failed call on the dashboard
 * (what was sent, secrets masked, and what was answered), the operator reads the same account's in
 * the console, downloads the audit log as CSV and has its chain verified. axe finds nothing serious
 * or critical on these pages.
 */
describe('the request log and the audit log in a browser', { skip: skipWithoutChromium }, () => {
  const suite = signedInSuite({
    operator: { email: 'support@example.com', password: 'support passphrase 1' },
  });
  const secret = 'sk_test_pastedintothewrongfield';

  test('the developer finds a failed call, what was sent (masked) and answered, by status', async () => {
    const { customer, findings } = suite;
    const token = await suite.server.token(AUDIENCES.giftcardsSandbox);
    const ok = await suite.server.http.get('/giftcards-sandbox/accounts/balance', { token });
    assert.equal(ok.status, 200);
    const failed = await suite.server.http.post(
      '/giftcards-sandbox/orders',
      { productId: 11, quantity: 1, unitPrice: 'ten', senderName: secret },
      { token, headers: { 'x-request-id': 'req-browser-failed' } },
    );
    assert.equal(failed.status, 400);
    await customer.goto('/dashboard/#/requests?environment=sandbox');
    // written within 200 ms, off the request path
    const row = customer.getByRole('row').filter({ hasText: 'req-browser-failed' });
    for (let i = 0; i < 20 && (await row.count()) === 0; i++) {
      await customer.waitForTimeout(200);
      await customer.reload();
      await customer.locator('main h1 + div').waitFor();
    }
    await row.waitFor();
    await customer
      .getByRole('row')
      .filter({ hasText: '/giftcards-sandbox/accounts/balance' })
      .first()
      .waitFor();
    await findings.check(customer, 'dashboard requests');
    await customer.getByLabel('Status').selectOption('failed');
    await customer.getByRole('button', { name: 'Filter' }).click();
    await customer.waitForURL(/status=failed/);
    // The URL changes first; the page then asks for the filtered list and only replaces the table
    // once it has it, so until then the unfiltered rows are still there: wait for them to go.
    const reads = customer.getByRole('row').filter({ hasText: '/giftcards-sandbox/accounts/balance' });
    await reads.first().waitFor({ state: 'detached' });
    await row.waitFor();
    assert.equal(await reads.count(), 0, 'only failed requests');
    await row.getByText('Body of req-browser-failed').click();
    await row.getByText('"unitPrice":"ten"').waitFor();
    await row.getByText('"senderName":"[redacted]"').waitFor();
    await row.getByText('INVALID_REQUEST').first().waitFor();
    assert.equal(await customer.getByText(secret).count(), 0, 'the pasted secret is never shown');
    await findings.check(customer, 'dashboard failed requests');
    await customer.getByLabel('Path contains').fill('/nothing-like-this');
    await customer.getByRole('button', { name: 'Filter' }).click();
    await customer.getByText('No request matches these filters.').waitFor();
  });

  test("the operator reads the account's request log, downloads the audit log and verifies its chain", async () => {
    const { operator, findings } = suite;
    await operator.goto(`/console/#/account?id=${suite.server.credentials.accountId}`);
    await operator.getByRole('link', { name: 'API request log of this account' }).click();
    // the account's page (its Fund and Adjust forms have an Environment too) stays until the log's replaces it
    await operator.getByRole('form', { name: 'Fund' }).waitFor({ state: 'detached' });
    await operator.getByLabel('Environment').selectOption('sandbox');
    await operator.getByRole('button', { name: 'Show' }).click();
    await operator.getByRole('row').filter({ hasText: 'req-browser-failed' }).waitFor();
    await findings.check(operator, 'console requests');

    await operator.goto('/console/#/audit');
    await operator.getByRole('row').filter({ hasText: 'session.sign-in' }).first().waitFor();
    const lines = await downloadedCsv(operator, 'Download CSV');
    assert.match(lines[0], /^auditId,at,channel,actorKind,actorId,actor,/);
    assert.ok(lines.some((l) => l.includes('operator.create') && l.includes(',admin,admin-key,')));
    await operator.getByRole('button', { name: 'Verify the chain' }).click();
    await operator.getByText(/The chain of \d+ lines holds/).waitFor();
    await findings.check(operator, 'console audit');
    assert.deepEqual(findings.axe, []);
  });
});
