import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
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
import { FIRST_ROLE, isRoleOf, permissionsOf } from '../permissions.ts';
import type { MemberChange, UsersRepository, WebUserRow } from './users-repository.ts';
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
 * counted as a failure, so the page asks for the code. Turning it on makes 10 recovery codes, shown
 * once and stored as SHA-256: each works once in place of a code (sign-in, turning it off); a new
 * set (`regenerateRecoveryCodes`, with a code) deletes the older one.
 *
 * Every user has a role (modules/web/permissions.ts): invited with one (the admin API's invitations
 * without one make an owner, or an admin), changed and removed by `changeMember`, which never leaves
 * an account without an active owner nor the console without an active admin.
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
const RECOVERY_CODES = 10;
/** Recovery codes' letters: no 0/o, 1/l/i to misread; 10 of these 31 are 49 bits. */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** A recovery code as typed (any case, spaces or a hyphen) in the form it is hashed. */
const normalCode = (code: string) => code.toLowerCase().replace(/[\s-]/g, '');

function newRecoveryCode(): string {
  // bytes past the last whole multiple of the alphabet are skipped, so every letter is as likely
  const limit = 256 - (256 % RECOVERY_ALPHABET.length);
  let letters = '';
  while (letters.length < 10) {
    for (const b of randomBytes(16)) {
      if (b < limit && letters.length < 10) letters += RECOVERY_ALPHABET[b % RECOVERY_ALPHABET.length];
    }
  }
  return `${letters.slice(0, 5)}-${letters.slice(5)}`;
}

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
      role: user.role,
      totpEnabled: user.totpEnabled,
      createdAt: formatDateTime(user.createdAt),
    };
  }

  function checkRole(kind: WebUserKind, role: string) {
    if (!isRoleOf(kind, role)) {
      throw new AppError(
        'INVALID_REQUEST',
        `${role} is not a role of the ${kind === 'customer' ? 'dashboard' : 'console'}`,
        [{ field: 'role', issue: 'not a role of this page' }],
      );
    }
  }

  /** The one e-mail rule of airgift (lib/email.ts), as gift card recipients are checked. */
  function checkEmail(email: string) {
    if (parseEmail(email) === null) {
      throw new AppError('INVALID_REQUEST', 'email is not an e-mail address', [
        { field: 'email', issue: 'expected name@domain' },
      ]);
    }
  }

  /**
   * A one-time link to `pageUrl` that sets the user's password (the token rides in the fragment).
   * `role`: what the user may do (none named: a new user is an owner, or an admin; a known one keeps
   * theirs). A member who already signs in keeps their role: it changes through `changeMember`.
   */
  async function invite(
    kind: WebUserKind,
    email: string,
    accountId: number | null,
    pageUrl: string,
    role?: string,
    /** a team's invitation: never a new link for a member who already signs in */
    options: { newMembersOnly?: boolean } = {},
  ) {
    checkEmail(email);
    if (role !== undefined) checkRole(kind, role);
    const now = clock.now();
    let user = await repository.upsert(kind, email, accountId, now, role ?? FIRST_ROLE[kind]);
    if (user.accountId !== accountId) {
      throw new AppError('INVALID_REQUEST', `${email} is a user of another account`, [
        { field: 'email', issue: 'already a user of another account' },
      ]);
    }
    if (options.newMembersOnly && user.passwordHash !== null) {
      throw new AppError('INVALID_REQUEST', `${email} is a member already, as ${user.role}`, [
        { field: 'email', issue: 'already a member' },
      ]);
    }
    if (role !== undefined && user.role !== role) {
      if (user.passwordHash !== null) {
        throw new AppError(
          'INVALID_REQUEST',
          `${email} is a member already, as ${user.role}: change their role instead`,
          [{ field: 'email', issue: 'already a member' }],
        );
      }
      await repository.setPendingRole(user.id, role);
      user = { ...user, role };
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
      data: {
        page: user.kind === 'customer' ? 'dashboard' : 'console',
        expiresAt: expiresAt.toISOString(),
        role: user.role,
      },
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
    const user = await repository.upsert(kind, email, accountId, clock.now(), FIRST_ROLE[kind]);
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
    // once on, an unused recovery code stands in for a code (and is used up)
    if (want === 'enabled' && normalCode(code).length === 10) {
      return repository.useRecoveryCode(user.id, sha256(normalCode(code)), clock.now());
    }
    const secret = base32Decode(await sealer.open(totp.secret));
    const step = matchingStep(secret, code, clock.now().getTime(), totp.lastStep);
    return step !== null && (await repository.useTotpStep(user.id, step, enable));
  }

  /** A new set of recovery codes (the older ones deleted): shown once, here. */
  async function newRecoveryCodes(user: WebUserRow) {
    const codes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
    await repository.replaceRecoveryCodes(
      user.id,
      codes.map((c) => sha256(normalCode(c))),
    );
    return codes;
  }

  /** The wrong code's refusal: what to type instead (the detail only names the field). */
  const WRONG_CODE =
    'Wrong or already used code: enter the current code of your authenticator app, or an unused recovery code';

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
        throw new AppError('AUTHENTICATION_FAILURE', WRONG_CODE, [
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
      throw new AppError(
        'INVALID_REQUEST',
        want === 'pending' ? 'Wrong code: enter the current code of your authenticator app' : WRONG_CODE,
        [{ field: 'code', issue: 'wrong or already used' }],
      );
    }
  }

  /** Turns two-step sign-in on with a code of the pending secret. */
  async function confirmTotp(user: WebUserRow, code: string, ip: string | null) {
    const totp = await repository.totpOf(user.id);
    if (user.totpEnabled || !totp?.secret) {
      throw new AppError('INVALID_REQUEST', 'Nothing to confirm: start the enrolment first');
    }
    await checkCode(user, code, ip, 'pending');
    return {
      totpEnabled: true,
      recoveryCodes: await newRecoveryCodes(user),
      recoveryCodesLeft: RECOVERY_CODES,
    };
  }

  /** A new set of recovery codes for a user with two-step sign-in on; it takes a code (or a recovery code). */
  async function regenerateRecoveryCodes(user: WebUserRow, code: string, ip: string | null) {
    if (!user.totpEnabled) throw new AppError('INVALID_REQUEST', 'Two-step sign-in is off: turn it on first');
    await checkCode(user, code, ip, 'enabled');
    return {
      totpEnabled: true,
      recoveryCodes: await newRecoveryCodes(user),
      recoveryCodesLeft: RECOVERY_CODES,
    };
  }

  /** How many recovery codes the user has not used (0 with two-step sign-in off). */
  const recoveryCodesLeft = (user: WebUserRow) => repository.recoveryCodesLeft(user.id);

  /** Turns two-step sign-in off; it takes a current code. */
  async function disableTotp(user: WebUserRow, code: string, ip: string | null) {
    if (!user.totpEnabled) throw new AppError('INVALID_REQUEST', 'Two-step sign-in is off already');
    await checkCode(user, code, ip, 'enabled');
    await repository.setTotpSecret(user.id, null);
    await repository.replaceRecoveryCodes(user.id, []);
    return { totpEnabled: false, recoveryCodesLeft: 0 };
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

  /**
   * Gives a member of the account (`accountId`; null: an operator) another role, or removes them
   * (`role` null: at once, their sessions end). Never the last active owner (admin).
   */
  async function changeMember(
    kind: WebUserKind,
    accountId: number | null,
    userId: number,
    role: string | null,
  ) {
    if (role !== null) checkRole(kind, role);
    const outcome: MemberChange = await repository.changeMember(kind, accountId, userId, role, clock.now());
    if (outcome === 'not-found') throw new AppError('RESOURCE_NOT_FOUND', `No member ${userId}`);
    if (outcome === 'last-keeper') {
      const keeper = FIRST_ROLE[kind];
      throw new AppError(
        'INVALID_REQUEST',
        `${role === null ? 'Removing' : 'Changing the role of'} the last ${keeper} is refused: make another member ${keeper} first`,
        [{ field: role === null ? 'userId' : 'role', issue: `the last ${keeper}` }],
      );
    }
    const user = await repository.findById(userId);
    return { ...present(user as WebUserRow), removed: role === null };
  }

  /** What the user's role lets them do on their page. */
  const permissions = (user: WebUserRow) => [...permissionsOf(user.kind, user.role)];

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
    regenerateRecoveryCodes,
    recoveryCodesLeft,
    changeMember,
    permissions,
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
