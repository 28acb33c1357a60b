import { createHash, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../errors/error-codes.ts';
import type { Clock } from '../../lib/clock.ts';
import { randomToken } from '../../lib/ids.ts';
import { formatDateTime } from '../../lib/time-format.ts';
import { hashSecret, verifySecret } from '../auth/index.ts';
import type { UsersRepository, WebUserRow } from './users-repository.ts';
import type { WebUserKind } from './web-tables.ts';

/**
 * People who sign in to the web pages: customers of one account (the dashboard) and operators (the
 * console). A user is invited (a one-time link, valid 72 h, whose token is stored only as a SHA-256)
 * and sets a password of at least 12 characters (scrypt, like client secrets). Signing in makes a
 * server-side session (the cookie's token is stored only as a SHA-256) with its own CSRF token.
 * After `lockout.failures` failed sign-ins within `lockout.minutes`, an e-mail is refused until the
 * window has passed, whatever the password.
 *
 * @example
 * const { link } = await users.invite('customer', 'a@example.com', 2, 'https://localhost:8443/dashboard');
 * await users.acceptInvitation(tokenFrom(link), 'a long passphrase');
 * const session = await users.signIn('customer', 'a@example.com', 'a long passphrase', '127.0.0.1');
 */
export const MIN_PASSWORD_LENGTH = 12;
const INVITATION_HOURS = 72;

export interface UsersSettings {
  sessionHours: number;
  lockout: { failures: number; minutes: number };
}

export interface SignedIn {
  token: string;
  csrfToken: string;
  expiresAt: Date;
  user: WebUserRow;
}

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export function createUsersService(deps: {
  repository: UsersRepository;
  clock: Clock;
  settings: UsersSettings;
}) {
  const { repository, clock, settings } = deps;

  function present(user: WebUserRow) {
    return {
      userId: user.id,
      kind: user.kind,
      accountId: user.accountId,
      email: user.email,
      active: user.passwordHash !== null,
      createdAt: formatDateTime(user.createdAt),
    };
  }

  function checkEmail(email: string) {
    if (!/^[^\s@]+@[^\s@]+$/.test(email) || email.length > 254) {
      throw new AppError('INVALID_REQUEST', 'email is not an e-mail address', [
        { field: 'email', issue: 'expected name@domain' },
      ]);
    }
  }

  /** A one-time link to `pageUrl` that sets the user's password (the token rides in the fragment). */
  async function invite(kind: WebUserKind, email: string, accountId: number | null, pageUrl: string) {
    checkEmail(email);
    const now = clock.now();
    const user = await repository.upsert(kind, email, accountId, now);
    if (user.accountId !== accountId) {
      throw new AppError('INVALID_REQUEST', `${email} is a user of another account`, [
        { field: 'email', issue: 'already a user of another account' },
      ]);
    }
    const token = randomToken(32);
    const expiresAt = new Date(now.getTime() + INVITATION_HOURS * 3_600_000);
    await repository.insertInvitation(sha256(token), user.id, expiresAt);
    return { ...present(user), link: `${pageUrl}/#/welcome/${token}`, expiresAt: formatDateTime(expiresAt) };
  }

  async function checkPassword(password: string) {
    if (password.length < MIN_PASSWORD_LENGTH) {
      throw new AppError('INVALID_REQUEST', `The password needs at least ${MIN_PASSWORD_LENGTH} characters`, [
        { field: 'password', issue: `at least ${MIN_PASSWORD_LENGTH} characters` },
      ]);
    }
    return hashSecret(password);
  }

  /** Sets the password of an invitation's user; the link then stops working, as do older sessions. */
  async function acceptInvitation(token: string, password: string) {
    const hash = await checkPassword(password);
    const userId = await repository.useInvitation(sha256(token), clock.now());
    if (userId === undefined) {
      throw new AppError(
        'RESOURCE_NOT_FOUND',
        'This link was already used or has expired; ask for a new one',
      );
    }
    await repository.setPassword(userId, hash);
    await repository.deleteSessionsOf(userId);
    const user = await repository.findById(userId);
    return present(user as WebUserRow);
  }

  /** A user with a password at once (the bootstrap sandbox user, whose password `npm start` prints). */
  async function createWithPassword(kind: WebUserKind, email: string, accountId: number | null) {
    checkEmail(email);
    const password = randomToken(15);
    const user = await repository.upsert(kind, email, accountId, clock.now());
    await repository.setPassword(user.id, await checkPassword(password));
    return { ...present(user), password };
  }

  async function signIn(
    kind: WebUserKind,
    email: string,
    password: string,
    ip: string | null,
  ): Promise<SignedIn> {
    const now = clock.now();
    const since = new Date(now.getTime() - settings.lockout.minutes * 60_000);
    if ((await repository.failuresSince(kind, email, since)) >= settings.lockout.failures) {
      throw new AppError(
        'RATE_LIMIT_REACHED',
        `Too many failed sign-ins: this e-mail is locked for up to ${settings.lockout.minutes} minutes`,
      );
    }
    const user = await repository.findByEmail(kind, email);
    const ok = user?.passwordHash ? await verifySecret(password, user.passwordHash) : false;
    if (!user || !ok) {
      await repository.recordFailure(kind, email, ip, now);
      throw new AppError('AUTHENTICATION_FAILURE', 'Wrong e-mail or password');
    }
    await repository.clearFailures(kind, email);
    const token = randomToken(32);
    const csrfToken = randomToken(24);
    const expiresAt = new Date(now.getTime() + settings.sessionHours * 3_600_000);
    await repository.insertSession({
      tokenHash: sha256(token),
      userId: user.id,
      csrfToken,
      createdAt: now,
      expiresAt,
    });
    return { token, csrfToken, expiresAt, user };
  }

  /** The session's user and CSRF token, or undefined for an unknown or expired token. */
  async function session(kind: WebUserKind, token: string) {
    const found = await repository.findSession(sha256(token), clock.now());
    if (!found || found.kind !== kind) return undefined;
    return found;
  }

  async function signOut(token: string) {
    await repository.deleteSession(sha256(token));
  }

  async function list(kind: WebUserKind, accountId?: number) {
    return (await repository.listUsers(kind, accountId)).map(present);
  }

  return { invite, acceptInvitation, createWithPassword, signIn, session, signOut, list };
}

/** Constant-time comparison of a CSRF token sent by a page with the session's. */
export function sameToken(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(sha256(given));
  const b = Buffer.from(sha256(expected));
  return timingSafeEqual(a, b);
}

export type UsersService = ReturnType<typeof createUsersService>;
