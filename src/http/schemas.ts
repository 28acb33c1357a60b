import { Type } from 'typebox';

/**
 * Schema pieces shared by many routes. Each route's own schema (params, query, body, response)
 * validates the request, shapes the JSON answer and will produce its OpenAPI document.
 */
export const ErrorEnvelope = Type.Object({
  timeStamp: Type.Integer(),
  message: Type.String(),
  infoLink: Type.String(),
  path: Type.String(),
  errorCode: Type.String(),
  details: Type.Array(Type.Object({ field: Type.String(), issue: Type.String() })),
});

export const Balance = Type.Object({
  balance: Type.Number(),
  currencyCode: Type.String(),
  currencyName: Type.String(),
  updatedAt: Type.String(),
});

export const DateTimeText = Type.String({ description: 'UTC, yyyy-MM-dd HH:mm:ss' });
