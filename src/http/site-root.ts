import type { Base } from './bases.ts';
import { escapeHtml, page } from './page-layout.ts';

/**
 * The site root (`/`, and PUBLIC_URL's path) when no base owns it: a small page for the people who
 * type the server's address, linking to the dashboard, the console and each API's reference and
 * getting-started page. A base that owns the root of its host (a URL without a path) keeps it: an
 * API base answers its JSON 404 there, as everywhere (decisions: Transport).
 *
 * @example
 * siteRootPage(bases) // '<!doctype html>…<a href="https://localhost:8443/dashboard/">…'
 */
const NAMES: Partial<Record<Base['kind'], string>> = {
  giftcards: 'Gift card API',
  topups: 'Mobile top-up API',
  auth: 'Token service',
  admin: 'Admin API (operators)',
};

export function siteRootPage(bases: Base[]): string {
  const link = (href: string, text: string) => `<a href="${escapeHtml(href)}">${escapeHtml(text)}</a>`;
  const dashboard = bases.find((b) => b.kind === 'dashboard');
  const console = bases.find((b) => b.kind === 'console');
  const apis = bases
    .filter((b) => NAMES[b.kind] && (b.environment === null || b.environment === 'sandbox'))
    .map((b) => {
      const name = NAMES[b.kind] as string;
      const started =
        b.kind === 'giftcards' || b.kind === 'topups'
          ? ` · ${link(`${b.url}/docs/getting-started`, 'getting started')}`
          : '';
      return `<li>${link(`${b.url}/docs`, `${name}${b.environment ? ` (${b.environment})` : ''}`)}${started}</li>`;
    })
    .join('\n');
  const body = `<h1>airgift</h1>
<p>A gift card and mobile top-up API platform. This server answers its APIs under their own addresses; these are
the pages for people.</p>
<ul>
${dashboard ? `<li>${link(`${dashboard.url}/`, 'Dashboard')}: your account, credentials, transactions and balance</li>` : ''}
${console ? `<li>${link(`${console.url}/`, 'Console')}: for the operator of this server</li>` : ''}
</ul>
<h2>API documentation</h2>
<ul>
${apis}
<li>${link('/docs/errors', 'Error codes')}</li>
</ul>`;
  const nav: [string, string][] = [
    ...(dashboard ? [[`${dashboard.url}/`, 'Dashboard'] as [string, string]] : []),
    ...(console ? [[`${console.url}/`, 'Console'] as [string, string]] : []),
    ['/docs/errors', 'Error codes'],
  ];
  return page('airgift', body, nav, '/docs/errors.css');
}
