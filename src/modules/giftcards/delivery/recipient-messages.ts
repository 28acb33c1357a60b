import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { dec, minorUnitText } from '../../../lib/money.ts';
import type { Ledger } from '../../ledger/index.ts';
import {
  type Brand,
  DEFAULT_BRAND,
  MessageGone,
  type MessageKind,
  type MessageRow,
  type RenderedEmail,
  type RenderedSms,
  renderEmail,
} from '../../messaging/index.ts';
import type { DeliveryOrder, DeliveryRepository } from './delivery-repository.ts';
import type { RedeemSecrets } from './redeem-secrets.ts';

/**
 * The messages a gift card's recipient gets (kinds of the messaging outbox), rendered at send time
 * from the order as it is then:
 *
 * - `giftcard.recipient` (e-mail): the account's name and brand, the sender, the brand and product,
 *   the face value, the redeem instructions and the link to the redeem page; no code unless the
 *   account put codes inline (`account_branding.code_in_email`).
 * - `giftcard.link_sms`: the same link by SMS, for an order with a phone and no e-mail.
 * - `giftcard.code_sms`: the one-time code the redeem page asks for when the order has a phone.
 *
 * An SMS that fails for good gives the order's smsFee back (a REFUND entry through the ledger, naming
 * why), in the transaction that records the failure.
 */
export const LINK_KINDS = ['giftcard.recipient', 'giftcard.link_sms'] as const;
export const MASKED = '••••••';

export interface RecipientMessagesDeps {
  repository: DeliveryRepository;
  secrets: RedeemSecrets;
  ledger: Ledger;
  /** The redeem page's URL of a token: `${PUBLIC_URL}/r/${token}`. */
  linkUrl: (token: string) => string;
  linkDays: number;
  /** The order's codes, decrypted (the reports' `cards`). */
  codes: (order: DeliveryOrder) => Promise<{ cardNumber: string; pinCode: string }[]>;
}

/** The face value as the recipient reads it: `25.00 USD` (x3 when several cards). */
export function faceValue(
  order: Pick<DeliveryOrder, 'unitPrice' | 'recipientCurrencyCode' | 'quantity'>,
): string {
  const value = `${minorUnitText(order.unitPrice, order.recipientCurrencyCode)} ${order.recipientCurrencyCode}`;
  return order.quantity > 1 ? `${order.quantity} × ${value}` : value;
}

export function brandOf(order: DeliveryOrder): Brand {
  return {
    name: order.branding.displayName ?? order.accountName,
    color: order.branding.color ?? DEFAULT_BRAND.color,
    logoUrl: order.branding.logoUrl,
    footer: order.branding.footer,
  };
}

/** "a" or "an" before a word, by its first letter (close enough for brand names and amounts). */
export const article = (word: string) => (/^[aeiou8]/i.test(word) ? 'an' : 'a');

/** The last digits of a number, as the page and the e-mail name it. */
export const numberEnding = (phone: string) => phone.slice(-2);

export function recipientMessages(deps: RecipientMessagesDeps): Record<string, MessageKind> {
  const { repository, secrets } = deps;

  // The outbox asks an e-mail's `render`, then its `fromName`, of one claimed row: the order `render`
  // read is kept for that `fromName` (taken once), not read a second time.
  const renderedOrders = new WeakMap<MessageRow, Promise<DeliveryOrder | undefined>>();
  const readOrder = (message: MessageRow) =>
    message.transaction_id === null ? Promise.resolve(undefined) : repository.order(message.transaction_id);

  async function orderOf(message: MessageRow): Promise<DeliveryOrder> {
    const read = readOrder(message);
    renderedOrders.set(message, read);
    const order = await read;
    if (!order) throw new MessageGone('the order is gone');
    if (order.status !== 'SUCCESSFUL') throw new MessageGone(`the order is ${order.status}`);
    return order;
  }

  /**
   * The link's URL; its token hash stored the first time (with the read: `linkToSend`; the token is
   * derived from the link's id, which the message names). Masked in a preview, which stores nothing.
   */
  async function linkOf(message: MessageRow, preview: boolean): Promise<{ url: string; expires: Date }> {
    const id = message.link_id;
    const token = id === null || preview ? null : await secrets.linkToken(id);
    const link =
      id === null
        ? undefined
        : token === null
          ? await repository.link(id)
          : await repository.linkToSend(id, secrets.hashOf(token));
    if (!link) throw new MessageGone('the message has no redeem link');
    if (link.revoked_at) throw new MessageGone('the redeem link was replaced (a resend)');
    const expires = new Date(link.created_at.getTime() + deps.linkDays * 86_400_000);
    if (token === null) return { url: deps.linkUrl(MASKED), expires };
    return { url: deps.linkUrl(token), expires };
  }

  async function refundSmsFee(trx: Kysely<Database>, message: MessageRow, error: string) {
    if (message.transaction_id === null) return;
    const order = await repository.order(message.transaction_id, trx);
    if (!order || dec(order.smsFee).lte(0) || order.status !== 'SUCCESSFUL') return;
    if (await repository.refunded(trx, order.id)) return;
    await deps.ledger.refundOrder(trx, {
      accountId: order.accountId,
      environment: order.environment,
      amount: dec(order.smsFee),
      product: 'giftcards',
      transactionId: order.id,
      reason:
        `smsFee refunded: SMS to the number ending ${numberEnding(message.recipient)} failed: ${error}`.slice(
          0,
          500,
        ),
    });
  }

  const email: MessageKind = {
    async render(message, options): Promise<RenderedEmail> {
      const order = await orderOf(message);
      const { url, expires } = await linkOf(message, options?.preview ?? false);
      const value = faceValue(order);
      const notes: string[] = [];
      if (order.redeemConcise) notes.push(`How to redeem: ${order.redeemConcise}`);
      if (order.branding.codeInEmail) {
        const codes = options?.preview ? [] : await deps.codes(order);
        for (const c of codes) notes.push(`Code: ${c.cardNumber}${c.pinCode ? `  PIN: ${c.pinCode}` : ''}`);
      }
      if (order.recipientPhone) {
        notes.push(
          `To see the code, the page texts a one-time code to your phone number ending ${numberEnding(order.recipientPhone)}.`,
        );
      }
      notes.push(
        `The link works until ${expires.toISOString().slice(0, 10)}. Keep this e-mail to yourself: the link opens your gift card.`,
      );
      return renderEmail(brandOf(order), {
        subject: `${order.senderName} sent you ${article(order.brandName)} ${order.brandName} gift card`,
        heading: 'You have a gift card',
        paragraphs: [`${order.senderName} sent you ${article(value)} ${value} ${order.brandName} gift card.`],
        facts: [
          ['From', order.senderName],
          ['Brand', order.brandName],
          ['Product', order.productName],
          ['Value', value],
        ],
        button: { label: 'Open your gift card', url },
        notes,
      });
    },
    async fromName(message) {
      const kept = renderedOrders.get(message);
      renderedOrders.delete(message);
      const order = await (kept ?? readOrder(message));
      return order ? brandOf(order).name : null;
    },
  };

  const linkSms: MessageKind = {
    async render(message, options): Promise<RenderedSms> {
      const order = await orderOf(message);
      const { url } = await linkOf(message, options?.preview ?? false);
      return {
        text: `${order.senderName} sent you a ${faceValue(order)} ${order.brandName} gift card: ${url}`,
      };
    },
    failedForGood: refundSmsFee,
  };

  const codeSms: MessageKind = {
    async render(message, options): Promise<RenderedSms> {
      const order = await orderOf(message);
      const codeId = Number(message.data.codeId);
      const code = options?.preview ? MASKED : await secrets.smsCode(codeId);
      return {
        text: `${code} is your code to open the ${order.brandName} gift card from ${order.senderName}. It expires in 10 minutes.`,
      };
    },
    failedForGood: refundSmsFee,
  };

  return { 'giftcard.recipient': email, 'giftcard.link_sms': linkSms, 'giftcard.code_sms': codeSms };
}
