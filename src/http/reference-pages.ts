import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Base, BaseKind } from './bases.ts';
import { originalPath } from './error-handler.ts';
import { gettingStartedPage } from './getting-started.ts';
import { escapeHtml, PAGE_CSS } from './page-layout.ts';
import { REFERENCE_A11Y_JS } from './reference-a11y.ts';

/**
 * The reference pages of a base, for people: `{base}/docs` renders `{base}/openapi.json` with
 * Scalar's API reference (navigation, search, schemas, examples, errors, try-it), loaded from the
 * npm package `@scalar/api-reference` and served by this server (no CDN, no web fonts); and
 * `{base}/docs/getting-started` for the two products. Every page is sent with a Content-Security-Policy
 * that allows this server's own assets only, plus calls to the product's bases for the try-it.
 */
const require = createRequire(import.meta.url);
let scalarBundle: Buffer | null = null;
/** Scalar's standalone bundle, read once from node_modules. */
function scalar(): Buffer {
  // The package exports no path to its browser bundle; its stylesheet export sits beside it in dist/.
  const dist = dirname(require.resolve('@scalar/api-reference/style.css'));
  scalarBundle ??= readFileSync(join(dist, 'browser', 'standalone.js'));
  return scalarBundle;
}

/**
 * Boots Scalar from the page's data attributes: a script file, so the CSP needs no inline script.
 * The element is not `#api-reference` with `data-url`: the bundle would mount a second reference
 * there by itself, with its defaults (web fonts, the cloud agent).
 */
const REFERENCE_JS = `(() => {
  const el = document.getElementById('reference');
  Scalar.createApiReference(el, {
    url: el.dataset.document,
    servers: JSON.parse(el.dataset.servers),
    withDefaultFonts: false,
    hideClientButton: true,
    showDeveloperTools: 'never',
    telemetry: false,
    // Scalar's AI agent calls its own cloud; the fonts below replace the web fonts it would fetch.
    agent: { disabled: true },
    // "Generate MCP" links to Scalar's cloud.
    mcp: { disabled: true },
    // System fonts, and darker secondary text than Scalar's default (WCAG AA contrast).
    customCss:
      ':root{--scalar-font:system-ui,-apple-system,"Segoe UI",sans-serif;--scalar-font-code:ui-monospace,"DejaVu Sans Mono",monospace}' +
      '.light-mode{--scalar-color-2:#3d3d3d;--scalar-color-3:#4d4d4d;--scalar-color-accent:#0b57d0;--scalar-color-green:#116329;--scalar-color-blue:#0b57d0;--scalar-color-orange:#8a4600;--scalar-color-red:#b3261e;--scalar-color-purple:#6b3fa0;--scalar-color-yellow:#6d5700}',
    forceDarkModeState: 'light',
    hideDarkModeToggle: false,
    defaultOpenAllTags: true,
    authentication: { preferredSecurityScheme: 'bearer' },
  });
})();
`;

export interface ReferencePageDeps {
  kind: BaseKind;
  bases: Base[];
  document(): { info: { title: string } };
  /** The development CA's file when the server uses it (getting started's `curl --cacert`). */
  caFile?: string;
}

/** Allows this server's own assets; Scalar sets inline styles, so only styles allow 'unsafe-inline'. */
export function contentSecurityPolicy(connect: string[] = []): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self'${connect.length ? ` ${connect.join(' ')}` : ''}`,
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'self'",
  ].join('; ');
}

export function sendPage(reply: FastifyReply, html: string, connect: string[] = []) {
  return reply
    .type('text/html; charset=utf-8')
    .header('Content-Security-Policy', contentSecurityPolicy(connect))
    .header('X-Content-Type-Options', 'nosniff')
    .header('Referrer-Policy', 'no-referrer')
    .send(html);
}

/** The public path of the base the request came through (`/giftcards-sandbox`), from its URL. */
function publicRoot(request: FastifyRequest): string {
  return originalPath(request)
    .replace(/\/docs(?:\/.*)?$/, '')
    .replace(/\/+$/, '');
}

export function referencePageRoutes(app: FastifyInstance, deps: ReferencePageDeps) {
  const config = { access: { scope: null, docs: true } };
  const ownBases = deps.bases.filter((b) => b.kind === deps.kind);
  // Sandbox first: the try-it calls the sandbox unless the reader picks live.
  const servers = [...ownBases]
    .sort((a, b) => Number(b.environment === 'sandbox') - Number(a.environment === 'sandbox'))
    .map((b) => ({ url: b.url, description: b.environment ?? b.kind }));
  const auth = deps.bases.find((b) => b.kind === 'auth');
  const connect = [...new Set([...ownBases, ...(auth ? [auth] : [])].map((b) => new URL(b.url).origin))];

  app.get('/docs', { config }, async (request, reply) => {
    const root = publicRoot(request);
    const title = deps.document().info.title;
    const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} — API reference</title><link rel="icon" href="data:,"></head>
<body>
<noscript>This reference needs JavaScript; the document itself is <a href="${root}/openapi.json">openapi.json</a>.</noscript>
<div id="reference" data-document="${root}/openapi.json" data-servers="${escapeHtml(JSON.stringify(servers))}"></div>
<script src="${root}/docs/assets/scalar.js"></script>
<script src="${root}/docs/assets/reference.js"></script>
<script src="${root}/docs/assets/a11y.js"></script>
</body></html>`;
    return sendPage(reply, html, connect);
  });
  app.get('/docs/assets/scalar.js', { config }, async (_request, reply) =>
    reply
      .type('text/javascript; charset=utf-8')
      .header('Cache-Control', 'public, max-age=86400')
      .send(scalar()),
  );
  app.get('/docs/assets/reference.js', { config }, async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('Cache-Control', 'no-cache').send(REFERENCE_JS),
  );
  app.get('/docs/assets/a11y.js', { config }, async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('Cache-Control', 'no-cache').send(REFERENCE_A11Y_JS),
  );
  app.get('/docs/assets/pages.css', { config }, async (_request, reply) =>
    reply.type('text/css; charset=utf-8').header('Cache-Control', 'no-cache').send(PAGE_CSS),
  );
  if (deps.kind === 'giftcards' || deps.kind === 'topups') {
    const product = deps.kind;
    app.get('/docs/getting-started', { config }, async (request, reply) =>
      sendPage(reply, gettingStartedPage(product, deps.bases, publicRoot(request), deps.caFile)),
    );
  }
}
