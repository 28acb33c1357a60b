import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from '../harness/server.ts';

/**
 * Sign-in to the dashboard and the console under attack (issue 29, docs/security.md): failures lock
 * an e-mail only from the address they came from (WEB_LOCKOUT_FAILURES per e-mail and address), one
 * address trying many e-mails is refused (WEB_LOCKOUT_ADDRESS_FAILURES), and an unknown e-mail costs
 * the same to refuse as a known one. The server believes X-Forwarded-For from loopback, so each test
 * speaks from addresses of its own.
 */
let server: TestServer;
const PASSWORD = 'the right passphrase';

const signIn = (page: 'dashboard' | 'console', email: string, password: string, address: string) =>
  server.http.post(`/${page}/api/sign-in`, { email, password }, { headers: { 'x-forwarded-for': address } });

/** A user with PASSWORD: an operator (console) or a customer of a new account (dashboard). */
async function user(page: 'dashboard' | 'console', email: string) {
  const path =
    page === 'console' ? '/operators' : `/accounts/${(await server.admin.createAccount()).accountId}/users`;
  const invited = await server.admin.call('POST', path, { email });
  assert.equal(invited.status, 200, invited.text);
  const token = new URL(invited.body.link).hash.split('/').pop();
  const accepted = await server.http.post(`/${page}/api/welcome`, { token, password: PASSWORD });
  assert.equal(accepted.status, 200, accepted.text);
}

before(async () => {
  server = await startTestServer({ env: { TRUSTED_PROXIES: '127.0.0.1' } });
});
after(() => server.close());

describe('lock-out per e-mail and address', () => {
  test("five failures from one address do not lock the operator out from another (nor does the operator's sign-in unlock the first)", async () => {
    await user('console', 'ops@example.com');
    for (let i = 0; i < 5; i++) {
      assert.equal(
        (await signIn('console', 'ops@example.com', 'wrong passphrase!', '203.0.113.7')).status,
        401,
      );
    }
    const elsewhere = await signIn('console', 'ops@example.com', PASSWORD, '192.0.2.10');
    assert.equal(elsewhere.status, 200, elsewhere.text);
    const there = await signIn('console', 'ops@example.com', PASSWORD, '203.0.113.7');
    assert.equal(there.status, 429, 'still locked from the address the failures came from');
    assert.equal(there.body.errorCode, 'RATE_LIMIT_REACHED');
    assert.match(there.body.message, /from this address/);
  });

  test('40 different e-mails from one address: refused after WEB_LOCKOUT_ADDRESS_FAILURES (20), whatever the e-mail', async () => {
    await user('dashboard', 'customer@example.com');
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) {
      statuses.push(
        (await signIn('dashboard', `guess${i}@example.com`, 'Winter2026!!', '198.51.100.99')).status,
      );
    }
    assert.deepEqual(statuses, [...Array(20).fill(401), ...Array(20).fill(429)]);
    // The address is refused, even for a real user with the right password ...
    const refused = await signIn('dashboard', 'customer@example.com', PASSWORD, '198.51.100.99');
    assert.equal(refused.status, 429);
    assert.match(refused.body.message, /from this address/);
    // ... and nobody else is.
    assert.equal((await signIn('dashboard', 'customer@example.com', PASSWORD, '198.51.100.100')).status, 200);
    // The window ends.
    server.clock.advance(15 * 60_000 + 1000);
    try {
      assert.equal(
        (await signIn('dashboard', 'customer@example.com', PASSWORD, '198.51.100.99')).status,
        200,
      );
    } finally {
      server.clock.set(new Date());
    }
  });
});

describe('equal work for known and unknown e-mails', () => {
  // A server of its own whose lock-outs never answer first: only the cost of a refusal is measured.
  let main: TestServer;
  before(async () => {
    main = server;
    server = await startTestServer({
      env: { WEB_LOCKOUT_FAILURES: '1000', WEB_LOCKOUT_ADDRESS_FAILURES: '0' },
    });
  });
  after(async () => {
    await server.close();
    server = main;
  });

  test('a wrong password costs the same CPU whether the e-mail is a user or not (medians of 21)', async (t) => {
    await user('dashboard', 'known@example.com');
    // CPU time of this process (the server runs in it, scrypt on its thread pool too): unlike
    // wall time it hardly moves when other processes load the machine.
    const cpuOf = async (email: string) => {
      const before = process.cpuUsage();
      const a = await signIn('dashboard', email, 'wrong passphrase!', '198.18.0.1');
      const used = process.cpuUsage(before);
      assert.equal(a.status, 401, a.text);
      return (used.user + used.system) / 1000;
    };
    for (let i = 0; i < 3; i++) await Promise.all([cpuOf('known@example.com'), cpuOf('nobody@example.com')]);
    const times = { known: [] as number[], unknown: [] as number[] };
    for (let i = 0; i < 21; i++) {
      times.known.push(await cpuOf('known@example.com'));
      times.unknown.push(await cpuOf('nobody@example.com'));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
    const [k, u] = [median(times.known), median(times.unknown)];
    const figures = `CPU ms per refused sign-in: known ${k.toFixed(1)}, unknown ${u.toFixed(1)}`;
    t.diagnostic(figures);
    // An scrypt alone is ~25 ms of CPU here; a difference of that size would tell the two apart.
    assert.ok(Math.abs(k - u) < 8, figures);
  });
});
