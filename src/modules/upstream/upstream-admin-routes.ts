import { Type } from 'typebox';
import { AppError } from '../../errors/error-codes.ts';
import type { TypedApp } from '../../http/schemas.ts';
import { type AuditedRequest, params } from '../audit/index.ts';
import { Product, Upstream, UpstreamList } from './upstream-schemas.ts';
import type { UpstreamService } from './upstream-service.ts';

/**
 * The upstreams on the admin API (the `airgift upstream set|show|remove` commands): one per product.
 * The client secret goes in and never comes back out.
 */
const ProductParams = Type.Object({ product: Product });
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
  app.get('/upstreams', { schema: { response: { 200: UpstreamList } } }, async () => ({
    items: await upstreams.show(),
  }));
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
