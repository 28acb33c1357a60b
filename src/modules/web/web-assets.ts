import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { PROJECT_ROOT } from '../../lib/project-root.ts';

/**
 * The pages' front-end: the browser code of this module (`<page>/pages/main.ts` and what it imports:
 * the other `pages/` folders and `ui/`) bundled by esbuild (its binary comes from npm), with no
 * network, and served from the page's own path: one HTML shell, one script, one stylesheet. The
 * production build (scripts/build.mjs, run by `npm start`) bundles it ahead of time into the server's
 * own bundle; run from the sources (`npm run dev`, the tests) it is bundled in memory the first time
 * a page's script is asked for. Nothing is loaded from another origin, and the Content-Security-Policy says
 * so (no inline script, no eval, no inline style); answers are never cached by the browser, and the
 * page cannot be framed.
 */
const WEB_DIR = join(PROJECT_ROOT, 'src', 'modules', 'web');

export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Set by scripts/build.mjs (esbuild `define`) in the production bundle; undeclared in the sources. */
declare const AIRGIFT_WEB_BUNDLES: Record<'dashboard' | 'console', string> | undefined;

const bundles = new Map<string, Promise<string>>();

/** The bundle of `<page>/pages/main.ts`: the production build's, or built once per process. */
export function bundle(page: 'dashboard' | 'console'): Promise<string> {
  if (typeof AIRGIFT_WEB_BUNDLES !== 'undefined') return Promise.resolve(AIRGIFT_WEB_BUNDLES[page]);
  let hit = bundles.get(page);
  if (!hit) {
    // esbuild only where it is used: its module and service process are no part of a production start.
    hit = import('esbuild')
      .then(({ build }) =>
        build({
          // The same options as the production build's (scripts/build.mjs reads this file too).
          ...(JSON.parse(readFileSync(join(WEB_DIR, 'bundle-options.json'), 'utf8')) as object),
          entryPoints: [join(WEB_DIR, page, 'pages', 'main.ts')],
          write: false,
          logLevel: 'silent',
        }),
      )
      .then((r) => r.outputFiles[0].text);
    bundles.set(page, hit);
  }
  return hit;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

/** Security headers of every answer of a page's base (JSON included). */
export function installPageHeaders(app: FastifyInstance) {
  app.addHook('onSend', async (request, reply, payload) => {
    // The OpenAPI reference page at {base}/docs is the one every base serves (src/http/openapi.ts),
    // with its own stylesheet: its policy is its own business.
    if (request.routeOptions.url?.endsWith('/docs') !== true) {
      reply.header('content-security-policy', CONTENT_SECURITY_POLICY);
    }
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    reply.header('x-frame-options', 'DENY');
    reply.header('cache-control', 'no-store');
    return payload;
  });
}

/**
 * `GET /` (the shell), `/app.js` and `/app.css` of a page whose public path is `prefix`.
 *
 * @example
 * await pageRoutes(app, 'dashboard', 'airgift dashboard', '/dashboard');
 */
export async function pageRoutes(
  app: FastifyInstance,
  page: 'dashboard' | 'console',
  title: string,
  prefix: string,
) {
  const config = { access: { scope: null, docs: true } };
  const css = await readFile(join(WEB_DIR, 'ui', 'styles.css'), 'utf8');
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<link rel="stylesheet" href="${esc(prefix)}/app.css">
<script type="module" src="${esc(prefix)}/app.js"></script>
</head>
<body data-base="${esc(prefix)}">
<a class="skip" href="#main">Skip to content</a>
<div id="app"><main id="main"><p>Loading…</p></main></div>
<noscript>These pages need JavaScript.</noscript>
</body>
</html>
`;
  app.get('/', { config }, async (_request, reply) => reply.type('text/html; charset=utf-8').send(html));
  app.get('/app.js', { config }, async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').send(await bundle(page)),
  );
  app.get('/app.css', { config }, async (_request, reply) => reply.type('text/css; charset=utf-8').send(css));
}
