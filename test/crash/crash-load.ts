import { type Answer, AUDIENCES } from '../harness/client.ts';
import type { ServerProcess } from '../harness/server-process.ts';
import { sleep } from '../harness/until.ts';

/**
 * The crash suite's clients: a mix of every sandbox outcome (gift card products 11-13, 21, 22
 * pre-ordered, 24, 25; top-up numbers ending 99990-99993 and ordinary ones), each order with its own
 * customIdentifier, sent to whichever server is up. A request whose connection is cut (the server was
 * killed, or the client aborted it on purpose) is sent again with the same customIdentifier until it
 * gets an answer: a 200, or CUSTOM_IDENTIFIER_ALREADY_USED (the first one landed; its answer was lost).
 */
export type Outcome =
  | 'answered' // 2xx: the transaction id is known
  | 'landed' // the answer was lost; a retry was told the reference is used
  | 'refused' // an expected refusal (99993: 503, nothing recorded; 99992: 400, recorded REFUNDED)
  | 'unexpected';

export interface PlacedOrder {
  kind: 'giftcard' | 'topup';
  customIdentifier: string;
  outcome: Outcome;
  transactionId: number | null;
  attempts: number;
  cut: number;
  detail?: string;
}

const GIFTCARDS = { accept: 'application/com.reloadly.giftcards-v1+json' };
const TOPUPS = { accept: 'application/com.reloadly.topups-v1+json' };
const GIFTCARD_PRODUCTS = [11, 12, 13, 21, 22, 24, 25];
const TOPUP_ENDINGS = ['', '99990', '99991', '99992', '99993'];

function orderBody(n: number, random: () => number) {
  const customIdentifier = `crash-${n}`;
  if (random() < 0.55) {
    const productId = GIFTCARD_PRODUCTS[Math.floor(random() * GIFTCARD_PRODUCTS.length)];
    return {
      kind: 'giftcard' as const,
      path: '/giftcards-sandbox/orders',
      body: {
        productId,
        quantity: 1 + Math.floor(random() * 2),
        unitPrice: 10,
        senderName: 'Crash',
        customIdentifier,
        ...(productId === 22 ? { preOrder: true } : {}),
      },
    };
  }
  const ending = TOPUP_ENDINGS[Math.floor(random() * TOPUP_ENDINGS.length)];
  const digits = String(n).padStart(5, '0').slice(-2);
  const number = ending ? `0803${digits}${ending}` : `0803${String(1_000_000 + n).slice(-7)}`;
  return {
    kind: 'topup' as const,
    path: '/topups-sandbox/topups',
    body: { operatorId: 1001, amount: 10, recipientPhone: { countryCode: 'NG', number }, customIdentifier },
  };
}

export interface Fleet {
  /** The servers up now (empty while they restart). */
  up(): ServerProcess[];
}

/**
 * `clients` concurrent clients send `total` orders to the fleet; `cutRate` of first attempts are
 * aborted by the client a few ms after they are sent (a cut connection). `onPlaced` hears of each.
 */
export async function runLoad(o: {
  fleet: Fleet;
  tokens: { giftcards: string; topups: string };
  total: number;
  clients: number;
  cutRate: number;
  random: () => number;
  onPlaced?: (count: number) => void;
}): Promise<PlacedOrder[]> {
  const placed: PlacedOrder[] = [];
  let next = 0;
  const client = async () => {
    while (next < o.total) {
      const n = next++;
      const order = orderBody(n, o.random);
      const result: PlacedOrder = {
        kind: order.kind,
        customIdentifier: order.body.customIdentifier,
        outcome: 'unexpected',
        transactionId: null,
        attempts: 0,
        cut: 0,
      };
      for (;;) {
        const servers = o.fleet.up();
        if (servers.length === 0) {
          await sleep(50);
          continue;
        }
        const server = servers[Math.floor(o.random() * servers.length)];
        result.attempts += 1;
        const cut = result.attempts === 1 && o.random() < o.cutRate;
        let answer: Answer;
        try {
          answer = await server.http.post(order.path, order.body, {
            token: order.kind === 'giftcard' ? o.tokens.giftcards : o.tokens.topups,
            headers: order.kind === 'giftcard' ? GIFTCARDS : TOPUPS,
            signal: cut ? AbortSignal.timeout(1 + Math.floor(o.random() * 40)) : undefined,
          });
        } catch {
          // cut, refused or reset (the server died): the same order again, same customIdentifier
          if (cut) result.cut += 1;
          await sleep(50);
          continue;
        }
        const code = answer.body?.errorCode;
        if (answer.status === 200) {
          result.outcome = 'answered';
          result.transactionId = answer.body.transactionId;
        } else if (code === 'CUSTOM_IDENTIFIER_ALREADY_USED' && result.attempts > 1) {
          result.outcome = 'landed';
        } else if (code === 'TRANSACTION_CANNOT_BE_PROCESSED_AT_THE_MOMENT' && order.body.recipientPhone) {
          // 99993 refuses with this, before anything is written; a database in trouble too: try again
          if (!String(order.body.recipientPhone.number).endsWith('99993')) {
            await sleep(100);
            continue;
          }
          result.outcome = 'refused';
        } else if (code === 'TOPUP_TRANSACTION_FAILED') {
          result.outcome = 'refused';
        } else if (answer.status >= 500) {
          await sleep(100);
          continue;
        } else {
          result.detail = `${answer.status} ${answer.text.slice(0, 300)}`;
        }
        break;
      }
      placed.push(result);
      o.onPlaced?.(placed.length);
    }
  };
  await Promise.all(Array.from({ length: o.clients }, client));
  return placed;
}

export { AUDIENCES };
