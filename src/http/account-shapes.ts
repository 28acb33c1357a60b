import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TSchema } from 'typebox';
import type { AccountShapes } from '../db/schema.ts';
import type { Principal } from '../modules/auth/index.ts';

/**
 * Which shapes a gift card answer takes, chosen by the caller's account (docs/compatibility.md):
 * `documented` (the gift card spec's, the default) or `service` (the live service's: the paged
 * wrapper on the paged lists, the denominations map as one object, the error's `timeStamp` as text).
 * Installed on the gift card bases only, after the token is checked: an answer made before the
 * account is known (a 401, an unknown path) is always documented.
 *
 * @example
 * installAccountShapes(product, (principal) => accounts.require(principal.accountId).then((a) => a.shapes));
 * // in a handler: shapesOf(request) === 'service' ? pagedWrapper(items, page, total) : items
 */
declare module 'fastify' {
  interface FastifyRequest {
    shapes: AccountShapes;
  }
}

export function installAccountShapes(
  app: FastifyInstance,
  shapesOf: (principal: Principal) => AccountShapes | undefined | Promise<AccountShapes>,
) {
  app.addHook('onRequest', async (request) => {
    if (!request.principal) return;
    try {
      request.shapes = (await shapesOf(request.principal)) ?? 'documented';
    } catch {
      // The account could not be read (the database away): the handler meets the same failure and
      // answers it; the envelope is then the documented one.
    }
  });
}

/** The shapes the answer to this request takes. */
export function shapesOf(request: { shapes?: AccountShapes }): AccountShapes {
  return request.shapes ?? 'documented';
}

/** How the OpenAPI documents tell the two shapes of an answer apart (its `oneOf` or `anyOf`). */
export const SHAPES_NOTE =
  "The first shape for accounts with the documented shapes (the default), the second for accounts with the service's shapes.";

/**
 * Sends `body` serialised by `schema`, the one shape it is in. The route's response schema (what
 * validates and documents the answer) is the `oneOf` of both shapes, and fast-json-stringify picks
 * a `oneOf` branch by validating the whole answer against each: measured 0.3–0.5 ms more for a list
 * of 200 products here. The bytes are the same either way. `schema` must be a constant: its
 * serialiser is compiled once per route and kept.
 *
 * @example
 * return sendShaped(reply, shapesOf(request) === 'service' ? TransactionPage : TransactionArray, body);
 */
export function sendShaped(reply: FastifyReply, schema: TSchema, body: unknown) {
  const serialize = reply.compileSerializationSchema(schema as unknown as Record<string, unknown>, '200');
  return reply
    .type('application/json; charset=utf-8')
    .serializer((payload: unknown) => serialize(payload as Record<string, unknown>))
    .send(body);
}
