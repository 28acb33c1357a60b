import { Type } from 'typebox';
import { AppError } from '../../errors/error-codes.ts';
import type { TypedApp } from '../../http/schemas.ts';
import { formatDateTime, parseDateTime } from '../../lib/time-format.ts';
import { params } from '../audit/index.ts';
import type { Fx } from './fx.ts';

/** Admin: read and change the FX table (`GET /admin/fx-rates`, `PUT /admin/fx-rates/{currency}`). */
const Params = Type.Object({ currencyCode: Type.String({ pattern: '^[A-Z]{3}$' }) });
const Body = Type.Object(
  {
    unitsPerUsd: Type.Union([
      Type.Number({ exclusiveMinimum: 0 }),
      Type.String({ pattern: '^\\d+(\\.\\d+)?$' }),
    ]),
    asOf: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

/** One currency's line of the FX table as the routes answer it, or null (the audit log's before). */
export async function fxRateView(fx: Fx, currencyCode: string) {
  const rate = (await fx.list()).find((r) => r.currencyCode === currencyCode);
  return rate
    ? { currencyCode, unitsPerUsd: Number(rate.unitsPerUsd), asOf: formatDateTime(rate.asOf) }
    : null;
}

export function fxAdminRoutes(app: TypedApp, fx: Fx) {
  const Rate = Type.Object({ currencyCode: Type.String(), unitsPerUsd: Type.Number(), asOf: Type.String() });
  const Rates = Type.Object({ marginPercent: Type.Number(), rates: Type.Array(Rate) });
  app.get('/fx-rates', { schema: { response: { 200: Rates } } }, async () => ({
    marginPercent: fx.marginPercent().toNumber(),
    rates: (await fx.list()).map((r) => ({
      currencyCode: r.currencyCode,
      unitsPerUsd: Number(r.unitsPerUsd),
      asOf: formatDateTime(r.asOf),
    })),
  }));
  app.put(
    '/fx-rates/:currencyCode',
    {
      schema: { params: Params, body: Body, response: { 200: Rate } },
      config: {
        audit: {
          action: 'fx.set',
          target: (r) => String(params(r).currencyCode),
          before: (r) => fxRateView(fx, String(params(r).currencyCode)),
        },
      },
    },
    async (request) => {
      const { currencyCode } = request.params;
      const body = request.body;
      const asOf = body.asOf === undefined ? undefined : parseDateTime(body.asOf);
      if (asOf === null)
        throw new AppError('INVALID_REQUEST', 'asOf must be yyyy-MM-dd HH:mm:ss', [
          { field: 'asOf', issue: 'bad format' },
        ]);
      const saved = await fx.set(currencyCode, String(body.unitsPerUsd), asOf);
      return { ...saved, asOf: formatDateTime(saved.asOf) };
    },
  );
}
