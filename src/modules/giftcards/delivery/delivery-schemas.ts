import { Type } from 'typebox';

/** The deliveries endpoints' schemas (`GET|POST /orders/transactions/{transactionId}/deliveries`). */
const DateTimeText = Type.String({
  description: 'yyyy-MM-dd HH:mm:ss (UTC)',
  examples: ['2026-11-26 09:14:03'],
});

export const Delivery = Type.Object({
  deliveryId: Type.Integer(),
  transactionId: Type.Integer(),
  kind: Type.Union([Type.Literal('giftcard_email'), Type.Literal('link_sms'), Type.Literal('code_sms')], {
    description:
      'giftcard_email: the e-mail with the link; link_sms: the link by SMS (a phone and no e-mail); code_sms: a one-time code the redeem page asked for',
  }),
  channel: Type.Union([Type.Literal('email'), Type.Literal('sms')]),
  address: Type.String({ description: 'the e-mail address or the phone number (E.164)' }),
  status: Type.Union(
    [
      Type.Literal('queued'),
      Type.Literal('sent'),
      Type.Literal('delivered'),
      Type.Literal('failed'),
      Type.Literal('captured'),
    ],
    { description: 'captured: a sandbox message, rendered and kept, never sent' },
  ),
  attempts: Type.Integer(),
  lastError: Type.Union([Type.String(), Type.Null()]),
  createdAt: DateTimeText,
  updatedAt: DateTimeText,
  sentAt: Type.Union([DateTimeText, Type.Null()]),
});

export const Deliveries = Type.Object({
  transactionId: Type.Integer(),
  deliveries: Type.Array(Delivery),
  reveals: Type.Array(
    Type.Object({
      revealedAt: DateTimeText,
      ipAddress: Type.Union([Type.String(), Type.Null()]),
    }),
    { description: 'each time the recipient revealed the code on the redeem page' },
  ),
});

export const ResendBody = Type.Object(
  {
    recipientEmail: Type.Optional(Type.String({ description: 'a corrected e-mail address' })),
    recipientPhoneDetails: Type.Optional(
      Type.Object(
        { countryCode: Type.String(), phoneNumber: Type.String() },
        { description: 'a corrected phone (an order placed with one)' },
      ),
    ),
  },
  { additionalProperties: false },
);
