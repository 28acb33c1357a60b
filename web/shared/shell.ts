import { ApiError, get, post, setCsrfToken } from './api.ts';
import { field, h, replace, status } from './dom.ts';

/**
 * What the dashboard and the console share: the sign-in form, the page that sets a password from an
 * invitation link (`#/welcome/<token>`), the frame with its navigation and sign-out, and the hash
 * router (`#/<page>?<query>`). Each page module only lists its pages.
 */
export interface Session {
  email: string;
  accountId: number | null;
  accountName: string | null;
  csrfToken: string;
  totpEnabled: boolean;
}

export interface Route {
  path: string;
  query: URLSearchParams;
}

export interface PageDef {
  path: string;
  title: string;
  render: (main: HTMLElement, route: Route, session: Session) => Promise<void>;
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

/** An error as a message for a status line. */
export const explain = (error: unknown) =>
  error instanceof ApiError ? error.message : error instanceof Error ? error.message : String(error);

function signInForm(app: HTMLElement, appName: string, done: (s: Session) => void) {
  const email = h('input', { type: 'email', name: 'email', autocomplete: 'username', required: true });
  const password = h('input', {
    type: 'password',
    name: 'password',
    autocomplete: 'current-password',
    required: true,
  });
  // asked for only once the password was right for a user with two-step sign-in on
  const code = h('input', {
    type: 'text',
    name: 'code',
    inputmode: 'numeric',
    autocomplete: 'one-time-code',
    pattern: '[0-9]{6}',
    maxlength: 6,
    required: true,
  });
  const codeField = field('Code from your authenticator app', code);
  const message = h('div', { class: 'message' });
  const button = h('button', { type: 'submit', class: 'primary' }, 'Sign in');
  const form = h(
    'form',
    { class: 'card narrow', 'aria-labelledby': 'signin-title' },
    h('h1', { id: 'signin-title' }, `Sign in to the ${appName}`),
    field('E-mail', email),
    field('Password', password),
    button,
    message,
    h('p', {}, h('a', { href: '#/forgot' }, 'Forgot your password?')),
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    try {
      const session = await post<Session>('/api/sign-in', {
        email: email.value,
        password: password.value,
        ...(codeField.isConnected ? { code: code.value } : {}),
      });
      setCsrfToken(session.csrfToken);
      done(session);
    } catch (error) {
      const required =
        error instanceof ApiError && error.details.some((d) => d.field === 'code' && d.issue === 'required');
      if (required && !codeField.isConnected) {
        button.before(codeField);
        code.focus();
        replace(message, status('Two-step sign-in is on: enter the 6-digit code of your authenticator app.'));
        return;
      }
      code.value = '';
      replace(message, status(explain(error), 'error'));
    }
  });
  replace(app, h('main', { id: 'main' }, form));
}

/** Asks for a password reset link by e-mail; the same answer whether the address has an account or not. */
function forgotForm(app: HTMLElement, appName: string) {
  const email = h('input', { type: 'email', name: 'email', autocomplete: 'username', required: true });
  const message = h('div', { class: 'message' });
  const form = h(
    'form',
    { class: 'card narrow', 'aria-labelledby': 'forgot-title' },
    h('h1', { id: 'forgot-title' }, `Reset your ${appName} password`),
    h('p', {}, 'We e-mail a link that sets a new password. It works once, for 30 minutes.'),
    field('E-mail', email),
    h('button', { type: 'submit', class: 'primary' }, 'E-mail me a link'),
    message,
    h('p', {}, h('a', { href: '#/' }, 'Back to sign in')),
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    try {
      await post('/api/password-reset', { email: email.value });
      replace(message, status('If this address has an account, a link is on its way. Check your e-mail.'));
    } catch (error) {
      replace(message, status(explain(error), 'error'));
    }
  });
  replace(app, h('main', { id: 'main' }, form));
}

function welcomeForm(app: HTMLElement, appName: string, token: string, reset = false) {
  const password = h('input', {
    type: 'password',
    name: 'password',
    autocomplete: 'new-password',
    minlength: 12,
    required: true,
  });
  const again = h('input', { type: 'password', name: 'again', autocomplete: 'new-password', required: true });
  const message = h('div', { class: 'message' });
  const form = h(
    'form',
    { class: 'card narrow', 'aria-labelledby': 'welcome-title' },
    h('h1', { id: 'welcome-title' }, reset ? 'Choose a new password' : `Welcome to the ${appName}`),
    h('p', {}, 'Choose a password of at least 12 characters.'),
    field('New password', password),
    field('Repeat it', again),
    h('button', { type: 'submit', class: 'primary' }, 'Set password'),
    message,
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (password.value !== again.value) {
      replace(message, status('The two passwords differ.', 'error'));
      return;
    }
    try {
      const user = await post<{ email: string }>('/api/welcome', { token, password: password.value });
      history.replaceState(null, '', location.pathname);
      replace(message, status(`Password set for ${user.email}. You can sign in now.`));
      setTimeout(() => location.reload(), 800);
    } catch (error) {
      replace(message, status(explain(error), 'error'));
    }
  });
  replace(app, h('main', { id: 'main' }, form));
}

/** Starts a page app: welcome, sign-in, or the signed-in frame with its pages. */
export async function start(appName: string, pages: PageDef[], extraHeader?: (s: Session) => Node[]) {
  const app = document.getElementById('app') as HTMLElement;
  const welcome = /^#\/(welcome|reset)\/([\w-]+)$/.exec(location.hash);
  if (welcome) return welcomeForm(app, appName, welcome[2], welcome[1] === 'reset');
  let session: Session;
  try {
    session = await get<Session>('/api/session');
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

  const render = async () => {
    const route = currentRoute();
    const page = pages.find((p) => p.path === route.path) ?? pages[0];
    document.title = `${page.title} · airgift ${appName}`;
    replace(
      nav,
      h(
        'ul',
        {},
        pages.map((p) =>
          h(
            'li',
            {},
            h('a', { href: `#${p.path}${keep(route)}`, 'aria-current': p === page ? 'page' : null }, p.title),
          ),
        ),
      ),
    );
    replace(main, h('h1', {}, page.title), h('p', {}, 'Loading…'));
    try {
      const body = h('div', {});
      await page.render(body, route, session);
      replace(main, h('h1', {}, page.title), body);
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return location.reload();
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
