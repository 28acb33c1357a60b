import { Type } from 'typebox';
import { AppError } from '../../errors/error-codes.ts';
import type { TypedApp } from '../../http/schemas.ts';
import { type AuditedRequest, params } from '../audit/index.ts';
import type { UpstreamService } from './upstream-service.ts';

/**
 * The upstreams on the admin API (the `airgift upstream set|show|remove` commands): one per product.
 * The client secret goes in and never comes back out.
 */
const Product = Type.Union([Type.Literal('giftcards'), Type.Literal('topups')]);
const ProductParams = Type.Object({ product: Product });
const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);
const SetBody = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: 2000,
      description: 'the product base, e.g. https://giftcards.example.com',
    }),
    authUrl: Type.String({ minLength: 1, maxLength: 2000, description: 'the token service base' }),
    clientId: Type.String({ minLength: 1, maxLength: 500 }),
    clientSecret: Type.String({
      minLength: 1,
      maxLength: 2000,
      description: 'sealed at rest, never answered',
    }),
    caPem: Type.Optional(Type.Union([Type.String({ maxLength: 65536 }), Type.Null()])),
    marginPercent: Type.Optional(
      Type.Union([
        Type.Number({ minimum: 0, maximum: 99.9999 }),
        Type.String({ pattern: '^\\d+(\\.\\d+)?$' }),
      ]),
    ),
  },
  { additionalProperties: false },
);
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
const Removed = Type.Object({ product: Product, removed: Type.Boolean() });

export function upstreamAdminRoutes(app: TypedApp, upstreams: UpstreamService) {
  // the audit log's line: the product's upstream, its settings before (never the secret)
  const audit = (action: string) => ({
    action,
    target: (r: AuditedRequest) => `${params(r).product} upstream`,
    before: (r: AuditedRequest) => upstreams.settings(params<{ product: 'giftcards' | 'topups' }>(r).product),
  });
  app.put(
    '/upstreams/:product',
    {
      schema: { params: ProductParams, body: SetBody, response: { 200: Upstream } },
      config: { audit: audit('upstream.set') },
    },
    (request) => {
      const { marginPercent, ...rest } = request.body;
      return upstreams.set(request.params.product, {
        ...rest,
        ...(marginPercent === undefined ? {} : { marginPercent: String(marginPercent) }),
      });
    },
  );
  app.get(
    '/upstreams',
    { schema: { response: { 200: Type.Object({ items: Type.Array(Upstream) }) } } },
    async () => ({ items: await upstreams.show() }),
  );
  app.get(
    '/upstreams/:product',
    { schema: { params: ProductParams, response: { 200: Upstream } } },
    async (request) => {
      const [one] = await upstreams.show(request.params.product);
      if (!one)
        throw new AppError('RESOURCE_NOT_FOUND', `No upstream is configured for ${request.params.product}`);
      return one;
    },
  );
  app.delete(
    '/upstreams/:product',
    {
      schema: { params: ProductParams, response: { 200: Removed } },
      config: { audit: audit('upstream.remove') },
    },
    (request) => upstreams.remove(request.params.product),
  );
}
