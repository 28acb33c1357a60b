import type { Config } from '../config.ts';
import type { Environment } from '../db/schema.ts';

/**
 * The public bases (decisions §1): the token service, each product in each environment, and the
 * admin API. Each is a full URL; a request belongs to the base whose host and path prefix it matches.
 * Internally every base's routes live under a fixed mount (`/_giftcards`, ...), so the same route
 * code serves live and sandbox, and a deployment can move a base to its own host by configuration.
 */
export type Product = 'giftcards' | 'topups';
export type BaseKind = 'auth' | 'admin' | Product | WebPage;
/** The web pages: the account dashboard and the operator console. */
export type WebPage = 'dashboard' | 'console';

export interface Base {
  kind: BaseKind;
  environment: Environment | null;
  /** The configured URL without a trailing slash: the audience of tokens for a product base. */
  url: string;
  host: string;
  /** Path prefix without trailing slash ('' when the base owns its host). */
  prefix: string;
  /** Where its routes are mounted inside the app. */
  mount: string;
}

export const MOUNTS: Record<BaseKind, string> = {
  auth: '/_auth',
  admin: '/_admin',
  giftcards: '/_giftcards',
  topups: '/_topups',
  dashboard: '/_dashboard',
  console: '/_console',
};

/** Paths served on any host outside the bases (the docs of the error codes). */
export const SHARED_MOUNT = '/_shared';
const UNMATCHED_MOUNT = '/_unmatched';
/** The paths of the shared mount: the error docs (page and stylesheet) and the two probes. */
const SHARED_PATHS = ['/docs/errors', '/docs/errors.css', '/health', '/ready'];
/** A gift card's redeem page, `/r/{token}`, answered on every host (modules/giftcards/delivery). The
 * site root (`/`, and PUBLIC_URL's path) that no base owns answers the page of http/site-root.ts. */
export const REDEEM_PATH = '/r/';

export function basesFromConfig(config: Config): Base[] {
  const make = (kind: BaseKind, environment: Environment | null, url: string): Base => {
    const parsed = new URL(url);
    return {
      kind,
      environment,
      url,
      host: parsed.hostname.toLowerCase(),
      prefix: parsed.pathname.replace(/\/+$/, ''),
      mount: MOUNTS[kind],
    };
  };
  return [
    make('auth', null, config.authUrl),
    make('giftcards', 'live', config.giftcardsUrl),
    make('giftcards', 'sandbox', config.giftcardsSandboxUrl),
    make('topups', 'live', config.topupsUrl),
    make('topups', 'sandbox', config.topupsSandboxUrl),
    make('admin', null, config.adminUrl),
    make('dashboard', null, config.dashboardUrl),
    make('console', null, config.consoleUrl),
  ];
}

export interface BaseRouter {
  /** Finds the base of a request, or null. */
  match(hostHeader: string | undefined, path: string): Base | null;
  /** The internal URL a request is routed by (`/products?x` on the sandbox base -> `/_giftcards/products?x`). */
  rewrite(hostHeader: string | undefined, url: string): { base: Base | null; url: string };
  product(kind: Product, environment: Environment): Base;
  byUrl(url: string): Base | undefined;
  all: Base[];
}

/**
 * Longest prefix wins. A base with a path prefix also answers on another host name of the same
 * server (127.0.0.1 instead of localhost, say), so one-host deployments work whatever name the
 * client uses; a base without a prefix owns its host and matches on that host only.
 */
export function createBaseRouter(bases: Base[], options: { publicUrl?: string } = {}): BaseRouter {
  // the redeem page under PUBLIC_URL's path too (https://example.com/airgift/r/{token}), as its links say
  const publicPrefix = options.publicUrl ? new URL(options.publicUrl).pathname.replace(/\/+$/, '') : '';
  const byLength = [...bases].sort((a, b) => b.prefix.length - a.prefix.length);
  const underPrefix = (path: string, prefix: string) =>
    prefix === '' || path === prefix || path.startsWith(`${prefix}/`);

  const match = (hostHeader: string | undefined, path: string): Base | null => {
    const host = hostnameOf(hostHeader);
    const sameHost = byLength.find((b) => b.host === host && underPrefix(path, b.prefix));
    if (sameHost) return sameHost;
    return byLength.find((b) => b.prefix !== '' && underPrefix(path, b.prefix)) ?? null;
  };

  return {
    all: bases,
    match,
    rewrite(hostHeader, url) {
      const q = url.indexOf('?');
      const path = q === -1 ? url : url.slice(0, q);
      const query = q === -1 ? '' : url.slice(q);
      if (SHARED_PATHS.includes(path) || path.startsWith(REDEEM_PATH)) {
        return { base: null, url: `${SHARED_MOUNT}${url}` };
      }
      if (publicPrefix && path.startsWith(`${publicPrefix}${REDEEM_PATH}`)) {
        return { base: null, url: `${SHARED_MOUNT}${url.slice(publicPrefix.length)}` };
      }
      const base = match(hostHeader, path);
      // the site root no base owns: the page for people (http/site-root.ts), not a 404
      if (
        !base &&
        (path === '/' || (publicPrefix !== '' && (path === publicPrefix || path === `${publicPrefix}/`)))
      ) {
        return { base: null, url: `${SHARED_MOUNT}/${query}` };
      }
      if (!base) return { base: null, url: `${UNMATCHED_MOUNT}${url}` };
      const rest = path.slice(base.prefix.length) || '/';
      return { base, url: `${base.mount}${rest}${query}` };
    },
    product(kind, environment) {
      const base = bases.find((b) => b.kind === kind && b.environment === environment);
      if (!base) throw new Error(`no ${kind} ${environment} base configured`);
      return base;
    },
    byUrl(url) {
      const wanted = url.replace(/\/+$/, '');
      return bases.find((b) => b.url === wanted);
    },
  };
}

function hostnameOf(hostHeader: string | undefined): string {
  if (!hostHeader) return '';
  const h = hostHeader.toLowerCase();
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1);
  const colon = h.lastIndexOf(':');
  return colon === -1 ? h : h.slice(0, colon);
}
