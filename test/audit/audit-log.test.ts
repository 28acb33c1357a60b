import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { adminKeyId } from '../../src/modules/admin/index.ts';
import { ADMIN_KEY, type Answer, CA_FILE, caPem, type TestAccount } from '../harness/client.ts';
import { freePort, startTestServer, type TestServer } from '../harness/server.ts';
import { dashboardSession } from '../harness/web-session.ts';
import { type Operation, operationsOf } from '../security/operations.ts';

/**
 * The audit log hears the admin API (and so the CLI): every mutating operation of the published admin
 * document is called (so a new route is walked without editing this file, and fails here until it has
 * a recipe) and must write exactly one line naming its action, the admin key's id (never the key),
 * the request id and the address, with nothing secret in it. Then the chain: append-only, and a
 * removed or edited line is found by `airgift audit verify` (docs/audit-and-request-log.md).
 */
const run = promisify(execFile);
const BIN = join(import.meta.dirname, '..', '..', 'bin', 'airgift.mjs');
const KEY_ID = adminKeyId(ADMIN_KEY);
const AMAZON_US = 1840;

let server: TestServer;
let account: TestAccount;
/** What no audit line may hold: secrets answered or sent along the walk. */
const secrets: string[] = [ADMIN_KEY];

before(async () => {
  // Its own upstream (the catalogue sync pulls its own sandbox catalogue), so PUBLIC_URL names its port.
  const port = await freePort();
  server = await startTestServer({
    port,
    env: { PUBLIC_URL: `https://localhost:${port}`, WEBHOOKS_ALLOW_PRIVATE: 'true' },
  });
  account = await server.admin.createAccount({ fund: 100 });
  secrets.push(account.clientSecret);
});
after(() => server?.close());

interface Recipe {
  /** path parameters */
  path?: Record<string, string | number>;
  body?: unknown;
  /** after the call, with its answer */
  after?(answer: Answer): void;
}
type Context = {
  webhookId?: number;
  deliveryId?: number;
  clientId?: string;
  newAccountId?: number;
  announce?: () => Promise<number>;
};

/** One successful call of each mutating admin operation, in the order they are walked. */
function recipes(ctx: Context): [string, () => Promise<Recipe> | Recipe][] {
  const id = account.accountId;
  const upstreamSecret = 'sk_test_upstreamsecretupstream';
  return [
    [
      'POST /accounts',
      () => ({
        body: { name: 'Walked', currency: 'EUR', country: 'DE', environment: 'sandbox', fund: 500 },
        after: (a: Answer) => {
          ctx.newAccountId = a.body.accountId;
          secrets.push(a.body.clientSecret);
        },
      }),
    ],
    ['PATCH /accounts/{accountId}', () => ({ path: { accountId: id }, body: { dailyCountLimit: 5 } })],
    ['POST /accounts/{accountId}/deactivate', () => ({ path: { accountId: id } })],
    ['POST /accounts/{accountId}/activate', () => ({ path: { accountId: id } })],
    [
      'POST /accounts/{accountId}/fund',
      () => ({ path: { accountId: id }, body: { environment: 'sandbox', amount: 50, reason: 'wire 7' } }),
    ],
    [
      'POST /accounts/{accountId}/adjust',
      () => ({ path: { accountId: id }, body: { environment: 'sandbox', amount: -5, reason: 'fee' } }),
    ],
    [
      'PUT /accounts/{accountId}/balance-threshold',
      () => ({ path: { accountId: id }, body: { environment: 'sandbox', threshold: 20 } }),
    ],
    [
      'POST /accounts/{accountId}/credentials',
      () => ({
        path: { accountId: id },
        body: { environment: 'sandbox' },
        after: (a: Answer) => {
          ctx.clientId = a.body.clientId;
          secrets.push(a.body.clientSecret);
        },
      }),
    ],
    ['POST /credentials/{clientId}/revoke', () => ({ path: { clientId: ctx.clientId as string } })],
    [
      'POST /accounts/{accountId}/users',
      () => ({
        path: { accountId: id },
        body: { email: 'walked@example.com' },
        after: (a: Answer) => secrets.push(new URL(a.body.link).hash.split('/').pop() as string),
      }),
    ],
    [
      'POST /operators',
      () => ({
        body: { email: 'walked-ops@example.com' },
        after: (a: Answer) => secrets.push(new URL(a.body.link).hash.split('/').pop() as string),
      }),
    ],
    [
      'PUT /fx-rates/{currencyCode}',
      () => ({ path: { currencyCode: 'EUR' }, body: { unitsPerUsd: '0.93' } }),
    ],
    [
      'POST /catalog/import',
      async () => {
        const file = (await server.admin.call('GET', '/catalog/export')).body;
        const product = file.products.find((p: { productId: number }) => p.productId === AMAZON_US);
        return { body: { products: [product] } };
      },
    ],
    ['POST /products/{productId}/deactivate', () => ({ path: { productId: AMAZON_US } })],
    ['POST /products/{productId}/activate', () => ({ path: { productId: AMAZON_US } })],
    [
      'PUT /products/{productId}/provider',
      () => ({ path: { productId: AMAZON_US }, body: { provider: 'stock' } }),
    ],
    [
      'POST /products/{productId}/stock',
      () => {
        const card = '4000000000009999';
        secrets.push(card, '918273');
        return {
          path: { productId: AMAZON_US },
          body: { csv: `cardNumber,pinCode,faceValue\n${card},918273,10\n` },
        };
      },
    ],
    ['POST /topup-operators/{operatorId}/deactivate', () => ({ path: { operatorId: 1001 } })],
    ['POST /topup-operators/{operatorId}/activate', () => ({ path: { operatorId: 1001 } })],
    [
      'PUT /upstreams/{product}',
      async () => {
        const upstreamAccount = await server.admin.createAccount({ fund: 10 });
        secrets.push(upstreamAccount.clientSecret, upstreamSecret);
        return {
          path: { product: 'giftcards' },
          body: {
            url: `${server.config.publicUrl}/giftcards-sandbox`,
            authUrl: `${server.config.publicUrl}/auth`,
            clientId: upstreamAccount.clientId,
            clientSecret: upstreamAccount.clientSecret,
            caPem: caPem(),
          },
        };
      },
    ],
    ['POST /catalog/sync/{product}', () => ({ path: { product: 'giftcards' } })],
    ['DELETE /upstreams/{product}', () => ({ path: { product: 'giftcards' } })],
    [
      'PUT /bank-details/{currencyCode}',
      () => ({
        path: { currencyCode: 'USD' },
        body: { accountHolder: 'Airgift Ltd', accountNumber: 'GB33BUKB20201555555555', bankName: 'Bank' },
      }),
    ],
    [
      'POST /funding/transfers/{transferId}/confirm',
      async () => {
        // a transfer the account's user announces on the dashboard
        const customer = await dashboardSession(server, id, 'fund@example.com');
        ctx.announce = async () => {
          const day = server.clock.now().toISOString().slice(0, 10);
          const made = await customer.post('/api/funding/transfers', { amount: '12.50', transferDate: day });
          return made.body.transferId;
        };
        return { path: { transferId: await ctx.announce() } };
      },
    ],
    [
      'POST /funding/transfers/{transferId}/reject',
      async () => ({
        path: { transferId: await (ctx.announce as () => Promise<number>)() },
        body: { reason: 'never arrived' },
      }),
    ],
    ['DELETE /bank-details/{currencyCode}', () => ({ path: { currencyCode: 'USD' } })],
    [
      'POST /webhooks',
      () => ({
        body: {
          accountId: id,
          environment: 'sandbox',
          url: 'https://127.0.0.1:9/hook',
          events: ['balance.*'],
        },
        after: (a: Answer) => {
          ctx.webhookId = a.body.id;
          secrets.push(a.body.secret);
        },
      }),
    ],
    [
      'POST /webhooks/deliveries/{deliveryId}/replay',
      async () => {
        await server.admin.fund(id, 1); // a balance.funded event: one delivery to the endpoint
        const deliveries = await server.admin.call('GET', `/webhooks/${ctx.webhookId}/deliveries`);
        return { path: { deliveryId: deliveries.body.items[0].id } };
      },
    ],
    ['DELETE /webhooks/{endpointId}', () => ({ path: { endpointId: ctx.webhookId as number } })],
  ];
}

const linesAfter = async (auditId: number) =>
  (await server.admin.call('GET', '/audit?size=1000')).body.items.filter(
    (e: { auditId: number }) => e.auditId > auditId,
  );
const lastId = async () => (await server.admin.call('GET', '/audit?size=1')).body.items[0]?.auditId ?? 0;

describe('the audit log of the admin API', () => {
  test('every mutating admin operation writes one line: action, admin key id, target, request id, address', async () => {
    const ops: Operation[] = (await operationsOf(server.http, '/admin', 'admin')).filter(
      (o) => o.method !== 'GET',
    );
    const ctx: Context = {};
    const known = recipes(ctx);
    const missing = ops.filter((o) => !known.some(([key]) => key === o.key)).map((o) => o.key);
    assert.deepEqual(missing, [], 'add a recipe (and an audit description) for each');
    assert.ok(ops.length >= 25, `${ops.length} mutating operations`);
    const actions = new Set<string>();
    for (const [key, make] of known) {
      const op = ops.find((o) => o.key === key);
      assert.ok(op, `${key} is no longer published: remove its recipe`);
      const recipe = await make();
      const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => String(recipe.path?.[name]));
      const before = await lastId();
      const requestId = `req-walk-${actions.size}`;
      const answer = await server.http.call(op.method, `/admin${path}`, {
        headers: { authorization: `Bearer ${ADMIN_KEY}`, 'x-request-id': requestId },
        body: recipe.body,
      });
      assert.equal(answer.status, 200, `${key}: ${answer.text.slice(0, 300)}`);
      recipe.after?.(answer);
      const lines = await linesAfter(before);
      assert.equal(lines.length, 1, `${key} wrote ${lines.length} lines`);
      const [line] = lines;
      assert.equal(line.channel, 'admin');
      assert.deepEqual(
        [line.actorKind, line.actorId, line.actor],
        ['admin-key', KEY_ID, `admin key ${KEY_ID}`],
      );
      assert.equal(line.requestId, requestId);
      assert.equal(line.ip, '127.0.0.1');
      assert.match(line.action, /^[a-z-]+\.[a-z-]+$/, `${key} has a named action, not ${line.action}`);
      assert.ok(line.target, `${key} names its target`);
      actions.add(line.action);
    }
    assert.equal(actions.size, known.length, 'each operation its own action');
    const stored = JSON.stringify((await sql`SELECT * FROM audit_log`.execute(server.db.kysely)).rows);
    for (const secret of secrets)
      assert.ok(!stored.includes(secret), `an audit line holds ${secret.slice(0, 10)}…`);
  });

  test('what the lines say: the state before and after, what was asked, the account concerned', async () => {
    const all = (await server.admin.call('GET', '/audit?size=1000')).body.items as any[];
    const one = (action: string) => all.find((e) => e.action === action);
    const patch = one('account.update');
    assert.equal(patch.accountId, account.accountId);
    assert.equal(patch.target, `account ${account.accountId}`);
    assert.deepEqual(patch.details, { dailyCountLimit: 5 });
    assert.deepEqual([patch.before.dailyCountLimit, patch.after.dailyCountLimit], [null, 5]);
    const fund = all.find((e) => e.action === 'account.fund' && e.details.reason === 'wire 7');
    assert.deepEqual(fund.details, { environment: 'sandbox', amount: 50, reason: 'wire 7' });
    assert.equal(fund.after.newBalance - fund.after.oldBalance, 50);
    const created = all.find((e) => e.action === 'account.create' && e.details.name === 'Walked');
    assert.equal(created.details.fund, 500, 'created with its funding');
    assert.equal(created.after.clientSecret, '[redacted]');
    const fx = one('fx.set');
    assert.deepEqual([fx.target, fx.after.unitsPerUsd], ['EUR', 0.93]);
    assert.equal(typeof fx.before.unitsPerUsd, 'number');
    const upstream = one('upstream.remove');
    assert.equal(upstream.before.url, `${server.config.publicUrl}/giftcards-sandbox`, 'the settings removed');
    assert.deepEqual(one('stock.import').details, {}, 'never the codes file');
    assert.equal(one('webhook.add').after.secret, '[redacted]');
    assert.equal(one('user.invite').after.link, '[redacted]');
  });

  test('the CLI: `audit` lists and filters, `audit --csv` exports, `audit verify` walks the chain', async () => {
    const env = {
      ...process.env,
      AIRGIFT_URL: server.url,
      AIRGIFT_ADMIN_KEY: ADMIN_KEY,
      AIRGIFT_CA_FILE: CA_FILE,
    };
    const airgift = async (...args: string[]) =>
      (await run(process.execPath, [BIN, ...args], { env })).stdout;
    const funds = JSON.parse(await airgift('audit', '--action', 'account.fund', '--json'));
    assert.ok(
      funds.items.length >= 2 && funds.items.every((e: { action: string }) => e.action === 'account.fund'),
    );
    const text = await airgift('audit', '--account', String(account.accountId), '--size', '3');
    assert.match(text, /account\.fund|webhook/);
    assert.match(text, new RegExp(`admin key ${KEY_ID}`));
    const csv = await airgift('audit', '--csv', '--channel', 'admin');
    const [head, ...rows] = csv.trimEnd().split('\r\n');
    assert.equal(
      head,
      'auditId,at,channel,actorKind,actorId,actor,accountId,action,target,details,before,after,ip,requestId,hash',
    );
    assert.ok(rows.length >= 25);
    assert.match(
      await airgift('audit', 'verify'),
      /^the audit log holds \d+ lines, chained without a break/m,
    );
    const verified = JSON.parse(await airgift('audit', 'verify', '--json'));
    assert.equal(verified.ok, true);
    assert.equal(verified.head.auditId, verified.lines);
  });

  test('append-only: UPDATE, DELETE and TRUNCATE are refused, and so is moving the chain head', async () => {
    const db = server.db.kysely;
    for (const statement of [
      sql`UPDATE audit_log SET action = 'nothing' WHERE id = 1`,
      sql`DELETE FROM audit_log WHERE id = 1`,
      sql`TRUNCATE audit_log`,
      sql`UPDATE audit_chain_head SET last_id = 1`,
      sql`DELETE FROM audit_chain_head`,
    ]) {
      await assert.rejects(statement.execute(db), /append-only|moves only when a line is appended/);
    }
  });

  test('`audit verify` finds an edited line, a removed one and removed last lines', async () => {
    const db = server.db.kysely;
    const verify = async () => (await server.admin.call('GET', '/audit/verify')).body;
    assert.equal((await verify()).ok, true);
    const lines = (await verify()).lines as number;
    // someone with the database's keys, the triggers turned off
    await sql`ALTER TABLE audit_log DISABLE TRIGGER USER`.execute(db);
    try {
      await sql`UPDATE audit_log SET details = '{"amount": 5000}' WHERE id = 5`.execute(db);
      let found = await verify();
      assert.equal(found.ok, false);
      assert.deepEqual(found.problems, [
        { auditId: 5, problem: 'line 5 was edited: its content no longer gives its hash' },
      ]);
      await sql`DELETE FROM audit_log WHERE id = 5`.execute(db);
      await sql`DELETE FROM audit_log WHERE id = ${lines}`.execute(db);
      found = await verify();
      assert.deepEqual(found.problems, [
        { auditId: 6, problem: 'line 5 was removed' },
        { auditId: lines, problem: `the last line (${lines}) was removed` },
      ]);
    } finally {
      await sql`ALTER TABLE audit_log ENABLE TRIGGER USER`.execute(db);
    }
    // the verdict is the admin API's, the console's and the CLI's alike
    assert.equal((await verify()).ok, false);
  });
});

describe('the audit log and the token endpoint', () => {
  test('reads, tokens and refused changes write no line', async () => {
    const before = await lastId();
    await server.admin.call('GET', '/accounts');
    await server.admin.token(account, server.config.giftcardsSandboxUrl);
    assert.equal(
      (
        await server.admin.call('POST', '/accounts/999999/fund', {
          environment: 'sandbox',
          amount: 1,
          reason: 'x',
        })
      ).status,
      404,
    );
    assert.equal((await server.http.post('/admin/accounts', { name: 'x' })).status, 401);
    assert.equal(await lastId(), before);
  });
});
