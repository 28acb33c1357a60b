import type { Clock } from '../../lib/clock.ts';
import { DUMMY_PASSWORD_HASH, verifyPassword } from '../../lib/password-hash.ts';
import {
  DUMMY_CLIENT_SECRET_HASH,
  hashClientSecret,
  isLegacySecretHash,
  verifyClientSecret,
} from './client-secrets.ts';
import type { CredentialRow, CredentialsRepository } from './credentials-repository.ts';

/** How long a process trusts its answer to "is any old (scrypt) secret hash left?". */
const LEGACY_RECHECK_MS = 60_000;

/**
 * Whether a token request's secret is its client's, at the same cost whether the client id exists or
 * not, so the time of a refusal does not tell known client ids from unknown ones: an unknown id is
 * checked against a dummy hash. A right secret still stored as an old scrypt hash is re-hashed
 * (client-secrets.ts); while any such hash is left, every refusal also costs one scrypt, as a
 * refusal of such a credential does.
 *
 * @example
 * const check = createSecretCheck(credentials, clock);
 * await check('sk_test_…', await credentials.find('ag_test_…')); // true or false
 */
export function createSecretCheck(credentials: CredentialsRepository, clock: Clock) {
  let legacy = { left: true, checkedAt: Number.NEGATIVE_INFINITY };

  async function legacyLeft(): Promise<boolean> {
    const now = clock.now().getTime();
    if (now - legacy.checkedAt >= LEGACY_RECHECK_MS) {
      legacy = { left: await credentials.anyLegacySecretHash(), checkedAt: now };
    }
    return legacy.left;
  }

  return async function check(secret: string, credential: CredentialRow | undefined): Promise<boolean> {
    const stored = credential?.secretHash ?? DUMMY_CLIENT_SECRET_HASH;
    const right = (await verifyClientSecret(secret, stored)) && credential !== undefined;
    if (right && isLegacySecretHash(stored)) {
      await credentials.replaceSecretHash(credential.clientId, stored, hashClientSecret(secret));
    }
    if (!right && !isLegacySecretHash(stored) && (await legacyLeft())) {
      await verifyPassword(secret, DUMMY_PASSWORD_HASH);
    }
    return right;
  };
}
