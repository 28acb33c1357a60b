import type { TypedApp } from '../../http/schemas.ts';
import { Ok, SessionInfo, SignInBody, WebUser, WelcomeBody } from './dashboard/dashboard-schemas.ts';
import {
  clearSessionCookie,
  readCookie,
  setSessionCookie,
  type WebSessionOptions,
  webUserOf,
} from './web-session.ts';

/**
 * Signing in and out of a page (dashboard or console), and accepting an invitation. `accountName`
 * tells the page whose account it shows (null for operators).
 */
export function webAuthRoutes(
  app: TypedApp,
  o: WebSessionOptions,
  accountName: (accountId: number) => Promise<string>,
) {
  const open = { access: { scope: null } };

  app.post(
    '/api/sign-in',
    { config: open, schema: { body: SignInBody, response: { 200: SessionInfo } } },
    async (request, reply) => {
      const signedIn = await o.users.signIn(o.kind, request.body.email, request.body.password, request.ip);
      setSessionCookie(reply, o, signedIn);
      const { user } = signedIn;
      return {
        email: user.email,
        accountId: user.accountId,
        accountName: user.accountId === null ? null : await accountName(user.accountId),
        csrfToken: signedIn.csrfToken,
      };
    },
  );

  app.post(
    '/api/welcome',
    { config: open, schema: { body: WelcomeBody, response: { 200: WebUser } } },
    async (request) => o.users.acceptInvitation(request.body.token, request.body.password),
  );

  app.get('/api/session', { schema: { response: { 200: SessionInfo } } }, async (request) => {
    const user = webUserOf(request);
    return {
      email: user.email,
      accountId: user.accountId,
      accountName: user.accountId === null ? null : await accountName(user.accountId),
      csrfToken: user.csrfToken,
    };
  });

  app.post('/api/sign-out', { schema: { response: { 200: Ok } } }, async (request, reply) => {
    const token = readCookie(request.headers.cookie, o.cookieName);
    if (token) await o.users.signOut(token);
    clearSessionCookie(reply, o);
    return { ok: true };
  });
}
