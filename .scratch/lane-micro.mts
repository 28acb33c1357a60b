// ad-hoc micro-benchmark of the fast lane's JS (not committed)
import { createFastLane } from '../src/http/fast-lane.ts';
import { createKeptAnswers } from '../src/http/response-cache.ts';
import { createBaseRouter, basesFromConfig } from '../src/http/bases.ts';
import { loadConfig } from '../src/config.ts';
import { createTokenCache } from '../src/modules/auth/token-cache.ts';
const config = loadConfig({ PUBLIC_URL: 'https://localhost', DATA_DIR: '/tmp/x' } as any);
const bases = createBaseRouter(basesFromConfig(config));
const changes = { fresh: () => true, onChange() {}, changed: async () => {}, stop() {} } as any;
const clock = { now: () => new Date() };
const cache = createTokenCache(changes);
const token = 'eyJ' + 'a'.repeat(300);
const base = bases.rewrite('127.0.0.1:8443', '/giftcards-sandbox/accounts/balance').base!;
const principal = { accountId: 1, environment: 'sandbox', clientId: 'c', scopes: ['read-balance','read-products','x'] } as any;
cache.set(base.url, token, principal, Date.now() + 3600e3, cache.ticket());
const answers = createKeptAnswers({ changes, clock, profileOf: () => 'USD/US', loadProfile: async () => 0, balanceVersionOf: () => 7 });
const tokens = { peek: (auth: string|undefined, b: any) => { const m = auth ? /^Bearer\s+(\S+)\s*$/i.exec(auth) : null; return m ? cache.get(b.url, m[1], clock.now().getTime()) : undefined; } };
const url = bases.rewrite('127.0.0.1:8443', '/giftcards-sandbox/accounts/balance').url;
const key = answers.keyOf('balance', base, url, principal)!;
answers.keep(key, { ticket: 0, madeAt: Date.now(), version: 7 }, { kind: 'balance', principal, body: Buffer.from('{"balance":1}'), headers: { 'content-type': 'application/json; charset=utf-8', 'strict-transport-security': 'max-age=31536000', 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' } }, { url: '/_giftcards/accounts/balance', scope: 'x' });
const metrics = { observe() {}, fastLaneAnswer() {} };
const lane = createFastLane({ bases, tokens, answers, limit: null, metrics, log: { isLevelEnabled: () => false } as any, trustProxy: false });
const req: any = { method: 'GET', socket: { encrypted: true }, url: '/giftcards-sandbox/accounts/balance', headers: { host: '127.0.0.1:8443', authorization: 'Bearer ' + token, accept: 'application/json' } };
let written = 0;
const res: any = { writeHead(_s: number, h: any) { written += Object.keys(h).length; }, end() {} };
for (let r = 0; r < 3; r++) {
  const n = 300_000; const t = performance.now();
  for (let i = 0; i < n; i++) if (!lane(req, res)) throw new Error('declined');
  console.log('µs per lane call', ((performance.now() - t) * 1000 / n).toFixed(2));
}
