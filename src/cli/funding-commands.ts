import { type Command, Option } from 'commander';
import type { BankDetails, FundingTransfer, TransferStatus } from '../../sdk/src/index.ts';
import { columns, type JsonOption, leaf, type Run, table, wholeNumber } from './command-parts.ts';

/** Transfers as aligned columns. */
function transfersText(items: FundingTransfer[]): string {
  if (items.length === 0) return 'no transfer matches';
  return columns(
    ['id', 'account', 'amount', 'sent on', 'reference', 'payer reference', 'status', 'decided'],
    items.map((t) => [
      String(t.transferId),
      `${t.accountId} ${t.accountName}`,
      `${t.amount} ${t.currencyCode}`,
      t.transferDate,
      t.reference,
      t.payerReference ?? '-',
      t.status,
      t.decidedAt ? `${t.decidedAt} by ${t.decidedBy}${t.rejectReason ? `: ${t.rejectReason}` : ''}` : '-',
    ]),
  );
}

function bankDetailsText(items: BankDetails[]): string {
  if (items.length === 0) return 'no bank details set';
  return columns(
    ['currency', 'account holder', 'account number', 'bic', 'bank'],
    items.map((b) => [b.currencyCode, b.accountHolder, b.accountNumber, b.bic ?? '-', b.bankName]),
  );
}

interface BankOptions extends JsonOption {
  holder: string;
  account: string;
  bic?: string;
  bank: string;
  instructions?: string;
}

/**
 * `bank-details set|list|remove` and `transfers list|confirm|reject`: funding by bank transfer
 * (docs/funding.md). Customers announce transfers on the dashboard; the operator confirms them here
 * or in the console's Funding page.
 */
export function addFundingCommands(program: Command, run: Run): void {
  const bank = program
    .command('bank-details')
    .description("where customers send bank transfers, per currency (the dashboard's Add funds page)");
  leaf(bank, 'set', "sets (or replaces) a currency's bank details")
    .argument('<currency>', 'ISO 4217 code, e.g. EUR')
    .requiredOption('--holder <name>', 'account holder')
    .requiredOption('--account <iban>', 'IBAN or account number')
    .option('--bic <bic>', 'BIC / SWIFT code (8 or 11 characters)')
    .requiredOption('--bank <name>', 'bank name')
    .option('--instructions <text>', 'free text shown under the details')
    .action((currency: string, o: BankOptions) =>
      run(o.json, async (admin) => {
        const set = await admin.funding.setBankDetails(currency, {
          accountHolder: o.holder,
          accountNumber: o.account,
          bic: o.bic ?? null,
          bankName: o.bank,
          instructions: o.instructions ?? null,
        });
        return { json: set, text: table(set) };
      }),
    );
  leaf(bank, 'list', 'the bank details of every currency').action((o: JsonOption) =>
    run(o.json, async (admin) => {
      const list = await admin.funding.bankDetails();
      return { json: list, text: bankDetailsText(list.items) };
    }),
  );
  leaf(bank, 'remove', "removes a currency's bank details (its customers can no longer announce transfers)")
    .argument('<currency>', 'ISO 4217 code')
    .action((currency: string, o: JsonOption) =>
      run(o.json, async (admin) => {
        const removed = await admin.funding.removeBankDetails(currency);
        return { json: removed, text: `bank details of ${removed.currencyCode} removed` };
      }),
    );

  const transfers = program
    .command('transfers')
    .description('bank transfers customers announced: confirm (funds the live balance) or reject');
  leaf(transfers, 'list', 'transfers, by default the announced ones (oldest first)')
    .addOption(
      new Option('--status <status>', 'which ones')
        .choices(['announced', 'confirmed', 'rejected'])
        .default('announced'),
    )
    .option('--account <id>', 'only this account', wholeNumber)
    .option('--page <n>', 'page', wholeNumber, 1)
    .action((o: JsonOption & { status: TransferStatus; account?: number; page: number }) =>
      run(o.json, async (admin) => {
        const page = await admin.funding.transfers({ status: o.status, accountId: o.account, page: o.page });
        return { json: page, text: transfersText(page.items) };
      }),
    );
  leaf(transfers, 'confirm', "the money arrived: one FUNDING entry on the account's live balance (once)")
    .argument('<id>', 'transfer id', wholeNumber)
    .action((id: number, o: JsonOption) =>
      run(o.json, async (admin) => {
        const c = await admin.funding.confirm(id);
        return {
          json: c,
          text: `transfer ${id} confirmed: account ${c.accountId} funded ${c.amount} ${c.currencyCode}, live balance ${c.newBalance} ${c.currencyCode}`,
        };
      }),
    );
  leaf(transfers, 'reject', 'rejects a transfer; the customer reads the reason')
    .argument('<id>', 'transfer id', wholeNumber)
    .requiredOption('--reason <text>', 'why (the customer reads it)')
    .action((id: number, o: JsonOption & { reason: string }) =>
      run(o.json, async (admin) => {
        const r = await admin.funding.reject(id, o.reason);
        return { json: r, text: `transfer ${id} rejected: ${r.rejectReason}` };
      }),
    );
}
