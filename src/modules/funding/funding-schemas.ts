import { Type } from 'typebox';

/**
 * The request and response schemas of funding by bank transfer: the admin API's, the dashboard's and
 * the console's routes. Imports typebox only (the web pages read these types: modules/web/README.md).
 * Amounts are answered as exact decimal text with the currency's minor digits ("125.00", "1500" in
 * JPY); they are sent as text or as a JSON number.
 */
const Money = Type.String({
  pattern: '^-?\\d+(\\.\\d+)?$',
  description: 'exact, in the minor unit of its currency',
});
const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

export const CurrencyParams = Type.Object({ currencyCode: Type.String({ pattern: '^[A-Za-z]{3}$' }) });

export const BankDetailsBody = Type.Object(
  {
    accountHolder: Type.String({ minLength: 1, maxLength: 200 }),
    accountNumber: Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'an IBAN or a local account number',
    }),
    bic: Type.Optional(
      Type.Union([
        Type.String({ pattern: '^[A-Za-z0-9 ]{8,14}$', description: 'BIC / SWIFT code, 8 or 11 characters' }),
        Type.Null(),
      ]),
    ),
    bankName: Type.String({ minLength: 1, maxLength: 200 }),
    instructions: Type.Optional(Type.Union([Type.String({ maxLength: 2000 }), Type.Null()])),
  },
  { additionalProperties: false },
);

export const BankDetails = Type.Object({
  currencyCode: Type.String(),
  accountHolder: Type.String(),
  accountNumber: Type.String(),
  bic: Nullable(Type.String()),
  bankName: Type.String(),
  instructions: Nullable(Type.String()),
  updatedAt: Type.String(),
});
export const BankDetailsList = Type.Object({ items: Type.Array(BankDetails) });
export const RemovedBankDetails = Type.Object({ currencyCode: Type.String(), removed: Type.Boolean() });

export const TransferStatus = Type.Union([
  Type.Literal('announced'),
  Type.Literal('confirmed'),
  Type.Literal('rejected'),
]);

/** A transfer as its account sees it. */
const transferFields = {
  transferId: Type.Integer(),
  accountId: Type.Integer(),
  currencyCode: Type.String(),
  amount: Money,
  transferDate: Type.String({ description: 'the day the customer says they sent it (YYYY-MM-DD)' }),
  reference: Type.String({ description: "the account's reference, AG-<accountId>-<check>" }),
  payerReference: Nullable(Type.String()),
  status: TransferStatus,
  rejectReason: Nullable(Type.String()),
  announcedAt: Type.String(),
  decidedAt: Nullable(Type.String()),
  /** the FUNDING ledger entry of a confirmed transfer (its receipt) */
  ledgerEntryId: Type.Union([Type.Integer(), Type.Null()]),
};
export const Transfer = Type.Object(transferFields);
/** A transfer as the operator sees it: whose, and who decided. */
export const QueuedTransfer = Type.Object({
  ...transferFields,
  accountName: Type.String(),
  decidedBy: Nullable(Type.String()),
});
export const TransferPage = Type.Object({
  items: Type.Array(Transfer),
  hasMore: Type.Boolean(),
  page: Type.Integer(),
  size: Type.Integer(),
});
export const QueuedTransferPage = Type.Object({
  items: Type.Array(QueuedTransfer),
  hasMore: Type.Boolean(),
  page: Type.Integer(),
  size: Type.Integer(),
});
const paging = {
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })),
  size: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })),
};
export const TransfersQuery = Type.Object({ status: Type.Optional(TransferStatus), ...paging });
export const QueueQuery = Type.Object({
  status: Type.Optional(TransferStatus),
  accountId: Type.Optional(Type.Integer({ minimum: 1 })),
  ...paging,
});
export const TransferParams = Type.Object({ transferId: Type.Integer({ minimum: 1 }) });

export const AnnounceBody = Type.Object(
  {
    amount: Type.Union([Type.Number(), Money]),
    transferDate: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD' }),
    payerReference: Type.Optional(Type.Union([Type.String({ maxLength: 140 }), Type.Null()])),
  },
  { additionalProperties: false },
);
export const RejectBody = Type.Object(
  { reason: Type.String({ minLength: 1, maxLength: 500 }) },
  { additionalProperties: false },
);
/** The answer to a confirmation: the transfer, and the live balance its FUNDING entry left. */
export const ConfirmedTransfer = Type.Object({ ...QueuedTransfer.properties, newBalance: Money });

/** What the dashboard's Add funds page shows: where to pay and with which reference. */
export const FundingInstructions = Type.Object({
  reference: Type.String(),
  currencyCode: Type.String(),
  bankDetails: Type.Union([BankDetails, Type.Null()]),
});

export const StatementQuery = Type.Object({
  environment: Type.Union([Type.Literal('live'), Type.Literal('sandbox')]),
  month: Type.String({ pattern: '^\\d{4}-(0[1-9]|1[0-2])$', description: 'YYYY-MM (UTC)' }),
});
export const StatementEntry = Type.Object({
  entryId: Type.Integer(),
  createdAt: Type.String(),
  kind: Type.String(),
  amount: Money,
  balanceAfter: Money,
  reason: Nullable(Type.String()),
  product: Nullable(Type.String()),
  transactionId: Type.Union([Type.Integer(), Type.Null()]),
});
export const Statement = Type.Object({
  accountId: Type.Integer(),
  accountName: Type.String(),
  environment: Type.String(),
  currencyCode: Type.String(),
  month: Type.String(),
  from: Type.String({ description: 'the first instant of the month (UTC), included' }),
  to: Type.String({ description: 'the first instant of the next month (UTC), excluded' }),
  openingBalance: Money,
  totalIn: Money,
  totalOut: Money,
  closingBalance: Money,
  entryCount: Type.Integer({ description: 'how many entries the month has' }),
  truncated: Type.Boolean({ description: 'true when `entries` holds only the first ones (the CSV has all)' }),
  entries: Type.Array(StatementEntry),
});

export const ReceiptParams = Type.Object({ entryId: Type.Integer({ minimum: 1 }) });
export const Receipt = Type.Object({
  entryId: Type.Integer(),
  accountId: Type.Integer(),
  accountName: Type.String(),
  environment: Type.String(),
  currencyCode: Type.String(),
  amount: Money,
  balanceAfter: Money,
  reason: Nullable(Type.String()),
  createdAt: Type.String(),
  reference: Type.String(),
  transfer: Type.Union([
    Type.Object({
      transferId: Type.Integer(),
      transferDate: Type.String(),
      payerReference: Nullable(Type.String()),
    }),
    Type.Null(),
  ]),
});
