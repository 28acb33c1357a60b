import type { Static } from 'typebox';
import { forgotForm, signInForm, welcomeForm } from '../users/pages/sign-in.ts';
import type { SessionInfo } from '../users/users-schemas.ts';
import type { OpeningEnvironment } from '../web-schemas.ts';
import { ApiError, explain, get, post, setCsrfToken } from './api.ts';
import { h, replace, status } from './dom.ts';
import type { Route } from './route.ts';
import { setOpeningEnvironment } from './widgets.ts';

/**
 * The frame both page apps run in: signed out, the sign-in forms (users/pages/sign-in.ts); signed
 * in, the header with sign-out, the navigation, and the hash router (`#/<page>?<query>`) that draws
 * the page of the address. Each app's `pages/main.ts` only lists its pages (its router table).
 */
export type Session = Static<typeof SessionInfo>;

export type { Route } from './route.ts';

export interface PageDef {
  path: string;
  title: string;
  render: (main: HTMLElement, route: Route, session: Session) => Promise<void>;
  /** Reached by links only (one transaction's page): left out of the navigation. */
  hidden?: boolean;
}

export function currentRoute(): Route {
  const hash = location.hash.replace(/^#/, '') || '/';
  const [path, query = ''] = hash.split('?');
  return { path, query: new URLSearchParams(query) };
}

export function go(path: string, query: Record<string, string> = {}) {
  const q = new URLSearchParams(Object.entries(query).filter(([, v]) => v !== '')).toString();
  location.hash = `#${path}${q ? `?${q}` : ''}`;
}

/** Starts a page app: welcome, sign-in, or the signed-in frame with its pages. */
export async function start(appName: string, pages: PageDef[], extraHeader?: (s: Session) => Node[]) {
  const app = document.getElementById('app') as HTMLElement;
  const welcome = /^#\/(welcome|reset)\/([\w-]+)$/.exec(location.hash);
  if (welcome) return welcomeForm(app, appName, welcome[2], welcome[1] === 'reset');
  let session: Session;
  try {
    session = await get<typeof SessionInfo>('/api/session');
    setCsrfToken(session.csrfToken);
  } catch {
    // signed out: the sign-in form, or the password reset request behind its link
    const show = () =>
      location.hash === '#/forgot'
        ? forgotForm(app, appName)
        : signInForm(app, appName, () => location.reload());
    window.addEventListener('hashchange', show);
    return show();
  }
  // where the data is: a sandbox-only account does not open on an empty Live view
  await get<typeof OpeningEnvironment>('/api/opening')
    .then((o) => setOpeningEnvironment(o.environment))
    .catch(() => undefined);
  const main = h('main', { id: 'main', tabindex: -1 });
  const nav = h('nav', { 'aria-label': 'Pages' });
  const signOut = h(
    'button',
    {
      type: 'button',
      onclick: async () => {
        await post('/api/sign-out');
        setCsrfToken(null);
        location.hash = '';
        location.reload();
      },
    },
    'Sign out',
  );
  replace(
    app,
    h(
      'header',
      { class: 'top' },
      h('p', { class: 'brand' }, `airgift ${appName}`),
      h(
        'p',
        { class: 'who' },
        session.accountName ? `${session.accountName} · ${session.email}` : session.email,
      ),
      ...(extraHeader?.(session) ?? []),
      signOut,
    ),
    nav,
    main,
  );

  // Each navigation renders; only the latest one's page may be shown. A slow page left behind (its
  // API calls still under way) must not replace the page navigated to after it.
  let latest = 0;
  const render = async () => {
    const mine = ++latest;
    const route = currentRoute();
    const page = pages.find((p) => p.path === route.path) ?? pages[0];
    document.title = `${page.title} · airgift ${appName}`;
    replace(
      nav,
      h(
        'ul',
        {},
        pages
          .filter((p) => !p.hidden || p === page)
          .map((p) =>
            h(
              'li',
              {},
              h(
                'a',
                { href: `#${p.path}${keep(route)}`, 'aria-current': p === page ? 'page' : null },
                p.title,
              ),
            ),
          ),
      ),
    );
    replace(main, h('h1', {}, page.title), h('p', {}, 'Loading…'));
    try {
      const body = h('div', {});
      await page.render(body, route, session);
      if (mine !== latest) return;
      replace(main, h('h1', {}, page.title), body);
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return location.reload();
      if (mine !== latest) return;
      replace(main, h('h1', {}, page.title), status(explain(error), 'error'));
    }
  };
  window.addEventListener('hashchange', render);
  await render();
}

/** The query a navigation keeps across pages (the environment). */
function keep(route: Route): string {
  const env = route.query.get('environment');
  return env ? `?environment=${env}` : '';
}
