import { Type } from 'typebox';
import type { TypedApp } from '../../../http/schemas.ts';
import { params } from '../../audit/index.ts';
import type { OperatorStatuses } from './operator-statuses.ts';

/**
 * The operator's top-up operator routes on the admin API: (de)activate an operator, as
 * `POST /products/{id}/activate|deactivate` does for gift card products. (`/operators` on the admin
 * API are the console's users, hence `/topup-operators`.)
 */
const OperatorParams = Type.Object({ operatorId: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) });
export const TopupOperatorStatus = Type.Object({
  operatorId: Type.Integer(),
  status: Type.Union([Type.Literal('ACTIVE'), Type.Literal('INACTIVE')]),
});

export function operatorAdminRoutes(app: TypedApp, statuses: OperatorStatuses) {
  for (const [action, status] of [
    ['activate', 'ACTIVE'],
    ['deactivate', 'INACTIVE'],
  ] as const) {
    app.post(
      `/topup-operators/:operatorId/${action}`,
      {
        schema: { params: OperatorParams, response: { 200: TopupOperatorStatus } },
        config: {
          audit: {
            action: `topup-operator.${status.toLowerCase()}`,
            target: (r) => `topup operator ${params(r).operatorId}`,
          },
        },
      },
      (request) => statuses.set(request.params.operatorId, status),
    );
  }
}
