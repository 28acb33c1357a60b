import assert from 'node:assert/strict';
import { withMessagingTables } from '../../src/modules/messaging/index.ts';
import type { Caller, Server } from '../harness/client.ts';
import type { TestServer } from '../harness/server.ts';

/**
 * Live gift card orders for the messaging suites: Amazon US sold from the server's own stock, each
 * order importing a card of fresh number first, so that the suite knows the code the recipient is
 * sent (or shown) and no upstream is involved.
 *
 * @example
 * await sellFromStock(server);
 * const { id, card } = await stockOrder(server, await server.caller('giftcards', 'live'), { recipientEmail });
 */
export const AMAZON_US = 1840;
let serial = 7000_0000_0000_0000n;

/** Amazon US answered from stock on `server` (once, before the suite's orders). */
export async function sellFromStock(server: Server) {
  const set = await server.admin.call('PUT', `/products/${AMAZON_US}/provider`, { provider: 'stock' });
  assert.equal(set.status, 200, set.text);
}

/** `n` cards of `faceValue` with fresh numbers, and the CSV that imports them. */
export function stockCsv(n: number, faceValue: number) {
  const cards = Array.from({ length: n }, () => {
    serial += 13n;
    return { cardNumber: String(serial), pinCode: String(100000 + Number(serial % 900000n)) };
  });
  return {
    cards,
    csv: `cardNumber,pinCode,faceValue\n${cards.map((c) => `${c.cardNumber},${c.pinCode},${faceValue}`).join('\n')}\n`,
  };
}

/** One 25 USD card imported, then ordered by `client` with `body` (a recipient): the order and its card. */
export async function stockOrder(server: Server, client: Caller, body: Record<string, unknown>) {
  const stock = stockCsv(1, 25);
  const imported = await server.admin.call('POST', `/products/${AMAZON_US}/stock`, { csv: stock.csv });
  assert.equal(imported.status, 200, imported.text);
  const placed = await client.post('/orders', {
    productId: AMAZON_US,
    quantity: 1,
    unitPrice: 25,
    senderName: 'Ada',
    ...body,
  });
  assert.equal(placed.status, 200, placed.text);
  return {
    id: placed.body.transactionId as number,
    smsFee: placed.body.smsFee as number,
    card: stock.cards[0],
    placed: placed.body,
  };
}

/** The messages (e-mails, texts) the server recorded for order `id`, oldest first. */
export const messagesOfOrder = (server: TestServer, id: number) =>
  withMessagingTables(server.db.kysely)
    .selectFrom('messages')
    .selectAll()
    .where('transaction_id', '=', id)
    .orderBy('id')
    .execute();
