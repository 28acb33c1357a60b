import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import type { Environment } from '../../db/schema.ts';
import { randomToken } from '../../lib/ids.ts';

/**
 * Client ids and secrets. A secret is shown once, at creation, and stored only as a scrypt hash
 * (`scrypt$N$r$p$salt$hash`), so a copy of the database gives no usable credential.
 *
 * @example
 * const { clientId, clientSecret } = newClientCredentials('sandbox');
 * const stored = await hashSecret(clientSecret);
 * await verifySecret(clientSecret, stored); // true
 */
const scryptAsync = promisify(scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>;

const N = 16384;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;

export function newClientCredentials(environment: Environment) {
  const tag = environment === 'live' ? 'live' : 'test';
  return { clientId: `ag_${tag}_${randomToken(12)}`, clientSecret: `sk_${tag}_${randomToken(32)}` };
}

export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(secret, salt, KEY_LENGTH, { N, r: R, p: P, maxmem: 64 * 1024 * 1024 });
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scryptAsync(secret, Buffer.from(salt, 'base64url'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: 64 * 1024 * 1024,
  });
  return timingSafeEqual(actual, expected);
}
