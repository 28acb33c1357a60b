import type { Answer } from './client.ts';
import type { TestServer } from './server.ts';

/**
 * A signed-in user of the dashboard (a customer of `accountId`) or of the console (an operator), made
 * through the admin API's invitation and the page's own welcome and sign-in: what the suites that
 * call the pages' JSON endpoints without a browser start from.
 *
 * @example
 * const customer = await webSession(server, { page: 'dashboard', accountId: 7, email: 'a@example.com' });
 * await customer.get('/api/requests?environment=sandbox');
 * await customer.post('/api/settings', { shapes: 'service' }); // with the CSRF token
 */
export interface WebSession {
  userId: number;
  email: string;
  cookie: string;
  csrfToken: string;
  get(path: string): Promise<Answer>;
  post(path: string, body?: unknown): Promise<Answer>;
}

export const WEB_PASSWORD = 'a long enough passphrase';

export async function webSession(
  server: Pick<TestServer, 'admin' | 'http'>,
  o: { page: 'dashboard' | 'console'; email: string; accountId?: number },
): Promise<WebSession> {
  const invited =
    o.page === 'dashboard'
      ? await server.admin.call('POST', `/accounts/${o.accountId}/users`, { email: o.email })
      : await server.admin.call('POST', '/operators', { email: o.email });
  if (invited.status !== 200) throw new Error(`invite: ${invited.status} ${invited.text}`);
  const token = new URL(invited.body.link).hash.split('/').pop() as string;
  const base = `/${o.page}`;
  const welcomed = await server.http.post(`${base}/api/welcome`, { token, password: WEB_PASSWORD });
  if (welcomed.status !== 200) throw new Error(`welcome: ${welcomed.status} ${welcomed.text}`);
  const signedIn = await server.http.post(`${base}/api/sign-in`, { email: o.email, password: WEB_PASSWORD });
  if (signedIn.status !== 200) throw new Error(`sign-in: ${signedIn.status} ${signedIn.text}`);
  const cookie = String(signedIn.headers['set-cookie'] ?? '').split(';')[0];
  const csrfToken = signedIn.body.csrfToken as string;
  return {
    userId: invited.body.userId,
    email: o.email,
    cookie,
    csrfToken,
    get: (path) => server.http.get(`${base}${path}`, { headers: { cookie } }),
    post: (path, body) =>
      server.http.post(`${base}${path}`, body ?? {}, { headers: { cookie, 'x-csrf-token': csrfToken } }),
  };
}

/** `webSession` of a dashboard user of `accountId`: what most suites start their customer from. */
export const dashboardSession = (
  server: Pick<TestServer, 'admin' | 'http'>,
  accountId: number,
  email: string,
) => webSession(server, { page: 'dashboard', accountId, email });

/** `webSession` of a console operator. */
export const consoleSession = (server: Pick<TestServer, 'admin' | 'http'>, email: string) =>
  webSession(server, { page: 'console', email });
