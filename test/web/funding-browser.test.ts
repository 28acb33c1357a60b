import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { referenceOf } from '../../src/modules/funding/index.ts';
import { downloadedCsv, signedInSuite, skipWithoutChromium } from './browser.ts';

/**
 * Issue 28 in a real browser: a customer adds funds to the live balance by bank transfer (the bank
 * details and the account's reference, the announcement), the operator confirms one transfer and
 * rejects another from the console's funding queue, the customer sees both outcomes, prints the
 * receipt and downloads the month's statement. axe finds nothing serious or critical on these pages,
 * and none breaks its CSP.
 */
describe('funding by bank transfer in a browser', { skip: skipWithoutChromium }, () => {
  const suite = signedInSuite({ operator: { email: 'money@example.com', password: 'money passphrase 1' } });

  before(async () => {
    await suite.server.admin.ok('PUT', '/bank-details/USD', {
      accountHolder: 'Airgift Operations Ltd',
      accountNumber: 'GB33 BUKB 2020 1555 5555 55',
      bic: 'BUKBGB22',
      bankName: 'Barclays',
      instructions: 'Faster Payments or SWIFT; charges are yours.',
    });
  });

  test('the customer finds Add funds from the live balance and announces two transfers', async () => {
    const { customer, findings } = suite;
    await customer.goto('/dashboard/#/overview?environment=live');
    await customer.getByRole('link', { name: 'Add funds' }).first().click();
    await customer.waitForURL(/#\/add-funds\?environment=live/);
    const reference = referenceOf(suite.server.credentials.accountId);
    assert.equal(await customer.getByTestId('funding-reference').textContent(), reference);
    await customer.getByText('GB33 BUKB 2020 1555 5555 55').waitFor();
    await customer.getByText('BUKBGB22').waitFor();
    await findings.check(customer, 'add funds');

    const form = customer.getByRole('form', { name: 'Tell us about your transfer' });
    await form.getByLabel('Amount (USD)').fill('250.005');
    await form.getByRole('button', { name: 'Announce transfer' }).click();
    await form.getByText(/at most 2 decimals in USD/).waitFor();
    await form.getByLabel('Amount (USD)').fill('250');
    await form.getByLabel('Your own reference (optional)').fill('INV-7');
    await form.getByRole('button', { name: 'Announce transfer' }).click();
    await customer.getByText(/Transfer \d+ of 250.00 USD announced/).waitFor();
    await customer.getByRole('row').filter({ hasText: 'INV-7' }).getByText('announced').waitFor();
    await form.getByLabel('Amount (USD)').fill('10');
    await form.getByLabel('Your own reference (optional)').fill('INV-8');
    await form.getByRole('button', { name: 'Announce transfer' }).click();
    await customer.getByRole('row').filter({ hasText: 'INV-8' }).getByText('announced').waitFor();
    await findings.check(customer, 'add funds, announced');

    await customer.goto('/dashboard/#/add-funds?environment=sandbox');
    await customer.getByText('Sandbox balances hold test money').waitFor();
  });

  test('the operator confirms one from the funding queue (asked first) and rejects the other with a reason', async () => {
    const { operator, findings } = suite;
    await operator.goto('/console/#/funding');
    const first = operator.getByRole('row').filter({ hasText: 'INV-7' });
    await first.waitFor();
    await findings.check(operator, 'console funding');
    await first.getByRole('button', { name: /Confirm transfer/ }).click();
    const asked = operator.getByRole('dialog');
    await asked.getByText(/Confirm 250.00 USD of .*\? The live balance is funded./).waitFor();
    await findings.check(operator, 'console confirm dialog');
    await asked.getByRole('button', { name: 'Confirm and fund' }).click();
    await operator.getByText(/confirmed: .* live balance is now 250.00 USD/).waitFor();

    const second = operator.getByRole('row').filter({ hasText: 'INV-8' });
    await second.getByRole('button', { name: /Reject transfer/ }).click();
    await operator
      .getByLabel('Reason (the customer reads it)')
      .fill('No payment with this reference arrived');
    await findings.check(operator, 'console reject dialog');
    await operator.getByRole('dialog').getByRole('button', { name: 'Reject' }).click();
    await operator.getByText(/Transfer \d+ rejected/).waitFor();
    await operator.getByText('No transfer is waiting: the queue is empty.').waitFor();
    await operator.getByLabel('Status').selectOption('confirmed');
    await operator.getByRole('button', { name: 'Show' }).click();
    await operator.getByRole('row').filter({ hasText: 'INV-7' }).getByText('by money@example.com').waitFor();
    await findings.check(operator, 'console funding, confirmed');
  });

  test('the customer sees both outcomes, prints the receipt and downloads the statement', async () => {
    const { customer, findings } = suite;
    await customer.goto('/dashboard/#/add-funds?environment=live');
    await customer
      .getByRole('row')
      .filter({ hasText: 'INV-8' })
      .getByText('No payment with this reference arrived')
      .waitFor();
    await customer.getByRole('row').filter({ hasText: 'INV-7' }).getByText('confirmed').waitFor();
    await customer.getByRole('link', { name: /Receipt of transfer/ }).click();
    await customer.getByTestId('receipt-amount').getByText('250.00 USD').waitFor();
    await customer.getByText('INV-7', { exact: true }).waitFor();
    await findings.check(customer, 'receipt');

    await customer.goto('/dashboard/#/statements?environment=live');
    await customer.getByTestId('closing').getByText('250.00 USD').waitFor();
    assert.equal(await customer.getByTestId('opening').textContent(), '0.00 USD');
    await findings.check(customer, 'statements');
    const lines = await downloadedCsv(customer, 'Download CSV');
    assert.match(lines[1], /,OPENING_BALANCE,,0\.00,USD,/);
    assert.match(lines[2], /,FUNDING,250\.00,250\.00,USD,/);
    assert.match(lines[3], /,CLOSING_BALANCE,,250\.00,USD,/);
    assert.deepEqual(findings.axe, []);
    assert.deepEqual(findings.csp, []);
  });
});
