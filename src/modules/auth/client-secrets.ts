import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Environment } from '../../db/schema.ts';
import { randomToken } from '../../lib/ids.ts';
import { isPasswordHash, verifyPassword } from '../../lib/password-hash.ts';

/**
 * Client ids and secrets. A secret is shown once, at creation, and stored only as a salted
 * HMAC-SHA-256 (`hmac-sha256$salt$hash`). A secret is 32 random bytes (256 bits): no one can guess
 * it from its hash, fast or slow, so it needs no slow hash; and a fast one lets the token endpoint
 * check every secret before anything else at a cost of microseconds (docs/decisions.md, "Client
 * secrets: a fast hash"). Secrets stored before are scrypt hashes: they keep working and are
 * replaced by the fast hash on their first right use (token-service.ts).
 *
 * @example
 * const { clientId, clientSecret } = newClientCredentials('sandbox');
 * const stored = hashClientSecret(clientSecret);
 * await verifyClientSecret(clientSecret, stored); // true
 */
const FAST = 'hmac-sha256';

/** A hash of no one's secret in today's format: an unknown client id is refused at the same cost. */
export const DUMMY_CLIENT_SECRET_HASH =
  'hmac-sha256$XNJMetXDUYmlgwbZOH8Cvw$2PBpCPSuj6RS9kD4AI2d5BFsFPw4gxSaNADGoC9VS0w';

export function newClientCredentials(environment: Environment) {
  const tag = environment === 'live' ? 'live' : 'test';
  return { clientId: `ag_${tag}_${randomToken(12)}`, clientSecret: `sk_${tag}_${randomToken(32)}` };
}

const mac = (salt: Buffer, secret: string) => createHmac('sha256', salt).update(secret).digest();

export function hashClientSecret(secret: string): string {
  const salt = randomBytes(16);
  return `${FAST}$${salt.toString('base64url')}$${mac(salt, secret).toString('base64url')}`;
}

/** A hash stored before the fast one (scrypt): right secrets are re-hashed on use. */
export const isLegacySecretHash = isPasswordHash;

export async function verifyClientSecret(secret: string, stored: string): Promise<boolean> {
  if (isLegacySecretHash(stored)) return verifyPassword(secret, stored);
  const [scheme, salt, hash] = stored.split('$');
  if (scheme !== FAST || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = mac(Buffer.from(salt, 'base64url'), secret);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
