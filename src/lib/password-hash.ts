import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

/**
 * Passwords people choose (the web users') are stored as scrypt hashes (`scrypt$N$r$p$salt$hash`):
 * slow on purpose, so a copy of the database does not let anyone try many guesses. Client secrets
 * made before they had a fast hash of their own (auth/client-secrets.ts) are checked here too.
 *
 * @example
 * const stored = await hashPassword('a long passphrase');
 * await verifyPassword('a long passphrase', stored); // true
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
const MAX_MEM = 64 * 1024 * 1024;

/**
 * A hash of no one's password, with today's parameters: checking a password against it costs what
 * checking a real user's costs, so an unknown e-mail or client id takes as long to refuse as a known one.
 */
export const DUMMY_PASSWORD_HASH =
  'scrypt$16384$8$1$ArOR23csZVaLP-8P77ImRw$w5-acCMZFJCMgZv2xzQcOfk0e8hiuHHf2wEcasj9iP8';

export const isPasswordHash = (stored: string) => stored.startsWith('scrypt$');

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(password, salt, KEY_LENGTH, { N, r: R, p: P, maxmem: MAX_MEM });
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64url'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: MAX_MEM,
  });
  return timingSafeEqual(actual, expected);
}
