import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { ProviderRoute } from '../stock/stock-repository.ts';
import type { GiftcardProvider, OrderRequest, OrderToFulfil } from './provider.ts';
import type { StockProvider } from './stock-provider.ts';

/**
 * Live's provider: each product goes to the provider its route names (`airgift products provider ID
 * stock|upstream|default`, table giftcard_product_providers), the rest to live's default. `upstream`
 * and `default` both go to the upstream provider when an upstream is configured for gift cards, else
 * they refuse (422, nothing debited). An order the stock or the upstream accepted is finished by it
 * whatever the product's route becomes later.
 *
 * @example
 * const live = createLiveProvider({ route, stock, upstream, fallback });
 */
export function createLiveProvider(deps: {
  /** The product's route, read in `trx` when given. */
  route(productId: number, trx?: Kysely<Database>): Promise<ProviderRoute | null>;
  /** The product's route and its unsold codes of the order's face value, in one look. */
  routeAndAvailable(request: OrderRequest): Promise<{ route: ProviderRoute | null; available: number }>;
  stock: StockProvider;
  upstream: GiftcardProvider & { owns?(trx: Kysely<Database>, transactionId: number): Promise<boolean> };
  fallback: GiftcardProvider;
}): GiftcardProvider {
  const { stock, upstream, fallback } = deps;
  const pick = (route: ProviderRoute | null) =>
    route === 'stock' ? stock : route === 'upstream' ? upstream : fallback;

  /** Whose order this is: the stock's or the upstream's once they took it, else its route's. */
  async function ownerOf(order: OrderToFulfil, db: Kysely<Database>): Promise<GiftcardProvider> {
    if (await stock.owns(db, order.transactionId)) return stock;
    if (await upstream.owns?.(db, order.transactionId)) return upstream;
    return pick(await deps.route(order.productId, db));
  }

  return {
    async accept(request, trx) {
      if (trx) return pick(await deps.route(request.productId, trx)).accept(request, trx);
      // before the order's transaction: the route and the stock's count in one statement
      const { route, available } = await deps.routeAndAvailable(request);
      if (route === 'stock') return stock.acceptCounted(request, available);
      await pick(route).accept(request);
    },

    async reserve(trx, order) {
      // read again in the order's transaction: a route changed since `accept` is asked again (the
      // refusing provider throws, and the order's debit rolls back)
      const provider = pick(await deps.route(order.productId, trx));
      if (provider !== stock) await provider.accept(order, trx);
      return provider.reserve?.(trx, order);
    },

    async callsOut(order, trx) {
      const provider = await ownerOf(order, trx);
      return (await provider.callsOut?.(order, trx)) ?? false;
    },

    async step(order, now, db) {
      return (await ownerOf(order, db)).step(order, now, db);
    },
  };
}
