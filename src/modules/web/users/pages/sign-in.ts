import type { Static } from 'typebox';
import { ApiError, explain, post, setCsrfToken } from '../../ui/api.ts';
import { field, h, replace, status } from '../../ui/dom.ts';
import type { EmailBody, Ok, SessionInfo, SignInBody, WebUser, WelcomeBody } from '../users-schemas.ts';

/**
 * The forms of a signed-out visitor, each drawn over the whole page by ui/shell.ts: sign in (and the
 * code of two-step sign-in once the password was right), ask for a password reset link, and set a
 * password from an invitation or reset link (`#/welcome/<token>`, `#/reset/<token>`).
 */

/**
 * The 6-digit code of an authenticator app, or a recovery code (`abcde-fghjk`), on sign-in and the
 * two-step sign-in page.
 */
export const codeInput = () =>
  h('input', {
    type: 'text',
    name: 'code',
    autocomplete: 'one-time-code',
    autocapitalize: 'none',
    spellcheck: 'false',
    pattern: '[0-9]{6}|[A-Za-z0-9]{5}-?[A-Za-z0-9]{5}',
    maxlength: 11,
    required: true,
  });

/**
 * `after`: what the visitor just did, when they come from setting a password: the e-mail is filled
 * in and the message says the password is set (issue 28: the form was blank).
 */
export function signInForm(
  app: HTMLElement,
  appName: string,
  done: (s: Static<typeof SessionInfo>) => void,
  after?: { email: string; notice: string },
) {
  const email = h('input', {
    type: 'email',
    name: 'email',
    autocomplete: 'username',
    required: true,
    value: after?.email,
  });
  const password = h('input', {
    type: 'password',
    name: 'password',
    autocomplete: 'current-password',
    required: true,
  });
  // asked for only once the password was right for a user with two-step sign-in on
  const code = codeInput();
  const codeField = field('Code from your authenticator app (or a recovery code)', code);
  const message = h('div', { class: 'message' }, after ? status(after.notice) : null);
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
      const session = await post<typeof SessionInfo, typeof SignInBody>('/api/sign-in', {
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
  if (after) password.focus();
}

/** Asks for a password reset link by e-mail; the same answer whether the address has an account or not. */
export function forgotForm(app: HTMLElement, appName: string) {
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
      await post<typeof Ok, typeof EmailBody>('/api/password-reset', { email: email.value });
      replace(message, status('If this address has an account, a link is on its way. Check your e-mail.'));
    } catch (error) {
      replace(message, status(explain(error), 'error'));
    }
  });
  replace(app, h('main', { id: 'main' }, form));
}

export function welcomeForm(app: HTMLElement, appName: string, token: string, reset = false) {
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
      const user = await post<typeof WebUser, typeof WelcomeBody>('/api/welcome', {
        token,
        password: password.value,
      });
      history.replaceState(null, '', location.pathname);
      // straight to the sign-in form, the e-mail filled in (a reload drew it blank)
      signInForm(app, appName, () => location.reload(), {
        email: user.email,
        notice: `Password set for ${user.email}. You can sign in now.`,
      });
    } catch (error) {
      replace(message, status(explain(error), 'error'));
    }
  });
  replace(app, h('main', { id: 'main' }, form));
}
