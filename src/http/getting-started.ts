import type { Base, Product } from './bases.ts';
import { escapeHtml, page } from './page-layout.ts';

/**
 * `{base}/docs/getting-started`: from credentials to a first call on one product, with the URLs of
 * this deployment and the sandbox's test values. Written here, in the project's own words; the
 * reference (`{base}/docs`) has every operation.
 *
 * @example
 * gettingStartedPage('topups', bases, '/topups-sandbox') // an HTML page
 */
const TEST_VALUES: Record<Product, string> = {
  giftcards: `<p>Sandbox orders buy nothing real. Product ids 11 to 26 are reserved for test products (sandbox only) whose
orders force each outcome; every other valid sandbox order succeeds at once.</p>
<table><caption>Sandbox test products</caption>
<thead><tr><th scope="col">productId</th><th scope="col">outcome of <code>POST /orders</code></th></tr></thead><tbody>
<tr><td>11 (FIXED), 12 (RANGE)</td><td>SUCCESSFUL at once, numeric codes</td></tr>
<tr><td>13</td><td>SUCCESSFUL at once, alphanumeric codes (sent as strings)</td></tr>
<tr><td>21</td><td>PROCESSING, then SUCCESSFUL a few seconds later</td></tr>
<tr><td>22</td><td>out of stock: with <code>"preOrder": true</code> PENDING, then SUCCESSFUL later; without it, refused (422)</td></tr>
<tr><td>24</td><td>FAILED, then REFUNDED a few seconds later</td></tr>
<tr><td>25</td><td>REFUNDED at once</td></tr>
</tbody></table>`,
  topups: `<p>Sandbox top-ups send nothing real. The outcome is chosen by the last five digits of the recipient's number;
every other valid sandbox top-up succeeds at once.</p>
<table><caption>Sandbox test numbers</caption>
<thead><tr><th scope="col">number ends in</th><th scope="col">outcome of <code>POST /topups</code></th></tr></thead><tbody>
<tr><td>99990</td><td>PROCESSING, then SUCCESSFUL a few seconds later</td></tr>
<tr><td>99991</td><td>PROCESSING, then REFUNDED</td></tr>
<tr><td>99992</td><td>400 <code>TOPUP_TRANSACTION_FAILED</code> at once, the debit refunded</td></tr>
<tr><td>99993</td><td>503 <code>TRANSACTION_CANNOT_BE_PROCESSED_AT_THE_MOMENT</code>, nothing recorded or debited</td></tr>
</tbody></table>
<p>Live top-ups need a fulfilment provider; a server without one answers 422 <code>OPERATOR_NOT_IN_SERVICE</code> and debits nothing.</p>`,
};

const FIRST_CALL: Record<Product, { path: string; what: string; scopes: string }> = {
  giftcards: {
    path: '/products?size=5',
    what: 'the first five products, priced in your account currency',
    scopes: 'one scope, <code>developer</code>, covers every gift card operation',
  },
  topups: {
    path: '/operators/countries/NG',
    what: "Nigeria's operators",
    scopes:
      'each operation names the scope it needs (<code>read-operators</code>, <code>send-topups</code>, <code>read-topups-history</code>, …); a token carries the top-up scopes of its credential',
  },
};

export function gettingStartedPage(product: Product, bases: Base[], root: string, caFile?: string): string {
  const own = bases.filter((b) => b.kind === product);
  const sandbox = own.find((b) => b.environment === 'sandbox') ?? own[0];
  const live = own.find((b) => b.environment === 'live');
  const auth = bases.find((b) => b.kind === 'auth');
  const dashboard = bases.find((b) => b.kind === 'dashboard');
  // the server's own development CA: curl must be told to trust it (README: Run it)
  const cacert = caFile ? `--cacert ${/[\s'"]/.test(caFile) ? `'${caFile}'` : caFile} ` : '';
  const name = product === 'giftcards' ? 'gift card' : 'mobile top-up';
  const first = FIRST_CALL[product];
  // tabindex: a scrollable region must be reachable by keyboard.
  const code = (s: string) => `<pre tabindex="0"><code>${escapeHtml(s)}</code></pre>`;
  const body = `<h1>Getting started with the ${name} API</h1>
<ol>
<li><a href="#credentials">Get credentials</a></li><li><a href="#token">Get a token for this base</a></li>
<li><a href="#first-call">Make a first call</a></li><li><a href="#sandbox">Test in the sandbox</a></li></ol>
<h2 id="credentials">1. Credentials</h2>
<p>A credential is a <code>client_id</code> and a <code>client_secret</code> for one environment, sandbox or live,
with the scopes you may use: ${first.scopes}. Create it yourself in the
${dashboard ? `<a href="${escapeHtml(dashboard.url)}/#/credentials">dashboard</a>` : 'dashboard'} (Credentials: pick the
environment and the scopes, then copy the secret, which is shown once); the operator of this server invites you
to the dashboard when they create your account.</p>
<p class="muted">Operators: the first start of a fresh server prints sandbox credentials and writes them to
<code>data/sandbox-credentials.json</code>; <code>npx airgift credentials create</code> makes more from the server's
command line.</p>
<h2 id="token">2. A token, with its audience</h2>
<p>Ask the token service for an access token. The <code>audience</code> is the base URL you will call: a token for
<code>${escapeHtml(sandbox.url)}</code> works there only (${live ? `one for <code>${escapeHtml(live.url)}</code> needs a live credential` : 'one base per token'}).
Keep the token until <code>expires_in</code> seconds have passed, then ask again.${
    caFile
      ? ` This server's certificate is signed by its own development CA, <code>${escapeHtml(caFile)}</code>: curl's <code>--cacert</code> trusts it (Node: <code>NODE_EXTRA_CA_CERTS</code>).`
      : ''
  }</p>
${code(`curl -s ${cacert}${auth?.url ?? ''}/oauth/token \\
  -H 'Content-Type: application/json' \\
  -d '{"client_id":"<client_id>","client_secret":"<client_secret>","grant_type":"client_credentials","audience":"${sandbox.url}"}'`)}
<p>The answer: <code>{"access_token":"eyJ…","scope":"…","expires_in":…,"token_type":"Bearer"}</code>. A wrong
secret answers 401 <code>invalid_client</code>; an audience that is not a product base answers 400 <code>invalid_target</code>.</p>
<h2 id="first-call">3. A first call</h2>
<p>Send the token as a Bearer token; this lists ${first.what}:</p>
${code(`curl -s ${cacert}'${sandbox.url}${first.path}' \\
  -H 'Authorization: Bearer <access_token>' \\
  -H 'Accept: application/json'`)}
<p>Errors answer <code>{timeStamp, message, infoLink, path, errorCode, details}</code>; <code>infoLink</code> leads to
the <a href="/docs/errors">error codes</a> page. The <a href="${root}/docs">API reference</a> lists every operation, and
its try-it calls the sandbox: put your sandbox client id and secret in its Authentication box and press Authorize
(it asks for a token with the sandbox audience), then Test Request on any operation.</p>
<h2 id="sandbox">4. Sandbox test values</h2>
${TEST_VALUES[product]}`;
  return page(
    `Getting started — airgift ${name} API`,
    body,
    [
      [`${root}/docs`, 'API reference'],
      [`${root}/docs/getting-started`, 'Getting started'],
      ['/docs/errors', 'Error codes'],
      [`${root}/openapi.json`, 'openapi.json'],
    ],
    `${root}/docs/assets/pages.css`,
  );
}
