import { explain, get, post } from '../../ui/api.ts';
import { field, h, replace, status, table } from '../../ui/dom.ts';
import type { PageDef } from '../../ui/shell.ts';
import { environmentSelect, envOf, rerender, revokeCell } from '../../ui/widgets.ts';
import type { CreateCredentialBody, CreatedCredential, CredentialList } from '../dashboard-schemas.ts';

/** The account's API credentials: list, create (the secret shown once), revoke. */
export const credentialsPage: PageDef = {
  path: '/credentials',
  title: 'API credentials',
  async render(body, route) {
    const env = envOf(route);
    const list = await get<typeof CredentialList>('/api/credentials');
    const message = h('div', { class: 'message' });
    const boxes = list.scopes.map((s) =>
      h('input', { type: 'checkbox', name: 'scope', value: s, checked: true, id: `scope-${s}` }),
    );
    const envSelect = environmentSelect(env);
    const form = h(
      'form',
      { class: 'card', 'aria-labelledby': 'new-cred' },
      h('h2', { id: 'new-cred' }, 'Create a credential'),
      field('Environment', envSelect),
      h(
        'fieldset',
        {},
        h('legend', {}, 'Scopes'),
        ...list.scopes.map((s, i) =>
          h('div', { class: 'check' }, boxes[i], h('label', { for: `scope-${s}` }, s)),
        ),
      ),
      h('button', { type: 'submit', class: 'primary' }, 'Create credential'),
      message,
    );
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      try {
        const made = await post<typeof CreatedCredential, typeof CreateCredentialBody>('/api/credentials', {
          environment: envSelect.value,
          scopes: boxes.filter((b) => b.checked).map((b) => b.value),
        });
        const copy = h(
          'button',
          {
            type: 'button',
            class: 'small',
            onclick: async () => {
              await navigator.clipboard.writeText(made.clientSecret).catch(() => undefined);
              copy.textContent = 'Copied';
            },
          },
          'Copy secret',
        );
        replace(
          message,
          h(
            'div',
            { class: 'secret', role: 'status' },
            h('p', {}, h('strong', {}, 'Copy the secret now: it is shown only once.')),
            h('p', {}, 'client_id ', h('code', { 'data-testid': 'new-client-id' }, made.clientId)),
            h(
              'p',
              {},
              'client_secret ',
              h('code', { 'data-testid': 'new-client-secret' }, made.clientSecret),
              ' ',
              copy,
            ),
            h(
              'button',
              {
                type: 'button',
                class: 'small',
                onclick: () => rerender(),
              },
              'Done',
            ),
          ),
        );
      } catch (error) {
        replace(message, status(explain(error), 'error'));
      }
    });
    const rows = list.items.map((c) => [
      h('code', {}, c.clientId),
      c.environment,
      c.scopes.join(' '),
      c.createdAt,
      c.lastUsedAt ?? 'never',
      revokeCell(c, `Revoke ${c.clientId}? Its tokens stop working at once.`, (error) =>
        replace(message, status(explain(error), 'error')),
      ),
    ]);
    body.append(
      table(
        'Credentials of both environments',
        ['client_id', 'Environment', 'Scopes', 'Created (UTC)', 'Last used (UTC)', 'State'],
        rows,
      ),
      form,
    );
  },
};
