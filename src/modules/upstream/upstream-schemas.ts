import { Type } from 'typebox';

/**
 * The answers about configured upstreams (admin API, the operator console's catalogue page). Only
 * typebox is imported: the console's browser code imports these types (modules/web/README.md).
 */
export const Product = Type.Union([Type.Literal('giftcards'), Type.Literal('topups')]);
const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

/** One configured upstream as `upstream show` (and the operator console) answers it. */
export const Upstream = Type.Object({
  product: Product,
  url: Type.String(),
  authUrl: Type.String(),
  clientId: Type.String(),
  caConfigured: Type.Boolean(),
  marginPercent: Type.Number(),
  lastSyncAt: Nullable(Type.String()),
  updatedAt: Type.String(),
  health: Type.Object({
    lastError: Nullable(Type.String()),
    lastErrorAt: Nullable(Type.String()),
    lastSuccessAt: Nullable(Type.String()),
    insufficientBalance: Type.Boolean({ description: 'the upstream refused an order for its own balance' }),
    insufficientBalanceAt: Nullable(Type.String()),
  }),
  balance: Type.Union([Type.Object({ balance: Type.Number(), currencyCode: Type.String() }), Type.Null()]),
  balanceError: Nullable(Type.String()),
});
export const UpstreamList = Type.Object({ items: Type.Array(Upstream) });
