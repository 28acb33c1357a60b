import { timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { Clock } from '../../../lib/clock.ts';
import type { Messaging } from '../../messaging/index.ts';
import type { DeliveryOrder, DeliveryRepository, RedeemLinkRow } from './delivery-repository.ts';
import type { RedeemSecrets } from './redeem-secrets.ts';

/**
 * The redeem page's logic. A link opens the page while it is not revoked, younger than
 * REDEEM_LINK_DAYS and its order SUCCESSFUL. Looking (GET) reveals nothing and uses nothing up (mail
 * scanners open links); the codes are shown on a POST of the page's form (a form token made for this
 * link within the hour), and each reveal is recorded with its time and address. An order with a
 * recipient phone also needs the one-time code texted to that phone: 6 digits, 10 minutes, 5 tries,
 * at most CODES_PER_ORDER codes per order and CODES_PER_ADDRESS per client address an hour.
 */
export const CODE_TTL_MS = 10 * 60_000;
export const CODE_TRIES = 5;
export const CODES_PER_ORDER = 5;
export const CODES_PER_ADDRESS = 10;
const LIMIT_WINDOW_MS = 3600_000;

export type RedeemProblem =
  | 'form-expired'
  | 'code-needed'
  | 'code-wrong'
  | 'code-locked'
  | 'too-many-codes'
  | 'no-phone';

export interface RedeemState {
  link: RedeemLinkRow;
  order: DeliveryOrder;
  formToken: string;
  /** The last digits of the number the one-time code goes to; null without a phone. */
  phoneEnding: string | null;
  /** A code was sent and can still be entered. */
  codeSent: boolean;
  linkExpires: Date;
}

export type RevealResult =
  | { ok: true; state: RedeemState; codes: { cardNumber: string; pinCode: string }[] }
  | { ok: false; state: RedeemState; problem: RedeemProblem; triesLeft?: number };

export function createRedeemService(deps: {
  db: Kysely<Database>;
  repository: DeliveryRepository;
  secrets: RedeemSecrets;
  messaging: Messaging;
  clock: Clock;
  linkDays: number;
  codes: (order: DeliveryOrder) => Promise<{ cardNumber: string; pinCode: string }[]>;
}) {
  const { repository, secrets, clock } = deps;

  async function state(token: string): Promise<RedeemState | null> {
    if (!/^[A-Za-z0-9_-]{20,64}$/.test(token)) return null;
    const link = await repository.linkByHash(secrets.hashOf(token));
    const now = clock.now();
    if (!link || link.revoked_at) return null;
    const linkExpires = new Date(link.created_at.getTime() + deps.linkDays * 86_400_000);
    if (linkExpires <= now) return null;
    const order = await repository.order(link.transaction_id);
    if (order?.status !== 'SUCCESSFUL') return null;
    const code = order.recipientPhone ? await repository.activeCode(link.id, now, CODE_TRIES) : undefined;
    return {
      link,
      order,
      formToken: await secrets.formToken(link.id, now),
      phoneEnding: order.recipientPhone ? order.recipientPhone.slice(-2) : null,
      codeSent: code !== undefined,
      linkExpires,
    };
  }

  async function formOk(s: RedeemState, form: string | undefined) {
    return form !== undefined && (await secrets.formTokenValid(s.link.id, form, clock.now()));
  }

  return {
    /** The page's state for a token, or null when the link does not open (unknown, dead, expired). */
    state,

    /** Texts a one-time code to the order's phone (the page's "Send me a code"). */
    async sendCode(token: string, form: string | undefined, ip: string | null): Promise<RevealResult | null> {
      const s = await state(token);
      if (!s) return null;
      if (!(await formOk(s, form))) return { ok: false, state: s, problem: 'form-expired' };
      const phone = s.order.recipientPhone;
      if (!phone) return { ok: false, state: s, problem: 'no-phone' };
      const now = clock.now();
      const counts = await repository.codesSince(s.order.id, ip, new Date(now.getTime() - LIMIT_WINDOW_MS));
      if (counts.order >= CODES_PER_ORDER || (ip !== null && counts.ip >= CODES_PER_ADDRESS)) {
        return { ok: false, state: s, problem: 'too-many-codes' };
      }
      await deps.db.transaction().execute(async (trx) => {
        const code = await repository.createCode(
          trx,
          s.link.id,
          ip,
          now,
          new Date(now.getTime() + CODE_TTL_MS),
        );
        await deps.messaging.repository.insert(
          [
            {
              kind: 'giftcard.code_sms',
              channel: 'sms',
              recipient: phone,
              account_id: s.order.accountId,
              environment: s.order.environment,
              transaction_id: s.order.id,
              link_id: s.link.id,
              data: JSON.stringify({ codeId: code.id }),
            },
          ],
          now,
          trx,
        );
      });
      return { ok: false, state: { ...s, codeSent: true }, problem: 'code-needed' };
    },

    /** The codes, when the form (and the one-time code, with a phone) is right; the reveal recorded. */
    async reveal(
      token: string,
      form: string | undefined,
      smsCode: string | undefined,
      ip: string | null,
    ): Promise<RevealResult | null> {
      const s = await state(token);
      if (!s) return null;
      if (!(await formOk(s, form))) return { ok: false, state: s, problem: 'form-expired' };
      const now = clock.now();
      if (s.order.recipientPhone) {
        const code = await repository.activeCode(s.link.id, now, CODE_TRIES);
        if (!code) return { ok: false, state: s, problem: s.codeSent ? 'code-locked' : 'code-needed' };
        if (!(await repository.countTry(code.id, CODE_TRIES)))
          return { ok: false, state: s, problem: 'code-locked' };
        const expected = Buffer.from(await secrets.smsCode(code.id));
        const given = Buffer.from((smsCode ?? '').replace(/\s+/g, ''));
        if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
          const triesLeft = CODE_TRIES - (code.tries + 1);
          return triesLeft > 0
            ? { ok: false, state: s, problem: 'code-wrong', triesLeft }
            : { ok: false, state: { ...s, codeSent: false }, problem: 'code-locked' };
        }
        if (!(await repository.useCode(code.id, now))) return { ok: false, state: s, problem: 'code-locked' };
      }
      await repository.recordReveal(s.link.id, s.order.id, ip, now);
      return { ok: true, state: { ...s, codeSent: false }, codes: await deps.codes(s.order) };
    },
  };
}

export type RedeemService = ReturnType<typeof createRedeemService>;
