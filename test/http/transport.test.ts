import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { request } from 'undici';
import { ADMIN_KEY, AUDIENCES } from '../harness/client.ts';
import { assertErrorEnvelope } from '../harness/fields.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';

// decisions §1 and §3: HTTPS only, media types, one envelope for every failure, a request id on every response.
let server: TestServer;
let token: string;

before(async () => {
  server = await startTestServer();
  const account = await server.admin.createAccount();
  token = await server.admin.token(account, AUDIENCES.giftcardsSandbox);
});
after(() => server.close());

/** The gift card balance, asked for with this Accept. */
const balanceAccepting = (accept: string) =>
  server.http.get('/giftcards-sandbox/accounts/balance', { token, headers: { accept } });

function assertEnvelope(body: any, code: string, path: string) {
  assertErrorEnvelope(body, code);
  assert.equal(body.path, path);
  assert.equal(typeof body.timeStamp, 'number');
  assert.ok(Math.abs(body.timeStamp - Date.now()) < 60_000, 'timeStamp is epoch milliseconds');
  assert.ok(Array.isArray(body.details));
  assert.equal(typeof body.message, 'string');
}

describe('transport', () => {
  test('plain HTTP on the HTTPS port is refused with a clear error, never served', async () => {
    const port = new URL(server.url).port;
    const answer = await request(`http://127.0.0.1:${port}/giftcards-sandbox/accounts/balance`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const body = (await answer.body.json()) as any;
    assert.equal(answer.statusCode, 400);
    assertEnvelope(body, 'INVALID_REQUEST', '/giftcards-sandbox/accounts/balance');
    assert.match(body.message, /HTTPS only/);
    assert.ok(!('balance' in body));
  });

  test('every response carries a request id; a sane incoming X-Request-Id is kept', async () => {
    const ok = await server.http.get('/giftcards-sandbox/accounts/balance', { token });
    assert.match(String(ok.headers['x-request-id']), /^req_/);
    const failed = await server.http.get('/nowhere', { headers: { 'x-request-id': 'client-chosen-42' } });
    assert.equal(failed.headers['x-request-id'], 'client-chosen-42');
  });

  test('vendor media types with any vendor word, application/json and */* are served', async () => {
    for (const accept of [
      'application/com.reloadly.giftcards-v1+json',
      'application/com.acme.giftcards-v1+json',
      'application/json',
      '*/*',
      'text/html, application/json;q=0.9',
    ]) {
      const answer = await balanceAccepting(accept);
      assert.equal(answer.status, 200, accept);
      assert.match(String(answer.headers['content-type']), /^application\/json/);
    }
  });

  test('another version or type -> 406 MEDIA_TYPE_NOT_ACCEPTABLE', async () => {
    for (const accept of [
      'application/com.reloadly.giftcards-v2+json',
      'text/html',
      'application/com.reloadly.topups-v1+json',
    ]) {
      const answer = await balanceAccepting(accept);
      assert.equal(answer.status, 406, accept);
      assertEnvelope(answer.body, 'MEDIA_TYPE_NOT_ACCEPTABLE', '/giftcards-sandbox/accounts/balance');
    }
  });

  test('unknown path -> 404 RESOURCE_NOT_FOUND envelope, on a base and outside every base', async () => {
    for (const path of ['/giftcards-sandbox/no-such-thing', '/no-base-here']) {
      const answer = await server.http.get(path, { token });
      assert.equal(answer.status, 404);
      assertEnvelope(answer.body, 'RESOURCE_NOT_FOUND', path);
    }
  });

  test('wrong method on a known path -> 405 METHOD_NOT_SUPPORTED with Allow', async () => {
    for (const method of ['DELETE', 'PATCH', 'PUT']) {
      const answer = await server.http.call(method, '/giftcards-sandbox/accounts/balance', { token });
      assert.equal(answer.status, 405, method);
      assertEnvelope(answer.body, 'METHOD_NOT_SUPPORTED', '/giftcards-sandbox/accounts/balance');
      assert.match(String(answer.headers.allow), /GET/);
    }
  });

  test('a POST body that is not JSON -> 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    const answer = await server.http.call('POST', '/admin/accounts', {
      rawBody: 'name=a',
      headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'text/plain' },
    });
    assert.equal(answer.status, 415);
    assertEnvelope(answer.body, 'UNSUPPORTED_MEDIA_TYPE', '/admin/accounts');
  });

  test('malformed JSON -> 400 INVALID_REQUEST; oversized body -> 413; nothing is created', async () => {
    const headers = { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' };
    const before = await server.runtime.services.accounts.count();
    const broken = await server.http.call('POST', '/admin/accounts', { rawBody: '{"name": "a",', headers });
    assert.equal(broken.status, 400);
    assertEnvelope(broken.body, 'INVALID_REQUEST', '/admin/accounts');
    const huge = await server.http.call('POST', '/admin/accounts', {
      rawBody: JSON.stringify({
        name: 'x'.repeat(200_000),
        currency: 'USD',
        country: 'US',
        environment: 'sandbox',
      }),
      headers,
    });
    assert.equal(huge.status, 413);
    assertEnvelope(huge.body, 'REQUEST_TOO_LARGE', '/admin/accounts');
    assert.equal(await server.runtime.services.accounts.count(), before);
  });

  test('the error docs page lists every code the envelope links to', async () => {
    const page = await server.http.get('/docs/errors', { headers: { accept: 'text/html' } });
    assert.equal(page.status, 200);
    for (const code of [
      'INVALID_REQUEST',
      'TOKEN_EXPIRED',
      'UNPROCCESSABLE_ENTITY',
      'INSUFFICIENT_BALANCE',
    ]) {
      assert.match(page.text, new RegExp(`id="${code}"`));
    }
  });
});

describe('admin API input', () => {
  /** POST /admin/accounts: a valid sandbox account's fields, with `fields` instead. */
  const createAccount = (fields: Record<string, string>) =>
    server.admin.call('POST', '/accounts', {
      name: 'x',
      currency: 'USD',
      country: 'US',
      environment: 'sandbox',
      ...fields,
    });

  test('unknown currency or country -> 400 INVALID_REQUEST naming each field', async () => {
    const answer = await createAccount({ currency: 'XYZ', country: 'QQ' });
    assert.equal(answer.status, 400);
    assertEnvelope(answer.body, 'INVALID_REQUEST', '/admin/accounts');
    assert.deepEqual(answer.body.details.map((d: any) => d.field).sort(), ['country', 'currency']);
  });

  test('a currency without an FX rate -> 400 naming the currency, nothing created; with a rate it works', async () => {
    const before = await server.runtime.services.accounts.count();
    const answer = await createAccount({ currency: 'CHE', country: 'CH' });
    assert.equal(answer.status, 400);
    assert.equal(answer.body.details[0].field, 'currency');
    assert.match(answer.body.details[0].issue, /no FX rate for CHE/);
    assert.equal(await server.runtime.services.accounts.count(), before);
    assert.equal((await server.admin.call('PUT', '/fx-rates/CHE', { unitsPerUsd: '0.89' })).status, 200);
    const created = await createAccount({ currency: 'CHE', country: 'CH' });
    assert.equal(created.status, 200);
  });

  test('schema violations name the field', async () => {
    const answer = await createAccount({ name: '', environment: 'staging' });
    assert.equal(answer.status, 400);
    const fields = answer.body.details.map((d: any) => d.field);
    assert.ok(fields.includes('name'));
    assert.ok(fields.includes('environment'));
  });

  test('funding with too many decimals for the currency, zero or negative -> 400, balance unchanged', async () => {
    const account = await server.admin.createAccount({ currency: 'JPY', country: 'JP', fund: 5000 });
    for (const amount of ['10.5', '0', '-3', 'abc']) {
      const answer = await server.admin.call('POST', `/accounts/${account.accountId}/fund`, {
        environment: 'sandbox',
        amount,
        reason: 'x',
      });
      assert.equal(answer.status, 400, amount);
    }
    const shown = await server.admin.call('GET', `/accounts/${account.accountId}`);
    assert.equal(shown.body.balances.sandbox.balance, 5000);
  });

  test('admin routes need the admin key', async () => {
    const answer = await server.http.get('/admin/accounts', { headers: { authorization: 'Bearer wrong' } });
    assert.equal(answer.status, 401);
    assertEnvelope(answer.body, 'AUTHENTICATION_FAILURE', '/admin/accounts');
  });

  test('unknown account -> 404 ACCOUNT_NOT_FOUND', async () => {
    const answer = await server.admin.call('GET', '/accounts/999999');
    assert.equal(answer.status, 404);
    assertEnvelope(answer.body, 'ACCOUNT_NOT_FOUND', '/admin/accounts/999999');
  });
});
