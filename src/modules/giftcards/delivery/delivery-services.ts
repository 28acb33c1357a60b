import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { AppError } from '../../../errors/error-codes.ts';
import type { Clock } from '../../../lib/clock.ts';
import { parseEmail } from '../../../lib/email.ts';
import { validPhoneOf } from '../../../lib/phone.ts';
import type { AccountsService } from '../../accounts/index.ts';
import type { Principal } from '../../auth/index.ts';
import type { Ledger } from '../../ledger/index.ts';
import type { Messaging } from '../../messaging/index.ts';
import type { TransactionReports } from '../orders/order-reports.ts';
import { createBrandingService } from './branding.ts';
import { type DeliveryOrder, deliveryRepository } from './delivery-repository.ts';
import { createDeliveryService, type ResendInput } from './delivery-service.ts';
import { deliveryView } from './delivery-view.ts';
import { recipientMessages } from './recipient-messages.ts';
import { redeemSecrets } from './redeem-secrets.ts';
import { createRedeemService } from './redeem-service.ts';

/**
 * Recipient delivery of gift cards: the messages' templates (registered with the outbox), the redeem
 * page's service and the deliveries API's service, from their explicit dependencies.
 *
 * @example
 * const delivery = createGiftcardDelivery({ db, clock, ledger, messaging, reports, loadKey, publicUrl, linkDays: 90 });
 * await delivery.deliveries.list(principal, 1234);
 */
export function createGiftcardDelivery(deps: {
  db: Kysely<Database>;
  clock: Clock;
  ledger: Ledger;
  messaging: Messaging;
  reports: TransactionReports;
  loadKey: () => Promise<Buffer>;
  publicUrl: string;
  linkDays: number;
  accounts: Pick<AccountsService, 'require'>;
}) {
  const { db } = deps;
  const repository = deliveryRepository(db);
  const secrets = redeemSecrets(deps.loadKey);
  const principalOf = (order: Pick<DeliveryOrder, 'accountId' | 'environment'>): Principal => ({
    accountId: order.accountId,
    environment: order.environment,
    clientId: 'recipient-delivery',
    scopes: [],
  });
  const codes = (order: DeliveryOrder) => deps.reports.cards(principalOf(order), order.id);
  for (const [kind, template] of Object.entries(
    recipientMessages({
      repository,
      secrets,
      ledger: deps.ledger,
      linkUrl: (token) => `${deps.publicUrl}/r/${token}`,
      linkDays: deps.linkDays,
      codes,
    }),
  )) {
    deps.messaging.register(kind, template);
  }
  const redeem = createRedeemService({
    db,
    repository,
    secrets,
    messaging: deps.messaging,
    clock: deps.clock,
    linkDays: deps.linkDays,
    codes,
  });
  const deliveries = createDeliveryService({
    db,
    repository,
    messaging: deps.messaging,
    clock: deps.clock,
    requireOrder: async (principal, id) => {
      const view = await deps.reports.get(principal, id);
      return { id: view.transactionId, status: view.status };
    },
    requireActive: async (accountId) => {
      if ((await deps.accounts.require(accountId)).status !== 'ACTIVE')
        throw new AppError('INACTIVE_ACCOUNT');
    },
    correctRecipient: async (trx, id, input: ResendInput) => {
      const order = await repository.order(id, trx);
      if (input.recipientPhone && !order?.recipientPhone) {
        throw new AppError(
          'UNPROCCESSABLE_ENTITY',
          'This order was placed without recipientPhoneDetails (no smsFee paid): a phone cannot be added',
        );
      }
      await repository.correctRecipient(trx, id, input);
    },
  });
  return {
    repository,
    secrets,
    branding: createBrandingService({ repository, clock: deps.clock }),
    redeem,
    deliveries,
    /** The checked correction of a resend body (400 INVALID_REQUEST naming the field). */
    parseResend(body: {
      recipientEmail?: string;
      recipientPhoneDetails?: { countryCode: string; phoneNumber: string };
    }): ResendInput {
      const out: ResendInput = {};
      if (body.recipientEmail !== undefined) {
        if (!parseEmail(body.recipientEmail)) {
          throw new AppError('INVALID_REQUEST', 'recipientEmail is not an e-mail address', [
            { field: 'recipientEmail', issue: 'not an e-mail address' },
          ]);
        }
        out.recipientEmail = body.recipientEmail;
      }
      if (body.recipientPhoneDetails !== undefined) {
        const { countryCode, phoneNumber } = body.recipientPhoneDetails;
        const country = countryCode.toUpperCase();
        const parsed = /^[A-Z]{2}$/.test(country) ? validPhoneOf(phoneNumber, country) : null;
        if (!parsed) {
          throw new AppError('INVALID_REQUEST', 'recipientPhoneDetails is not a valid number', [
            {
              field: 'recipientPhoneDetails.phoneNumber',
              issue: `not a valid E.164 number of ${countryCode}`,
            },
          ]);
        }
        out.recipientPhone = { e164: parsed.e164, country };
      }
      return out;
    },
    /** One message as the deliveries endpoint shows it (the giftcard.delivery.* webhook payload). */
    async deliveryOf(accountId: number, environment: string, messageId: number) {
      const m = await deps.messaging.repository.find(messageId);
      if (!m || m.account_id !== accountId || m.environment !== environment) {
        throw new Error(`delivery event: no message ${messageId} of account ${accountId}`);
      }
      return deliveryView(m);
    },
  };
}

export type GiftcardDelivery = ReturnType<typeof createGiftcardDelivery>;
