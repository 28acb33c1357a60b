import type { TypedApp } from '../../../http/schemas.ts';
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
 * user's two-step sign-in (TOTP). `accountName` tells the page whose account it shows (null for
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

  app.post(
    '/api/sign-in',
    { config: open, schema: { body: SignInBody, response: { 200: SessionInfo } } },
    async (request, reply) => {
      const b = request.body;
      const signedIn = await o.users.signIn(o.kind, b.email, b.password, request.ip, b.code);
      setSessionCookie(reply, o, signedIn);
      const { user } = signedIn;
      return {
        email: user.email,
        accountId: user.accountId,
        accountName: user.accountId === null ? null : await accountName(user.accountId),
        csrfToken: signedIn.csrfToken,
        totpEnabled: user.totpEnabled,
      };
    },
  );

  app.post(
    '/api/welcome',
    { config: open, schema: { body: WelcomeBody, response: { 200: WebUser } } },
    async (request) => o.users.acceptInvitation(request.body.token, request.body.password),
  );

  app.post(
    '/api/password-reset',
    { config: open, schema: { body: EmailBody, response: { 200: Ok } } },
    async (request) => {
      await o.users.requestPasswordReset(o.kind, request.body.email, pageUrl);
      return { ok: true };
    },
  );

  app.get('/api/session', { schema: { response: { 200: SessionInfo } } }, async (request) => {
    const user = webUserOf(request);
    return {
      email: user.email,
      accountId: user.accountId,
      accountName: user.accountId === null ? null : await accountName(user.accountId),
      csrfToken: user.csrfToken,
      totpEnabled: user.totpEnabled,
    };
  });

  // Two-step sign-in (TOTP) of the signed-in user: enrol (a pending secret), confirm, turn off.
  const issuer = o.kind === 'customer' ? 'airgift dashboard' : 'airgift console';
  app.post('/api/totp/enrol', { schema: { response: { 200: TotpEnrolment } } }, async (request) =>
    o.users.enrolTotp(webUserOf(request), issuer),
  );
  app.post(
    '/api/totp/confirm',
    { schema: { body: CodeBody, response: { 200: TotpState } } },
    async (request) => o.users.confirmTotp(webUserOf(request), request.body.code, request.ip),
  );
  app.post(
    '/api/totp/disable',
    { schema: { body: CodeBody, response: { 200: TotpState } } },
    async (request) => o.users.disableTotp(webUserOf(request), request.body.code, request.ip),
  );

  app.post('/api/sign-out', { schema: { response: { 200: Ok } } }, async (request, reply) => {
    const token = readCookie(request.headers.cookie, o.cookieName);
    if (token) await o.users.signOut(token);
    clearSessionCookie(reply, o);
    return { ok: true };
  });
}
