/**
 * Buys one gift card in the sandbox and prints its code.
 *
 *   npx tsx examples/buy-gift-card.ts [productId]
 *
 * Product 11 is the sandbox's "always succeeds" test product; any sandbox product id works.
 */
import { GiftCards, type Product } from '../sdk/src/index.ts';
import { newCustomIdentifier, run, sandbox } from './connect.ts';

function firstPrice(product: Product): number {
  if (product.denominationType === 'FIXED') return product.fixedRecipientDenominations[0]!;
  return product.minRecipientDenomination!;
}

await run(async () => {
  const giftcards = new GiftCards(sandbox('giftcards'));
  const productId = Number(process.argv[2] ?? 11);

  const product = await giftcards.products.get(productId);
  const unitPrice = firstPrice(product);
  // With a customIdentifier the SDK may retry the order safely: it is placed at most once.
  let order = await giftcards.orders.create({
    productId,
    quantity: 1,
    unitPrice,
    senderName: 'airgift examples',
    customIdentifier: newCustomIdentifier('example-gift-card'),
  });
  console.log(
    `Bought ${product.productName} (${unitPrice} ${product.recipientCurrencyCode}) for ${order.amount} ${order.currencyCode}: transaction ${order.transactionId}, ${order.status}`,
  );

  // Most orders succeed at once; a PENDING or PROCESSING one is finished by the server shortly.
  for (let wait = 0; (order.status === 'PENDING' || order.status === 'PROCESSING') && wait < 60; wait++) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    order = await giftcards.transactions.get(order.transactionId);
  }
  if (order.status !== 'SUCCESSFUL') throw new Error(`The order ended ${order.status}; no code to show`);

  // Codes come back as strings with every digit, even past 2^53.
  for (const card of await giftcards.orders.cards(order.transactionId)) {
    console.log(`Card number: ${card.cardNumber}`);
    console.log(`PIN code:    ${card.pinCode}`);
  }
  const balance = await giftcards.balance.get();
  console.log(`Balance now: ${balance.balance} ${balance.currencyCode}`);
});
