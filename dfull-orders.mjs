import { readFileSync } from 'node:fs';
import { Agent, request } from 'undici';
const [,, n = '500', dir = '/tmp/dfull/d', port = '9511'] = process.argv;
const ca = readFileSync(`${dir}/tls/ca.crt`, 'utf8');
const creds = JSON.parse(readFileSync(`${dir}/sandbox-credentials.json`, 'utf8'));
const dispatcher = new Agent({ connect: { ca }, connections: 16 });
const base = `https://localhost:${port}`;
const tok = await request(`${base}/auth/oauth/token`, { method: 'POST', dispatcher, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_id: creds.clientId, client_secret: creds.clientSecret, grant_type: 'client_credentials', audience: `${base}/giftcards-sandbox` }) });
const { access_token } = await tok.body.json();
const counts = {}; let last = null;
let i = 0;
async function worker() {
  while (i < Number(n)) { i++;
    const r = await request(`${base}/giftcards-sandbox/orders`, { method: 'POST', dispatcher, headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' }, body: JSON.stringify({ productId: 11, quantity: 1, unitPrice: 10, senderName: 'Ada' }) }).catch((e) => ({ statusCode: e.code, body: { text: async () => '' , json: async () => ({})} }));
    counts[r.statusCode] = (counts[r.statusCode] ?? 0) + 1;
    const t = await r.body.text(); if (r.statusCode !== 200) last = `${r.statusCode} ${JSON.stringify(r.headers?.['retry-after'])} ${t.slice(0, 300)}`;
  }
}
await Promise.all(Array.from({ length: 16 }, worker));
console.log(JSON.stringify(counts)); if (last) console.log(last);
await dispatcher.close();
