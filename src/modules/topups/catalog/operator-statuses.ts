import type { Environment } from '../../../db/schema.ts';
import { AppError } from '../../../errors/error-codes.ts';
import type { Clock } from '../../../lib/clock.ts';
import type { OperatorSource } from './live-operators.ts';
import type { OperatorStatus, OperatorStatusesRepository } from './operator-statuses-repository.ts';

/**
 * The operator's activate/deactivate of top-up operators. Operators come from files (the seed) or
 * live's synced snapshot and have no row of their own, so the choice is kept by operator id in
 * `topup_operator_statuses` (migration 0014) and applied by the operator source to every catalogue
 * it serves (`live-operators.ts`): lists, by id, auto-detect, FX rate and commissions show the status,
 * and `POST /topups` of a deactivated operator is 422 OPERATOR_UNAVAILABLE_OR_CURRENTLY_INACTIVE.
 * The caller announces the `catalog` change (the admin base's announcer, or the console service),
 * so every server drops its catalogues within a second.
 *
 * @example
 * await statuses.set(1001, 'INACTIVE'); // { operatorId: 1001, status: 'INACTIVE' }
 */
export function createOperatorStatuses(deps: {
  repository: OperatorStatusesRepository;
  source: OperatorSource;
  clock: Clock;
}) {
  const { repository, source, clock } = deps;
  const environments: Environment[] = ['sandbox', 'live'];

  return {
    /** Sets an operator's status; 404 for an id no catalogue (seeded or synced) has. */
    async set(operatorId: number, status: OperatorStatus) {
      const known = await Promise.all(environments.map(async (e) => (await source.of(e)).find(operatorId)));
      if (!known.some(Boolean)) throw new AppError('RESOURCE_NOT_FOUND', `No operator ${operatorId}`);
      await repository.set(operatorId, status, clock.now());
      source.invalidate();
      return { operatorId, status };
    },

    /**
     * Operators of the seeded catalogue of the country `search` names (two letters), else whose name
     * contains `search` or whose id is `search`, with the status they are served with, in id order,
     * one page.
     */
    async list(search: string | undefined, page: { limit: number; offset: number }) {
      const catalog = await source.of('sandbox');
      const wanted = search?.trim().toLowerCase();
      // two letters naming a country of the catalogue: that country's operators only
      const country = wanted?.length === 2 && catalog.hasCountry(wanted) ? wanted.toUpperCase() : null;
      const found = catalog.all.filter((o) =>
        country
          ? o.countryCode === country
          : !wanted || o.name.toLowerCase().includes(wanted) || String(o.operatorId) === wanted,
      );
      return {
        items: found.slice(page.offset, page.offset + page.limit).map((o) => ({
          operatorId: o.operatorId,
          name: o.name,
          countryCode: o.countryCode,
          status: (o.status ? 'ACTIVE' : 'INACTIVE') as OperatorStatus,
        })),
        total: found.length,
      };
    },
  };
}

export type OperatorStatuses = ReturnType<typeof createOperatorStatuses>;
