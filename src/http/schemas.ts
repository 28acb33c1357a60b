import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import { type Static, type TSchema, Type } from 'typebox';
import { ErrorEnvelope } from './error-envelope.ts';

/**
 * Schema pieces shared by many routes. Each route's own schema (params, query, body, response)
 * validates the request, shapes the JSON answer, types the handler (the TypeBox type provider) and
 * produces its OpenAPI document (`openapi.ts`). The error envelope is in error-envelope.ts.
 */
export { ErrorEnvelope };

/**
 * The envelope on the gift card bases: `timeStamp` is epoch milliseconds, or `yyyy-MM-dd HH:mm:ss`
 * (UTC) for an account with the service's shapes (http/account-shapes.ts).
 */
export const GiftcardErrorEnvelope = Type.Object({
  ...ErrorEnvelope.properties,
  timeStamp: OneOf([
    ErrorEnvelope.properties.timeStamp,
    Type.String({
      pattern: '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$',
      description: 'When the error happened, yyyy-MM-dd HH:mm:ss (UTC): accounts with the service shapes',
    }),
  ]),
});

/**
 * A string with a fixed set of values, written as a JSON Schema `enum` (what OpenAPI tools show as an
 * enum; a union of literals would be an `anyOf`).
 *
 * @example
 * StringEnum(['FIXED', 'RANGE'], { description: 'How the amount is chosen' })
 */
export function StringEnum<const T extends readonly string[]>(
  values: T,
  options: { description?: string } = {},
) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

export const Balance = Type.Object({
  balance: Type.Number(),
  currencyCode: Type.String(),
  currencyName: Type.String(),
  updatedAt: Type.String(),
});

export const DateTimeText = Type.String({ description: 'UTC, yyyy-MM-dd HH:mm:ss' });

/** The balance around an order's debit, as both products show it (decisions §5). */
export const BalanceInfo = Type.Object({
  oldBalance: Type.Number(),
  newBalance: Type.Number(),
  cost: Type.Number(),
  currencyCode: Type.String(),
  currencyName: Type.String(),
  updatedAt: DateTimeText,
});

/**
 * The app as route builders get it: with the TypeBox type provider, so each route's schema also types
 * its handler (`request.params`, `request.query`, `request.body` and the answer), no cast needed.
 */
export type TypedApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/**
 * An answer that takes exactly one of several shapes that no value can fit twice (JSON Schema
 * `oneOf`): validates, serialises and documents like a union. Shapes a value may fit both of (an
 * empty list of either item) stay a `Type.Union` (`anyOf`).
 *
 * @example
 * OneOf([Type.Array(Product), Paged(ServiceProduct)]) // an account's documented or service shapes
 */
export function OneOf<T extends TSchema[]>(schemas: [...T], options: { description?: string } = {}) {
  return Type.Unsafe<Static<T[number]>>({ oneOf: schemas, ...options });
}
