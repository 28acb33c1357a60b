import type { Static } from 'typebox';
import type {
  BankDetails,
  BankDetailsBody,
  BankDetailsList,
  ConfirmedTransfer,
  QueuedTransfer,
  QueuedTransferPage,
  RejectBody,
  TransferStatus,
} from '../../../funding/funding-schemas.ts';
import { explain, get, post } from '../../ui/api.ts';
import { append, confirmDialog, field, h, replace, select, status, table } from '../../ui/dom.ts';
import { go, type PageDef } from '../../ui/shell.ts';
import { actionForm, pageNumber, pager, rerender } from '../../ui/widgets.ts';

/**
 * The funding queue: bank transfers customers announced, confirmed (a FUNDING entry on the live
 * balance, once: a second click is told it was decided) or rejected with a reason; and the bank
 * details per currency that the customers' Add funds page shows.
 */
type Status = Static<typeof TransferStatus>;
const BADGE = { announced: 'pending', confirmed: 'successful', rejected: 'failed' } as const;

/** What the last change said, shown once by the page drawn after it (the list is read anew). */
let flash: string | null = null;
const redrawSaying = (text: string) => {
  flash = text;
  rerender();
};

/** Asks for the reason of a rejection in a modal dialog; resolves the reason, or null when cancelled. */
function reasonDialog(question: string): Promise<string | null> {
  return new Promise((resolve) => {
    const input = h('input', { name: 'reason', required: true, maxlength: 500 });
    const dialog = h('dialog', { 'aria-labelledby': 'reason-title', class: 'confirm' });
    const close = (answer: string | null) => {
      dialog.close();
      dialog.remove();
      resolve(answer);
    };
    const form = h(
      'form',
      {},
      h('h2', { id: 'reason-title' }, question),
      field('Reason (the customer reads it)', input),
      h(
        'div',
        { class: 'actions' },
        h('button', { type: 'submit', class: 'danger' }, 'Reject'),
        h('button', { type: 'button', onclick: () => close(null) }, 'Cancel'),
      ),
    );
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      if (input.value.trim()) close(input.value.trim());
    });
    dialog.addEventListener('cancel', () => close(null));
    append(dialog, [form]);
    document.body.append(dialog);
    dialog.showModal();
  });
}

function actionsOf(t: Static<typeof QueuedTransfer>, message: HTMLElement): Node | string {
  if (t.status === 'confirmed') return `by ${t.decidedBy ?? '—'} at ${t.decidedAt}`;
  if (t.status === 'rejected') return `${t.rejectReason} (${t.decidedBy ?? '—'})`;
  const what = `${t.amount} ${t.currencyCode} of ${t.accountName} (transfer ${t.transferId}, ${t.reference})`;
  return h(
    'div',
    { class: 'actions' },
    h(
      'button',
      {
        type: 'button',
        class: 'small primary',
        'aria-label': `Confirm transfer ${t.transferId}`,
        onclick: async () => {
          if (!(await confirmDialog(`Confirm ${what}? The live balance is funded.`, 'Confirm and fund')))
            return;
          try {
            const c = await post<typeof ConfirmedTransfer>(`/api/funding/transfers/${t.transferId}/confirm`);
            redrawSaying(
              `Transfer ${t.transferId} confirmed: ${c.accountName}'s live balance is now ${c.newBalance} ${c.currencyCode}.`,
            );
          } catch (error) {
            replace(message, status(explain(error), 'error'));
          }
        },
      },
      'Confirm',
    ),
    h(
      'button',
      {
        type: 'button',
        class: 'small danger',
        'aria-label': `Reject transfer ${t.transferId}`,
        onclick: async () => {
          const reason = await reasonDialog(`Reject ${what}?`);
          if (reason === null) return;
          try {
            await post<typeof QueuedTransfer, typeof RejectBody>(
              `/api/funding/transfers/${t.transferId}/reject`,
              {
                reason,
              },
            );
            redrawSaying(`Transfer ${t.transferId} rejected.`);
          } catch (error) {
            replace(message, status(explain(error), 'error'));
          }
        },
      },
      'Reject',
    ),
  );
}

function bankDetailsForm(): HTMLFormElement {
  const input = (name: string, attrs: Record<string, string | number | boolean> = {}) =>
    h('input', { name, autocomplete: 'off', ...attrs });
  const currency = input('currencyCode', { required: true, maxlength: 3, pattern: '[A-Za-z]{3}' });
  const holder = input('accountHolder', { required: true, maxlength: 200 });
  const number = input('accountNumber', { required: true, maxlength: 64 });
  const bic = input('bic', { maxlength: 14 });
  const bank = input('bankName', { required: true, maxlength: 200 });
  const instructions = h('textarea', { name: 'instructions', maxlength: 2000, rows: 3 });
  return actionForm(
    'Set bank details',
    [
      field('Currency (ISO 4217)', currency),
      field('Account holder', holder),
      field('IBAN / account number', number),
      field('BIC / SWIFT (optional)', bic),
      field('Bank name', bank),
      field('Instructions (optional)', instructions),
    ],
    'Save bank details',
    async () => {
      const saved = await post<typeof BankDetails, typeof BankDetailsBody>(
        `/api/bank-details/${encodeURIComponent(currency.value.trim())}`,
        {
          accountHolder: holder.value,
          accountNumber: number.value,
          bic: bic.value.trim() || null,
          bankName: bank.value,
          instructions: instructions.value.trim() || null,
        },
      );
      redrawSaying(`Saved: customers in ${saved.currencyCode} now see these bank details.`);
      return 'Saved.';
    },
  );
}

export const fundingPage: PageDef = {
  path: '/funding',
  title: 'Funding',
  async render(body, route) {
    const asked = route.query.get('status');
    const current: Status = asked === 'confirmed' || asked === 'rejected' ? asked : 'announced';
    const page = pageNumber(route);
    const [queue, banks] = await Promise.all([
      get<typeof QueuedTransferPage>('/api/funding/transfers', { status: current, page, size: 25 }),
      get<typeof BankDetailsList>('/api/bank-details'),
    ]);
    const picker = select<Status>(
      'status',
      [
        ['announced', 'Announced: to confirm or reject'],
        ['confirmed', 'Confirmed'],
        ['rejected', 'Rejected'],
      ],
      current,
    );
    const filters = h(
      'form',
      { class: 'filters', 'aria-label': 'Transfers' },
      field('Status', picker),
      h('button', { type: 'submit', class: 'primary' }, 'Show'),
    );
    filters.addEventListener('submit', (event) => {
      event.preventDefault();
      go('/funding', { status: picker.value });
    });
    const message = h('div', { class: 'message', 'aria-live': 'polite' }, flash ? status(flash) : null);
    flash = null;
    body.append(
      filters,
      message,
      queue.items.length === 0 && current === 'announced'
        ? h('p', { class: 'card' }, 'No transfer is waiting: the queue is empty.')
        : table(
            current === 'announced'
              ? 'Announced transfers, oldest first'
              : `${current} transfers, newest first`,
            [
              'Transfer',
              'Account',
              'Announced (UTC)',
              'Sent on',
              'Amount',
              'Reference',
              'Payer reference',
              'Status',
              '',
            ],
            queue.items.map((t) => [
              String(t.transferId),
              h('a', { href: `#/account?id=${t.accountId}` }, `${t.accountName} (${t.accountId})`),
              t.announcedAt,
              t.transferDate,
              `${t.amount} ${t.currencyCode}`,
              h('code', {}, t.reference),
              t.payerReference ?? '—',
              h('span', { class: `badge ${BADGE[t.status]}` }, t.status),
              actionsOf(t, message),
            ]),
          ),
      pager(page, queue.hasMore, (p) => go('/funding', { status: current, page: String(p) })),
      h('h2', {}, 'Bank details per currency'),
      table(
        'What customers are told to pay into',
        ['Currency', 'Account holder', 'IBAN / account number', 'BIC', 'Bank', 'Updated (UTC)'],
        banks.items.map((b) => [
          b.currencyCode,
          b.accountHolder,
          b.accountNumber,
          b.bic ?? '—',
          b.bankName,
          b.updatedAt,
        ]),
      ),
      bankDetailsForm(),
    );
  },
};
