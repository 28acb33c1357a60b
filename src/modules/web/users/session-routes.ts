import type { TypedApp } from '../../../http/schemas.ts';
import type { AuditAnswer, AuditedRequest } from '../../audit/index.ts';
import type { WebUserRow } from './users-repository.ts';
import {
  CodeBody,
  EmailBody,
  Ok,
  SessionInfo,
  SignInBody,
  TotpEnrolment,
  TotpState,
  WebUser,
  WelcomeBody,
} from './users-schemas.ts';
import {
  clearSessionCookie,
  readCookie,
  setSessionCookie,
  type WebSessionOptions,
  webUserOf,
} from './web-session.ts';

/**
 * Signing in and out of a page (dashboard or console), accepting an invitation, and the signed-in
 * user's two-step sign-in (TOTP) and its recovery codes. `accountName` tells the page whose account it shows (null for
 * operators).
 */
export function sessionRoutes(
  app: TypedApp,
  o: WebSessionOptions,
  accountName: (accountId: number) => Promise<string>,
  /** The page's URL, for the links e-mailed by a password reset. */
  pageUrl: string,
) {
  const open = { access: { scope: null } };
  // The audit lines of sessions and of the user's own security (modules/audit/audit-hook.ts): on the
  // user, never their password, code, secret or CSRF token (masked by the hook; `after` left out).
  /** What the page knows of its signed-in user. */
  const sessionInfo = async (user: WebUserRow, csrfToken: string) => ({
    email: user.email,
    accountId: user.accountId,
    accountName: user.accountId === null ? null : await accountName(user.accountId),
    csrfToken,
    totpEnabled: user.totpEnabled,
    role: user.role,
    permissions: o.users.permissions(user),
    recoveryCodesLeft: await o.users.recoveryCodesLeft(user),
  });
  const userOf = (request: AuditedRequest, answer: AuditAnswer) =>
    request.webUser?.email ?? (typeof answer?.email === 'string' ? answer.email : null);
  // one's own session and two-step sign-in: every role (`read`)
  const audit = (action: string) => ({
    permission: 'read' as const,
    audit: { action, target: userOf, after: null },
  });

  app.post(
    '/api/sign-in',
    {
      config: { ...open, ...audit('session.sign-in') },
      schema: { body: SignInBody, response: { 200: SessionInfo } },
    },
    async (request, reply) => {
      const b = request.body;
      const signedIn = await o.users.signIn(o.kind, b.email, b.password, request.ip, b.code);
      setSessionCookie(reply, o, signedIn);
      return sessionInfo(signedIn.user, signedIn.csrfToken);
    },
  );

  app.post(
    '/api/welcome',
    {
      config: { ...open, audit: { action: 'user.accept-invitation', target: userOf } },
      schema: { body: WelcomeBody, response: { 200: WebUser } },
    },
    async (request) => o.users.acceptInvitation(request.body.token, request.body.password),
  );

  app.post(
    '/api/password-reset',
    {
      // by whoever asked (nobody signed in), for the e-mail named; answered alike whether it names a user
      config: {
        ...open,
        audit: {
          action: 'user.password-reset',
          target: (r) => (r.body as { email: string }).email,
          after: null,
        },
      },
      schema: { body: EmailBody, response: { 200: Ok } },
    },
    async (request) => {
      await o.users.requestPasswordReset(o.kind, request.body.email, pageUrl);
      return { ok: true };
    },
  );

  app.get(
    '/api/session',
    { config: { permission: 'read' }, schema: { response: { 200: SessionInfo } } },
    async (request) => {
      const user = webUserOf(request);
      return sessionInfo(user, user.csrfToken);
    },
  );

  // Two-step sign-in (TOTP) of the signed-in user: enrol (a pending secret), confirm, turn off.
  const issuer = o.kind === 'customer' ? 'airgift dashboard' : 'airgift console';
  app.post(
    '/api/totp/enrol',
    { schema: { response: { 200: TotpEnrolment } }, config: audit('totp.enrol') },
    async (request) => o.users.enrolTotp(webUserOf(request), issuer),
  );
  app.post(
    '/api/totp/confirm',
    { schema: { body: CodeBody, response: { 200: TotpState } }, config: audit('totp.on') },
    async (request) => o.users.confirmTotp(webUserOf(request), request.body.code, request.ip),
  );
  app.post(
    '/api/totp/disable',
    { schema: { body: CodeBody, response: { 200: TotpState } }, config: audit('totp.off') },
    async (request) => o.users.disableTotp(webUserOf(request), request.body.code, request.ip),
  );
  // a new set of recovery codes (the older ones stop working), shown once; it takes a code
  app.post(
    '/api/totp/recovery-codes',
    {
      schema: { body: CodeBody, response: { 200: TotpState } },
      config: audit('totp.recovery-codes'),
    },
    async (request) => o.users.regenerateRecoveryCodes(webUserOf(request), request.body.code, request.ip),
  );

  app.post(
    '/api/sign-out',
    { schema: { response: { 200: Ok } }, config: audit('session.sign-out') },
    async (request, reply) => {
      const token = readCookie(request.headers.cookie, o.cookieName);
      if (token) await o.users.signOut(token);
      clearSessionCookie(reply, o);
      return { ok: true };
    },
  );
}
