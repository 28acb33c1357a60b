import { AppError } from '../../../errors/error-codes.ts';
import type { Dec } from '../../../lib/money.ts';
import type { AccountRow, AccountsService } from '../../accounts/index.ts';
import type { Principal } from '../../auth/index.ts';
import type { Countries } from '../../reference/index.ts';
import type { OperatorSource } from '../catalog/live-operators.ts';
import type { OperatorRecord } from '../catalog/operator-catalog.ts';
import type { TopupRequest } from '../fulfilment/provider.ts';
import { parseAmount } from './order-pricing.ts';
import type { TopupBody } from './order-schemas.ts';
import type { ConflictCheck } from './orders-repository.ts';
import { checkRecipient, checkSenderPhone, type Recipient } from './recipient.ts';

/** A `POST /topups` once checked: what the rest of the order path reads of it. */
export interface CheckedTopup {
  account: AccountRow;
  body: TopupBody;
  amount: Dec;
  operator: OperatorRecord;
  recipient: Recipient;
  senderPhone: string | null;
  /** What the provider's `accept` is asked. */
  request: TopupRequest;
  /** Two top-ups to one recipient never run side by side: each must see the other when checked. */
  tag: string | undefined;
  /** Its customIdentifier and recipient checks (`orders-repository.ts`), less their time bound. */
  checks: Omit<ConflictCheck, 'since' | 'nextId'>;
}

export interface TopupCheckDeps {
  accounts: AccountsService;
  /** The environment's operator catalogue (live: the synced one when there is one). */
  source: OperatorSource;
  countries: Countries;
}

/**
 * Every rule of `POST /topups` a schema cannot say, in the order a caller can fix them: the amount
 * format (`order-pricing.ts`), the account (403 when inactive), the operator of the environment's
 * catalogue (404 unknown, 422 inactive), recipient and sender (`recipient.ts`). The amount rules come
 * with the price.
 *
 * @example
 * const { check } = createTopupChecks({ accounts, source, countries });
 * await check(principal, { operatorId: 1001, amount: 10, recipientPhone });
 */
export function createTopupChecks(deps: TopupCheckDeps) {
  return {
    async check(principal: Principal, body: TopupBody): Promise<CheckedTopup> {
      const amount = parseAmount(body.amount);
      const account = await deps.accounts.requireActive(principal.accountId);
      const operator = (await deps.source.of(principal.environment)).find(body.operatorId);
      if (!operator) {
        throw new AppError('RESOURCE_NOT_FOUND', `No operator ${body.operatorId}`, [
          { field: 'operatorId', issue: 'unknown operator' },
        ]);
      }
      if (!operator.status) throw new AppError('OPERATOR_UNAVAILABLE_OR_CURRENTLY_INACTIVE');
      const recipient = checkRecipient(operator, body, deps.countries);
      const senderPhone = checkSenderPhone(body.senderPhone, deps.countries);
      return {
        account,
        body,
        amount,
        operator,
        recipient,
        senderPhone,
        request: { operatorId: operator.operatorId, subscriber: recipient.subscriber },
        tag: recipient.phone ?? recipient.email ?? undefined,
        checks: {
          accountId: principal.accountId,
          environment: principal.environment,
          customIdentifier: body.customIdentifier ?? null,
          recipient: recipient.phone,
        },
      };
    },
  };
}
