import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Fastify from 'fastify';
import { base32Decode, stepAt, totpCode } from '../../src/lib/totp.ts';
import {
  CONSOLE_ROLE_PERMISSIONS,
  CONSOLE_ROLES,
  DASHBOARD_ROLE_PERMISSIONS,
  DASHBOARD_ROLES,
  permissionsOf,
} from '../../src/modules/web/permissions.ts';
import { ConsoleRole, DashboardRole } from '../../src/modules/web/users/team-schemas.ts';
import { installWebSession } from '../../src/modules/web/users/web-session.ts';
import type { TestAccount } from '../harness/client.ts';
import { messagesTo } from '../harness/messages.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';
import { consoleSession, dashboardSession, WEB_PASSWORD, type WebSession } from '../harness/web-session.ts';
import { type Operation, operationsOf } from '../security/operations.ts';

/**
 * Team and roles (issue 28): every dashboard and console operation declares the permission it takes
 * (`x-permission`), and each role is let through exactly where its permissions say, refused with 403
 * ROLE_NOT_ALLOWED elsewhere (the authorization matrix, extended to roles); an owner invites with a
 * role, changes it, removes a teammate (whose session ends at once), never the last owner; two-step
 * sign-in's recovery codes work once each, and a new set ends the old one.
 */
const PUBLIC = new Set(['POST /api/sign-in', 'POST /api/welcome', 'POST /api/password-reset']);

let server: TestServer;
let account: TestAccount;
let owner: WebSession;
let admin: WebSession;

before(async () => {
  server = await startTestServer();
  account = await server.admin.createAccount({ fund: 50 });
  owner = await dashboardSession(server, account.accountId, 'own@example.com');
  admin = await consoleSession(server, 'admin@example.com');
});
after(() => server?.close());

const tokenOf = (link: string) => new URL(link).hash.split('/').pop() as string;

/** A teammate invited by `inviter` with `role`, who accepted and signed in. */
async function member(
  page: 'dashboard' | 'console',
  inviter: WebSession,
  email: string,
  role: string,
): Promise<WebSession & { signIn(code?: string): Promise<{ status: number; body: any }> }> {
  const invited = await inviter.post('/api/team/invitations', { email, role });
  assert.equal(invited.status, 200, invited.text);
  assert.equal(invited.body.role, role);
  assert.equal(invited.body.link, undefined, 'the link goes by e-mail only');
  // the e-mailed link is sealed in the outbox: a new one from the admin API (the pending role stays)
  const again = await server.admin.call(
    'POST',
    page === 'dashboard' ? `/accounts/${account.accountId}/users` : '/operators',
    { email },
  );
  assert.deepEqual([again.status, again.body.role], [200, role]);
  const base = `/${page}`;
  const welcomed = await server.http.post(`${base}/api/welcome`, {
    token: tokenOf(again.body.link),
    password: WEB_PASSWORD,
  });
  assert.equal(welcomed.status, 200, welcomed.text);
  const signIn = (code?: string) =>
    server.http.post(`${base}/api/sign-in`, { email, password: WEB_PASSWORD, ...(code && { code }) });
  const signedIn = await signIn();
  assert.equal(signedIn.status, 200, signedIn.text);
  const cookie = String(signedIn.headers['set-cookie'] ?? '').split(';')[0];
  const csrfToken = signedIn.body.csrfToken as string;
  return {
    userId: invited.body.userId,
    email,
    cookie,
    csrfToken,
    signIn,
    get: (path) => server.http.get(`${base}${path}`, { headers: { cookie } }),
    post: (path, body) =>
      server.http.post(`${base}${path}`, body ?? {}, { headers: { cookie, 'x-csrf-token': csrfToken } }),
  };
}

describe('roles', () => {
  test("the schemas' role lists are permissions.ts's", () => {
    assert.deepEqual(
      DashboardRole.anyOf.map((r: { const: string }) => r.const),
      [...DASHBOARD_ROLES],
    );
    assert.deepEqual(
      ConsoleRole.anyOf.map((r: { const: string }) => r.const),
      [...CONSOLE_ROLES],
    );
    assert.deepEqual(permissionsOf('customer', 'support'), ['read', 'support']);
    assert.ok(!permissionsOf('customer', 'support').includes('codes'), 'support never reveals codes');
    assert.deepEqual(permissionsOf('customer', 'admin'), [], 'a role of the other page grants nothing');
  });

  test('a session route without config.permission stops the server at start', async () => {
    const app = Fastify();
    installWebSession(app, {
      kind: 'customer',
      users: {} as never,
      cookieName: 'c',
      cookiePath: '/',
    });
    await assert.rejects(async () => {
      app.get('/api/forgotten', async () => ({}));
      await app.ready();
    }, /must declare config\.permission/);
    const fine = Fastify();
    installWebSession(fine, { kind: 'customer', users: {} as never, cookieName: 'c', cookiePath: '/' });
    fine.get('/api/public', { config: { access: { scope: null } } }, async () => ({}));
    fine.get('/api/declared', { config: { permission: 'read' } }, async () => ({}));
    await fine.ready();
    await fine.close();
  });

  test('the authorization matrix of roles: every operation of both pages, every role', async (t) => {
    const sessions: Record<string, WebSession> = { 'dashboard owner': owner, 'console admin': admin };
    for (const role of DASHBOARD_ROLES.filter((r) => r !== 'owner')) {
      sessions[`dashboard ${role}`] = await member('dashboard', owner, `matrix-${role}@example.com`, role);
    }
    sessions['console support'] = await member('console', admin, 'matrix-support@example.com', 'support');
    const lastAudit = async () => (await server.admin.call('GET', '/audit?size=1')).body.items[0].auditId;
    const auditBefore = await lastAudit();
    let allowed = 0;
    let refused = 0;
    for (const [page, table] of [
      ['dashboard', DASHBOARD_ROLE_PERMISSIONS],
      ['console', CONSOLE_ROLE_PERMISSIONS],
    ] as const) {
      const ops: Operation[] = await operationsOf(server.http, `/${page}`, page);
      const document = ops[0].document;
      const undeclared = ops
        .filter((o) => !PUBLIC.has(o.key))
        .filter((o) => !document.paths[o.path][o.method.toLowerCase()]['x-permission'])
        .map((o) => o.key);
      assert.deepEqual(undeclared, [], `${page}: every operation declares the permission it takes`);
      for (const op of ops.filter((o) => !PUBLIC.has(o.key))) {
        const permission = document.paths[op.path][op.method.toLowerCase()]['x-permission'] as string;
        // path parameters that pass validation; a mutation's body is not JSON, so an allowed one is
        // answered 400 (the body is read after the role check) and changes nothing
        const url = `/${page}${op.path.replace(/\{(\w+)\}/g, (_, n: string) => (n === 'clientId' || n === 'currencyCode' ? 'EUR' : '999999'))}${op.requiredQuery.length ? `?${op.requiredQuery.map((q) => `${q}=sandbox`).join('&')}` : ''}`;
        for (const [role, permissions] of Object.entries(table)) {
          const session = sessions[`${page} ${role}`];
          const mutation = op.method !== 'GET';
          const answer = await server.http.call(op.method, url, {
            headers: {
              cookie: session.cookie,
              ...(mutation && { 'x-csrf-token': session.csrfToken, 'content-type': 'application/json' }),
            },
            ...(mutation && { rawBody: '{not json' }),
          });
          const cell = `${page} ${op.key} as ${role} (${permission})`;
          if ((permissions as readonly string[]).includes(permission)) {
            assert.notEqual(answer.body?.errorCode, 'ROLE_NOT_ALLOWED', cell);
            assert.ok(answer.status !== 401 && answer.status !== 403, `${cell}: ${answer.status}`);
            if (mutation) assert.equal(answer.status, 400, `${cell}: ${answer.text.slice(0, 200)}`);
            allowed++;
          } else {
            assert.equal(answer.status, 403, `${cell}: ${answer.text.slice(0, 200)}`);
            assert.equal(answer.body.errorCode, 'ROLE_NOT_ALLOWED', cell);
            refused++;
          }
        }
      }
    }
    t.diagnostic(`${allowed} cells allowed, ${refused} refused`);
    // an unknown path is still a 404 for a signed-in user of any role, not a refusal
    const unknown = await sessions['dashboard viewer'].get('/api/no-such-thing');
    assert.deepEqual([unknown.status, unknown.body.errorCode], [404, 'RESOURCE_NOT_FOUND']);
    assert.ok(allowed > 100 && refused > 40, `${allowed} allowed, ${refused} refused`);
    assert.equal(await lastAudit(), auditBefore, 'nothing was changed, so nothing was audited');
  });
});

describe('the team', () => {
  test('invited with a role (e-mailed), accepted: the role applies; changed and removed at once', async () => {
    const dev = await member('dashboard', owner, 'dev@example.com', 'developer');
    const mail = await messagesTo(server, 'dev@example.com');
    // the Team page's invitation, and the admin API's again (member() takes its link)
    assert.deepEqual(
      mail.map((m) => [m.kind, (m.data as { role?: string }).role, Number(m.account_id)]),
      [
        ['web.invitation', 'developer', account.accountId],
        ['web.invitation', 'developer', account.accountId],
      ],
    );
    const session = await dev.get('/api/session');
    assert.equal(session.body.role, 'developer');
    assert.deepEqual(session.body.permissions, ['read', 'credentials', 'webhooks']);
    const made = await dev.post('/api/credentials', { environment: 'sandbox', scopes: ['developer'] });
    assert.equal(made.status, 200, made.text);
    const codes = await dev.post('/api/giftcards/transactions/1/codes?environment=sandbox');
    assert.deepEqual([codes.status, codes.body.errorCode], [403, 'ROLE_NOT_ALLOWED']);
    assert.equal(
      (await dev.post('/api/team/invitations', { email: 'x@example.com', role: 'owner' })).status,
      403,
    );
    // a member who signs in already gets no new link (whoever invites would set their password)
    const twice = await owner.post('/api/team/invitations', { email: 'dev@example.com', role: 'developer' });
    assert.deepEqual(
      [twice.status, twice.body.details],
      [400, [{ field: 'email', issue: 'already a member' }]],
    );

    const team = await owner.get('/api/team');
    assert.deepEqual(
      team.body.items
        .map((u: { email: string; role: string; active: boolean }) => [u.email, u.role, u.active])
        .filter(([e]: string[]) => e === 'dev@example.com' || e === 'own@example.com'),
      [
        ['own@example.com', 'owner', true],
        ['dev@example.com', 'developer', true],
      ],
    );
    // a changed role is the next request's
    const viewer = await owner.post(`/api/team/${dev.userId}/role`, { role: 'viewer' });
    assert.deepEqual([viewer.status, viewer.body.role], [200, 'viewer']);
    const now = await dev.post('/api/credentials', { environment: 'sandbox', scopes: ['developer'] });
    assert.deepEqual([now.status, now.body.errorCode], [403, 'ROLE_NOT_ALLOWED']);
    assert.equal((await dev.get('/api/overview?environment=sandbox')).status, 200);
    // an unknown role, a member of another account: refused
    assert.equal((await owner.post(`/api/team/${dev.userId}/role`, { role: 'admin' })).status, 400);
    const other = await server.admin.createAccount({ fund: 1 });
    const stranger = await dashboardSession(server, other.accountId, 'stranger@example.com');
    assert.equal((await owner.post(`/api/team/${stranger.userId}/remove`)).status, 404);
    assert.equal((await stranger.get('/api/session')).status, 200);

    // removed: the session stops working at once, signing in and a reset link too
    const removed = await owner.post(`/api/team/${dev.userId}/remove`);
    assert.deepEqual([removed.status, removed.body.removed], [200, true]);
    assert.equal((await dev.get('/api/session')).status, 401);
    assert.equal((await dev.get('/api/overview?environment=sandbox')).status, 401);
    assert.equal((await dev.signIn()).status, 401);
    await server.http.post('/dashboard/api/password-reset', { email: 'dev@example.com' });
    const resets = await messagesTo(server, 'dev@example.com', 'web.password_reset');
    assert.equal(resets.length, 0, 'no reset link for a removed user');
    assert.ok(
      !(await owner.get('/api/team')).body.items.some(
        (u: { email: string }) => u.email === 'dev@example.com',
      ),
    );
    // invited again, the same user comes back with the new role
    const back = await member('dashboard', owner, 'dev@example.com', 'finance');
    assert.equal(back.userId, dev.userId);
    assert.equal((await back.get('/api/session')).body.role, 'finance');

    const lines = (await server.admin.call('GET', `/audit?size=20&accountId=${account.accountId}`)).body
      .items;
    const actions = lines.map((l: { action: string }) => l.action);
    for (const a of ['team.invite', 'team.role', 'team.remove']) assert.ok(actions.includes(a), a);
    const roleLine = lines.find((l: { action: string }) => l.action === 'team.role');
    assert.equal(roleLine.before.role, 'developer');
    assert.equal(roleLine.after.role, 'viewer');
  });

  test('an owner cannot remove or demote the last owner', async () => {
    const acct = await server.admin.createAccount({ fund: 1 });
    const first = await dashboardSession(server, acct.accountId, 'first@example.com');
    const demote = await first.post(`/api/team/${first.userId}/role`, { role: 'viewer' });
    assert.equal(demote.status, 400, demote.text);
    assert.match(demote.body.message, /last owner/);
    assert.equal((await first.post(`/api/team/${first.userId}/remove`)).status, 400);
    // an owner who has not accepted yet does not count
    const pending = await first.post('/api/team/invitations', { email: 'second@example.com', role: 'owner' });
    assert.equal(pending.status, 200);
    assert.equal((await first.post(`/api/team/${first.userId}/role`, { role: 'viewer' })).status, 400);
    const link = (
      await server.admin.call('POST', `/accounts/${acct.accountId}/users`, { email: 'second@example.com' })
    ).body.link;
    await server.http.post('/dashboard/api/welcome', { token: tokenOf(link), password: WEB_PASSWORD });
    // two owners demoting each other at once: one of them stays owner
    const second = await server.http.post('/dashboard/api/sign-in', {
      email: 'second@example.com',
      password: WEB_PASSWORD,
    });
    const secondHeaders = {
      cookie: String(second.headers['set-cookie']).split(';')[0],
      'x-csrf-token': second.body.csrfToken,
    };
    const both = await Promise.all([
      first.post(`/api/team/${pending.body.userId}/role`, { role: 'viewer' }),
      server.http.post(
        `/dashboard/api/team/${first.userId}/role`,
        { role: 'viewer' },
        { headers: secondHeaders },
      ),
    ]);
    // one passes; the other is refused: the last owner (400), or no longer an owner at all (403)
    const statuses = both.map((a) => a.status).sort();
    assert.equal(statuses[0], 200, JSON.stringify(both.map((a) => a.body)));
    assert.ok(statuses[1] === 400 || statuses[1] === 403, String(statuses));
    const owners = (await server.admin.call('GET', `/accounts/${acct.accountId}/users`)).body.items.filter(
      (u: { role: string }) => u.role === 'owner',
    );
    assert.equal(owners.length, 1);
  });

  test("the console: an admin invites an operator with a role and an account's first owner", async () => {
    const support = await member('console', admin, 'ops-support@example.com', 'support');
    const fund = await support.post(`/api/accounts/${account.accountId}/fund`, {
      environment: 'sandbox',
      amount: '5',
      reason: 'no',
    });
    assert.deepEqual([fund.status, fund.body.errorCode], [403, 'ROLE_NOT_ALLOWED']);
    assert.equal((await support.get(`/api/accounts/${account.accountId}`)).status, 200);
    const acct = await server.admin.createAccount({ fund: 1 });
    const invited = await admin.post(`/api/accounts/${acct.accountId}/users`, {
      email: 'first-owner@example.com',
      role: 'owner',
    });
    assert.deepEqual([invited.status, invited.body.role], [200, 'owner']);
    const dev = await admin.post(`/api/accounts/${acct.accountId}/users`, {
      email: 'd2@example.com',
      role: 'developer',
    });
    assert.equal(dev.body.role, 'developer');
    assert.equal(
      (await support.post(`/api/accounts/${acct.accountId}/users`, { email: 'n@example.com' })).status,
      403,
    );
    // the last admin stays
    assert.equal((await admin.post(`/api/team/${admin.userId}/role`, { role: 'support' })).status, 400);
    const list = await support.get('/api/team');
    assert.ok(
      list.body.items.some(
        (u: { email: string; role: string }) => u.email === 'ops-support@example.com' && u.role === 'support',
      ),
    );
    // the admin API names a role too (the CLI's --role); none named: owner, admin
    const cli = await server.admin.call('POST', '/operators', {
      email: 'cli-op@example.com',
      role: 'support',
    });
    assert.equal(cli.body.role, 'support');
    const plain = await server.admin.call('POST', '/operators', { email: 'cli-admin@example.com' });
    assert.equal(plain.body.role, 'admin');
  });
});

describe('recovery codes of two-step sign-in', () => {
  test('10 shown once, stored hashed, each works once; a new set ends the old; the count left', async () => {
    const user = await member('dashboard', owner, 'recover@example.com', 'viewer');
    const enrolled = await user.post('/api/totp/enrol');
    const secret = base32Decode(enrolled.body.secret);
    let step = stepAt(server.clock.now().getTime());
    const code = () => totpCode(secret, step++);
    const on = await user.post('/api/totp/confirm', { code: code() });
    assert.equal(on.status, 200, on.text);
    const codes: string[] = on.body.recoveryCodes;
    assert.equal(codes.length, 10);
    assert.equal(new Set(codes).size, 10);
    for (const c of codes) assert.match(c, /^[a-z2-9]{5}-[a-z2-9]{5}$/);
    const stored = await server.db.kysely
      .withTables<{ web_recovery_codes: { user_id: number; code_hash: string } }>()
      .selectFrom('web_recovery_codes')
      .select('code_hash')
      .where('user_id', '=', user.userId)
      .execute();
    assert.equal(stored.length, 10);
    assert.ok(
      stored.every((r) => !codes.some((c) => r.code_hash.includes(c.replace('-', '')))),
      'hashed',
    );
    assert.equal((await user.get('/api/session')).body.recoveryCodesLeft, 10);

    // in place of a code: once (typed in capitals without the hyphen too)
    const first = await user.signIn(codes[0].toUpperCase().replace('-', ''));
    assert.equal(first.status, 200, JSON.stringify(first.body));
    const again = await user.signIn(codes[0]);
    assert.equal(again.status, 401);
    assert.equal(
      again.body.message,
      'Wrong or already used code: enter the current code of your authenticator app, or an unused recovery code',
    );
    assert.equal((await user.get('/api/session')).body.recoveryCodesLeft, 9);

    // a new set, with a code: the old unused ones stop working
    const fresh = await user.post('/api/totp/recovery-codes', { code: code() });
    assert.equal(fresh.status, 200, fresh.text);
    assert.equal(fresh.body.recoveryCodesLeft, 10);
    assert.equal((await user.signIn(codes[1])).status, 401, 'an old code after a new set');
    assert.equal((await user.signIn(fresh.body.recoveryCodes[0])).status, 200);
    assert.equal((await user.get('/api/session')).body.recoveryCodesLeft, 9);
    // a wrong code makes no new set
    assert.equal((await user.post('/api/totp/recovery-codes', { code: '000000' })).status, 400);
    // off (with a recovery code): none left
    const off = await user.post('/api/totp/disable', { code: fresh.body.recoveryCodes[1] });
    assert.deepEqual([off.status, off.body.recoveryCodesLeft], [200, 0]);
    assert.equal((await user.signIn()).status, 200);
  });
});
