import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ADMIN_KEY, AUDIENCES, type TestAccount } from '../harness/client.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';

/**
 * A key named twice in a JSON body (issue 29: `"quantity":1,"quantity":3` was charged for 3 cards)
 * is refused with 400 naming the field, on every base, before anything is read or written; on the
 * token endpoint in OAuth's form, and a form parameter sent twice too (RFC 6749 §3.2).
 */
let server: TestServer;
let account: TestAccount;
let token: string;
const GIFTCARDS = {
  accept: 'application/com.reloadly.giftcards-v1+json',
  'content-type': 'application/json',
};

before(async () => {
  server = await startTestServer();
  account = await server.admin.createAccount({ fund: 1000 });
  token = await server.admin.token(account, AUDIENCES.giftcardsSandbox);
});
after(() => server.close());

const raw = (path: string, body: string, headers: Record<string, string>) =>
  server.http.call('POST', path, { headers, rawBody: body });

describe('a repeated key is refused, not read as its last value', () => {
  test('"quantity":1,"quantity":3 on a gift card order: 400 INVALID_REQUEST naming quantity, nothing charged', async () => {
    const balance = async () =>
      (await server.http.get('/giftcards-sandbox/accounts/balance', { token, headers: GIFTCARDS })).body
        .balance;
    const before = await balance();
    const answer = await raw(
      '/giftcards-sandbox/orders',
      '{"productId":11,"quantity":1,"unitPrice":10,"senderName":"Ada","quantity":3}',
      { ...GIFTCARDS, authorization: `Bearer ${token}` },
    );
    assert.equal(answer.status, 400, answer.text);
    assert.equal(answer.body.errorCode, 'INVALID_REQUEST');
    assert.match(answer.body.message, /quantity/);
    assert.deepEqual(
      answer.body.details.map((d: { field: string }) => d.field),
      ['quantity'],
    );
    assert.equal(await balance(), before);
    const orders = await server.http.get('/giftcards-sandbox/reports/transactions', {
      token,
      headers: GIFTCARDS,
    });
    assert.equal(orders.body.length, 0);
  });

  test('nested and escaped: a top-up naming recipientPhone.number twice (once as "n\\u0075mber")', async () => {
    const topups = await server.admin.token(account, AUDIENCES.topupsSandbox);
    const answer = await raw(
      '/topups-sandbox/topups',
      '{"operatorId":1001,"amount":10,"recipientPhone":{"countryCode":"NG","number":"08031112233","n\\u0075mber":"08039999999"}}',
      {
        accept: 'application/com.reloadly.topups-v1+json',
        'content-type': 'application/json',
        authorization: `Bearer ${topups}`,
      },
    );
    assert.equal(answer.status, 400, answer.text);
    assert.equal(answer.body.errorCode, 'INVALID_REQUEST');
    assert.equal(answer.body.details[0].field, 'recipientPhone.number');
  });

  test('the admin API: an account funded twice in one body is refused', async () => {
    const answer = await raw(
      '/admin/accounts',
      '{"name":"Twice","currency":"USD","country":"US","environment":"sandbox","fund":1,"fund":1000000}',
      { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_KEY}` },
    );
    assert.equal(answer.status, 400, answer.text);
    assert.equal(answer.body.details[0].field, 'fund');
  });

  test('the token endpoint: a repeated JSON key or form parameter is invalid_request naming it', async () => {
    const json = await raw(
      '/auth/oauth/token',
      `{"grant_type":"client_credentials","client_id":"${account.clientId}","client_secret":"${account.clientSecret}","audience":"${AUDIENCES.giftcardsSandbox}","audience":"${AUDIENCES.giftcardsLive}"}`,
      { 'content-type': 'application/json' },
    );
    assert.equal(json.status, 400, json.text);
    assert.equal(json.body.error, 'invalid_request');
    assert.match(json.body.error_description, /audience/);
    const form = await raw(
      '/auth/oauth/token',
      new URLSearchParams([
        ['grant_type', 'client_credentials'],
        ['client_id', account.clientId],
        ['client_secret', account.clientSecret],
        ['audience', AUDIENCES.giftcardsSandbox],
        ['client_id', 'ag_test_someoneelse'],
      ]).toString(),
      { 'content-type': 'application/x-www-form-urlencoded' },
    );
    assert.equal(form.status, 400, form.text);
    assert.equal(form.body.error, 'invalid_request');
    assert.match(form.body.error_description, /client_id/);
  });

  test('the same key in two objects, or a key equal to a value, is not a repeat', async () => {
    const answer = await raw(
      '/admin/accounts',
      '{"name":"name","currency":"USD","country":"US","environment":"sandbox","fund":10}',
      { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_KEY}` },
    );
    assert.equal(answer.status, 200, answer.text);
  });
});
