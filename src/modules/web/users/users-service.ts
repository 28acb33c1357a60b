import { createHash, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { AppError } from '../../../errors/error-codes.ts';
import type { Clock } from '../../../lib/clock.ts';
import { parseEmail } from '../../../lib/email.ts';
import { randomToken } from '../../../lib/ids.ts';
import { DUMMY_PASSWORD_HASH, hashPassword, verifyPassword } from '../../../lib/password-hash.ts';
import type { TextSealer } from '../../../lib/sealed-text.ts';
import { formatDateTime } from '../../../lib/time-format.ts';
import { base32Decode, base32Encode, matchingStep, newTotpSecret, otpauthUri } from '../../../lib/totp.ts';
import type { UsersRepository, WebUserRow } from './users-repository.ts';
import type { WebUserKind } from './web-tables.ts';

/**
 * People who sign in to the web pages: customers of one account (the dashboard) and operators (the
 * console). A user is invited (a one-time link, valid 72 h, whose token is stored only as a SHA-256)
 * and sets a password of at least 12 characters (scrypt, lib/password-hash.ts). Signing in makes a
 * server-side session (the cookie's token is stored only as a SHA-256) with its own CSRF token.
 *
 * Lock-out (docs/security.md): after `lockout.failures` failed sign-ins of one e-mail from one
 * address within `lockout.minutes`, that e-mail is refused from that address until the window has
 * passed, whatever the password; from another address its user signs in as usual. After
 * `lockout.addressFailures` failures from one address, whatever the e-mails, that address is refused.
 * An unknown e-mail costs the same scrypt as a known one, so the time of a refusal tells nothing.
 *
 * Two-step sign-in is optional per user (TOTP, lib/totp.ts): `enrolTotp` makes a secret (sealed at
 * rest with a key of its own) that is pending until `confirmTotp` gets a right code; from then on
 * sign-in needs a code too, until `disableTotp` (with a code). A code is accepted once (the step is
 * recorded in the same statement that checks it), and a wrong one counts toward the lock-out like a
 * wrong password. A right password without a code answers 401 with the detail `code: required`, not
 * counted as a failure, so the page asks for the code.
 *
 * @example
 * const { link } = await users.invite('customer', 'a@example.com', 2, 'https://localhost:8443/dashboard');
 * await users.acceptInvitation(tokenFrom(link), 'a long passphrase');
 * const session = await users.signIn('customer', 'a@example.com', 'a long passphrase', '127.0.0.1');
 */
export const MIN_PASSWORD_LENGTH = 12;
const INVITATION_HOURS = 72;
const RESET_MINUTES = 30;
/** Password reset e-mails to one address within an hour, at most. */
const RESETS_PER_HOUR = 3;

/**
 * How the web module e-mails a link (an invitation, a password reset): queued in the transaction
 * that stores the link's token hash (the outbox, modules/messaging), the link sealed in the message.
 */
export interface WebMail {
  queue(
    trx: Kysely<Database>,
    message: {
      kind: 'web.invitation' | 'web.password_reset';
      to: string;
      link: string;
      accountId: number | null;
      data: Record<string, unknown>;
    },
  ): Promise<void>;
  /** How many messages of `kind` went to `to` since `since` (the reset limit). */
  sentSince(kind: string, to: string, since: Date): Promise<number>;
}

export interface UsersSettings {
  sessionHours: number;
  /** failures per (e-mail, address), failures per address (0: none), both within `minutes` */
  lockout: { failures: number; minutes: number; addressFailures: number };
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
  /** seals TOTP secrets at rest */
  sealer: TextSealer;
  /** e-mails invitations and password resets (without it, the link is only shown to the inviter) */
  mail?: WebMail;
}) {
  const { repository, clock, settings, sealer } = deps;

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

  /** The one e-mail rule of airgift (lib/email.ts), as gift card recipients are checked. */
  function checkEmail(email: string) {
    if (parseEmail(email) === null) {
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
    const link = `${pageUrl}/#/welcome/${token}`;
    await repository.insertInvitation(sha256(token), user.id, expiresAt, (trx) =>
      mailLink(trx, 'web.invitation', user, link, expiresAt),
    );
    return { ...present(user), link, expiresAt: formatDateTime(expiresAt) };
  }

  async function mailLink(
    trx: Kysely<Database>,
    kind: 'web.invitation' | 'web.password_reset',
    user: WebUserRow,
    link: string,
    expiresAt: Date,
  ) {
    await deps.mail?.queue(trx, {
      kind,
      to: user.email,
      link,
      accountId: user.accountId,
      data: { page: user.kind === 'customer' ? 'dashboard' : 'console', expiresAt: expiresAt.toISOString() },
    });
  }

  /**
   * E-mails a one-time link (30 minutes) that sets a new password, when `email` is a user of this
   * page; the same quiet answer either way, so the form tells nobody who has an account. At most
   * RESETS_PER_HOUR e-mails to one address an hour.
   */
  async function requestPasswordReset(kind: WebUserKind, email: string, pageUrl: string): Promise<void> {
    // No rule of its own: any text finds its user or none, and the answer is the same either way.
    const user = await repository.findByEmail(kind, email);
    if (!user || !deps.mail) return;
    const now = clock.now();
    if (
      (await deps.mail.sentSince('web.password_reset', user.email, new Date(now.getTime() - 3_600_000))) >=
      RESETS_PER_HOUR
    ) {
      return;
    }
    const token = randomToken(32);
    const expiresAt = new Date(now.getTime() + RESET_MINUTES * 60_000);
    await repository.insertInvitation(sha256(token), user.id, expiresAt, (trx) =>
      mailLink(trx, 'web.password_reset', user, `${pageUrl}/#/reset/${token}`, expiresAt),
    );
  }

  async function checkPassword(password: string) {
    if (password.length < MIN_PASSWORD_LENGTH) {
      throw new AppError('INVALID_REQUEST', `The password needs at least ${MIN_PASSWORD_LENGTH} characters`, [
        { field: 'password', issue: `at least ${MIN_PASSWORD_LENGTH} characters` },
      ]);
    }
    return hashPassword(password);
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

  async function refuseWhenLocked(kind: WebUserKind, email: string, ip: string | null) {
    const { failures, minutes, addressFailures } = settings.lockout;
    const since = new Date(clock.now().getTime() - minutes * 60_000);
    if (
      ip !== null &&
      addressFailures > 0 &&
      (await repository.addressFailuresSince(ip, since)) >= addressFailures
    ) {
      throw new AppError(
        'RATE_LIMIT_REACHED',
        `Too many failed sign-ins from this address: it is refused for up to ${minutes} minutes`,
      );
    }
    if ((await repository.failuresSince(kind, email, ip, since)) >= failures) {
      throw new AppError(
        'RATE_LIMIT_REACHED',
        `Too many failed sign-ins: this e-mail is locked from this address for up to ${minutes} minutes`,
      );
    }
  }

  /**
   * Whether `code` is the user's current TOTP code, not used before; a match is recorded as used
   * (and, with `enable`, confirms a pending secret). `want`: the secret must be confirmed or pending.
   */
  async function useCode(user: WebUserRow, code: string, want: 'enabled' | 'pending', enable = false) {
    const totp = await repository.totpOf(user.id);
    if (!totp?.secret || totp.enabled !== (want === 'enabled')) return false;
    const secret = base32Decode(await sealer.open(totp.secret));
    const step = matchingStep(secret, code, clock.now().getTime(), totp.lastStep);
    return step !== null && (await repository.useTotpStep(user.id, step, enable));
  }

  async function signIn(
    kind: WebUserKind,
    email: string,
    password: string,
    ip: string | null,
    code?: string,
  ): Promise<SignedIn> {
    const now = clock.now();
    await refuseWhenLocked(kind, email, ip);
    const user = await repository.findByEmail(kind, email);
    // No user (or one who has not set a password yet): the same scrypt against a dummy hash.
    const ok =
      (await verifyPassword(password, user?.passwordHash ?? DUMMY_PASSWORD_HASH)) && !!user?.passwordHash;
    if (!user || !ok) {
      await repository.recordFailure(kind, email, ip, now);
      throw new AppError('AUTHENTICATION_FAILURE', 'Wrong e-mail or password');
    }
    if (user.totpEnabled) {
      if (code === undefined || code === '') {
        throw new AppError('AUTHENTICATION_FAILURE', 'Enter the 6-digit code of your authenticator app', [
          { field: 'code', issue: 'required' },
        ]);
      }
      if (!(await useCode(user, code, 'enabled'))) {
        await repository.recordFailure(kind, email, ip, now);
        throw new AppError('AUTHENTICATION_FAILURE', 'Wrong or already used code', [
          { field: 'code', issue: 'wrong or already used' },
        ]);
      }
    }
    await repository.clearFailures(kind, email, ip);
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

  /** A new TOTP secret for the signed-in user, pending until confirmed: its base32 text and URI. */
  async function enrolTotp(user: WebUserRow, issuer: string) {
    if (user.totpEnabled) {
      throw new AppError('INVALID_REQUEST', 'Two-step sign-in is on already; turn it off first');
    }
    const secret = newTotpSecret();
    await repository.setTotpSecret(user.id, await sealer.seal(base32Encode(secret)));
    return { secret: base32Encode(secret), uri: otpauthUri(issuer, user.email, secret) };
  }

  /** A code that is wrong (or used) counts toward the lock-out, as on sign-in. */
  async function checkCode(user: WebUserRow, code: string, ip: string | null, want: 'enabled' | 'pending') {
    await refuseWhenLocked(user.kind, user.email, ip);
    if (!(await useCode(user, code, want, want === 'pending'))) {
      await repository.recordFailure(user.kind, user.email, ip, clock.now());
      throw new AppError('INVALID_REQUEST', 'Wrong or already used code', [
        { field: 'code', issue: 'wrong or already used' },
      ]);
    }
  }

  /** Turns two-step sign-in on with a code of the pending secret. */
  async function confirmTotp(user: WebUserRow, code: string, ip: string | null) {
    const totp = await repository.totpOf(user.id);
    if (user.totpEnabled || !totp?.secret) {
      throw new AppError('INVALID_REQUEST', 'Nothing to confirm: start the enrolment first');
    }
    await checkCode(user, code, ip, 'pending');
    return { totpEnabled: true };
  }

  /** Turns two-step sign-in off; it takes a current code. */
  async function disableTotp(user: WebUserRow, code: string, ip: string | null) {
    if (!user.totpEnabled) throw new AppError('INVALID_REQUEST', 'Two-step sign-in is off already');
    await checkCode(user, code, ip, 'enabled');
    await repository.setTotpSecret(user.id, null);
    return { totpEnabled: false };
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

  /** The user of that kind with that e-mail, if any (who signed in: the audit log's actor). */
  const find = (kind: WebUserKind, email: string) => repository.findByEmail(kind, email);

  async function list(kind: WebUserKind, accountId?: number) {
    return (await repository.listUsers(kind, accountId)).map(present);
  }

  return {
    invite,
    requestPasswordReset,
    acceptInvitation,
    createWithPassword,
    signIn,
    session,
    signOut,
    list,
    find,
    enrolTotp,
    confirmTotp,
    disableTotp,
  };
}

/** Constant-time comparison of a CSRF token sent by a page with the session's. */
export function sameToken(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(sha256(given));
  const b = Buffer.from(sha256(expected));
  return timingSafeEqual(a, b);
}

export type UsersService = ReturnType<typeof createUsersService>;
