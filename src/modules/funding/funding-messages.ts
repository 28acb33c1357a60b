import { minorUnitText } from '../../lib/money.ts';
import {
  DEFAULT_BRAND,
  MessageGone,
  type MessageKind,
  type Messaging,
  renderEmail,
} from '../messaging/index.ts';
import type { FundingRepository } from './funding-repository.ts';
import { TRANSFER_MESSAGE } from './funding-service.ts';

/**
 * The e-mails of a bank transfer's changes (a kind of the messaging outbox): the customer's users and
 * the console's operators hear of each one (announced, confirmed, rejected). The message holds the
 * transfer's id, the status it announces and the side; it is rendered at send time from the transfer.
 */
export function registerFundingMessages(
  messaging: Messaging,
  repository: FundingRepository,
  links: { dashboardUrl: string; consoleUrl: string },
): void {
  const kind: MessageKind = {
    async render(message) {
      const t = await repository.find(Number(message.data.transferId));
      if (!t) throw new MessageGone('the transfer is gone');
      const status = String(message.data.status);
      const customer = message.data.side === 'customer';
      const amount = `${minorUnitText(t.amount, t.currency_code)} ${t.currency_code}`;
      const facts: [string, string][] = [
        ['Amount', amount],
        ['Reference', t.reference],
        ['Sent on', t.transfer_date],
        ...(t.payer_reference ? [['Payer reference', t.payer_reference] as [string, string]] : []),
      ];
      const button = customer
        ? { label: 'Open Add funds', url: `${links.dashboardUrl}/#/add-funds?environment=live` }
        : { label: 'Open the funding queue', url: `${links.consoleUrl}/#/funding` };
      const who = customer ? 'Your transfer' : `The transfer of ${t.account_name} (account ${t.account_id})`;
      const words: Record<string, { subject: string; heading: string; paragraphs: string[] }> = {
        announced: {
          subject: customer
            ? `Transfer of ${amount} announced`
            : `Transfer to confirm: ${amount} from ${t.account_name}`,
          heading: customer ? 'We are expecting your transfer' : 'A transfer was announced',
          paragraphs: customer
            ? [
                'The balance is funded once the money has arrived and the transfer is confirmed; you will get an e-mail then.',
              ]
            : [
                `${who} was announced. Confirm it in the console once the money has arrived, or reject it with a reason.`,
              ],
        },
        confirmed: {
          subject: `Transfer of ${amount} confirmed`,
          heading: 'Transfer confirmed',
          paragraphs: [`${who} of ${amount} was confirmed: the live balance was funded.`],
        },
        rejected: {
          subject: `Transfer of ${amount} rejected`,
          heading: 'Transfer rejected',
          paragraphs: [`${who} of ${amount} was rejected: ${t.reject_reason ?? 'no reason given'}.`],
        },
      };
      const content = words[status];
      if (!content) throw new MessageGone(`no words for status ${status}`);
      return renderEmail(DEFAULT_BRAND, { ...content, facts, button });
    },
  };
  messaging.register(TRANSFER_MESSAGE, kind);
}
