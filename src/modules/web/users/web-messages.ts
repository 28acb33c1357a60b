import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { Clock } from '../../../lib/clock.ts';
import { minorUnitText } from '../../../lib/money.ts';
import type { TextSealer } from '../../../lib/sealed-text.ts';
import {
  DEFAULT_BRAND,
  MessageGone,
  type MessageKind,
  type MessageRow,
  type Messaging,
  renderEmail,
} from '../../messaging/index.ts';
import type { WebMail } from './users-service.ts';
import { webMessagesRepository } from './web-messages-repository.ts';

/**
 * The platform's own e-mail (kinds of the messaging outbox), in the one layout: an invitation to the
 * dashboard or the console, a password reset, and the low balance warning to an account's dashboard
 * users. An invitation's or a reset's link cannot be derived again (only its hash is stored), so it
 * is kept sealed in the message (`secret_sealed`) and opened at send time; previews mask it.
 */
const PAGE_NAMES: Record<string, string> = {
  dashboard: 'airgift dashboard',
  console: 'airgift operator console',
};
const MASK = (link: string) => link.replace(/#\/(welcome|reset)\/[\w-]+$/, '#/$1/••••••');

export function webMessages(deps: {
  db: Kysely<Database>;
  messaging: Messaging;
  sealer: TextSealer;
  dashboardUrl: string;
  clock: Clock;
}): WebMail {
  const { messaging, sealer } = deps;
  const repository = webMessagesRepository(deps.db);

  async function linkOf(message: MessageRow, preview: boolean): Promise<string> {
    if (!message.secret_sealed) throw new MessageGone('the message has no link');
    const link = await sealer.open(message.secret_sealed);
    return preview ? MASK(link) : link;
  }
  const pageOf = (message: MessageRow) => PAGE_NAMES[String(message.data.page)] ?? PAGE_NAMES.dashboard;
  const untilOf = (message: MessageRow) =>
    String(message.data.expiresAt ?? '')
      .replace('T', ' ')
      .slice(0, 16);

  const invitation: MessageKind = {
    async render(message, options) {
      const page = pageOf(message);
      return renderEmail(DEFAULT_BRAND, {
        subject: `You are invited to the ${page}`,
        heading: `Welcome to the ${page}`,
        paragraphs: [
          `You were invited to sign in to the ${page} as ${message.recipient}${typeof message.data.role === 'string' ? `, with the role ${message.data.role}` : ''}.`,
          'Choose a password (at least 12 characters) with the link below to finish.',
        ],
        button: { label: 'Set your password', url: await linkOf(message, options?.preview ?? false) },
        notes: [`The link works once, until ${untilOf(message)} UTC. If you did not expect this, ignore it.`],
      });
    },
  };

  const reset: MessageKind = {
    async render(message, options) {
      const page = pageOf(message);
      return renderEmail(DEFAULT_BRAND, {
        subject: `Reset your ${page} password`,
        heading: 'Reset your password',
        paragraphs: [
          `Someone asked to reset the password of ${message.recipient} on the ${page}. If it was you, choose a new password with the link below.`,
        ],
        button: { label: 'Choose a new password', url: await linkOf(message, options?.preview ?? false) },
        notes: [
          `The link works once, for 30 minutes (until ${untilOf(message)} UTC).`,
          'If it was not you, ignore this e-mail: your password stays as it is.',
        ],
      });
    },
  };

  const balanceLow: MessageKind = {
    async render(message) {
      const f = await repository.balanceFacts(Number(message.data.entryId));
      if (!f) throw new MessageGone('the ledger entry is gone');
      const amount = (v: string) => `${minorUnitText(v, f.currency_code)} ${f.currency_code}`;
      return renderEmail(DEFAULT_BRAND, {
        subject: `Your ${message.environment} balance is low: ${amount(f.balance_after)}`,
        heading: 'Your balance is low',
        paragraphs: [
          `The ${message.environment} balance of ${f.name} is ${amount(f.balance_after)}${f.threshold !== null ? `, below the ${amount(f.threshold)} you set` : ''}.`,
          'Orders are refused with INSUFFICIENT_BALANCE when it runs out: fund it in time.',
        ],
        button: {
          label: 'Open the dashboard',
          url: `${deps.dashboardUrl}/#/overview?environment=${message.environment}`,
        },
      });
    },
  };

  messaging.register('web.invitation', invitation);
  messaging.register('web.password_reset', reset);
  messaging.register('balance.low', balanceLow);

  return {
    async queue(trx, m) {
      await messaging.repository.insert(
        [
          {
            kind: m.kind,
            channel: 'email',
            recipient: m.to,
            account_id: m.accountId,
            data: JSON.stringify(m.data),
            secret_sealed: await sealer.seal(m.link),
          },
        ],
        deps.clock.now(),
        trx,
      );
    },
    sentSince: repository.sentSince,
  };
}
