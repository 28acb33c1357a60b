import type { Static } from 'typebox';
import type { AccountShapes } from '../../admin/admin-schemas.ts';
import type { Environment, Revoked } from '../web-schemas.ts';
import { explain, post } from './api.ts';
import { confirmDialog, field, h, replace, select, status } from './dom.ts';
import type { Route } from './route.ts';

/**
 * Pieces both page apps build the same way: the environment picked in the address and its select,
 * a pager, a search form, a form whose submit runs an action, and redrawing the current page.
 *
 * @example
 * body.append(searchForm('Search accounts', 'Name or id', search, (s) => go('/accounts', { search: s })));
 */
export type Env = Static<typeof Environment>;

let opening: Env = 'live';
/** The environment pages show when the address names none (the shell asks `/api/opening` once). */
export const setOpeningEnvironment = (env: Env) => {
  opening = env;
};

/** The page's environment: `?environment=`, else the one the app opened on (where the data is). */
export const envOf = (route: Route): Env => {
  const named = route.query.get('environment');
  return named === 'sandbox' || named === 'live' ? named : opening;
};

/** A transaction page's product: `?product=topups`, else gift cards (their links name it). */
export const productOf = (route: Route): 'giftcards' | 'topups' =>
  route.query.get('product') === 'topups' ? 'topups' : 'giftcards';

/** The number of a paged list's page: `?page=`, 1 when absent or not a number. */
export const pageNumber = (route: Route): number => Number(route.query.get('page') ?? '1') || 1;

/** A select of the two environments. */
export const environmentSelect = (value?: string) =>
  select<Env>(
    'environment',
    [
      ['live', 'Live'],
      ['sandbox', 'Sandbox'],
    ],
    value,
  );

/** Draws the current page again (its data read anew). */
export const rerender = () => dispatchEvent(new HashChangeEvent('hashchange'));

/** Previous / next buttons around the page number; `to(p)` goes to page p. */
export function pager(page: number, hasMore: boolean, to: (page: number) => void): HTMLElement {
  return h(
    'div',
    { class: 'pager' },
    h('button', { type: 'button', disabled: page <= 1, onclick: () => to(page - 1) }, 'Previous page'),
    h('span', {}, `Page ${page}`),
    h('button', { type: 'button', disabled: !hasMore, onclick: () => to(page + 1) }, 'Next page'),
  );
}

/** A search form (role search) with one box; submitting calls `onSearch` with its text. */
export function searchForm(
  name: string,
  label: string,
  value: string,
  onSearch: (text: string) => void,
): HTMLFormElement {
  const box = h('input', { type: 'search', name: 'search', value });
  const form = h(
    'form',
    { class: 'filters', role: 'search', 'aria-label': name },
    field(label, box),
    h('button', { type: 'submit', class: 'primary' }, 'Search'),
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    onSearch(box.value);
  });
  return form;
}

/** A form whose submit runs `action` and shows its answer or error in the form. */
export function actionForm(
  title: string,
  fields: HTMLElement[],
  label: string,
  action: () => Promise<string>,
): HTMLFormElement {
  const message = h('div', { class: 'message' });
  const id = `t-${title.replace(/\W+/g, '-').toLowerCase()}`;
  const form = h(
    'form',
    { class: 'card', 'aria-labelledby': id },
    h('h2', { id }, title),
    ...fields,
    h('button', { type: 'submit', class: 'primary' }, label),
    message,
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    try {
      replace(message, status(await action()));
    } catch (error) {
      replace(message, status(explain(error), 'error'));
    }
  });
  return form;
}

/**
 * A credential's state in a table (both apps): "revoked", or a Revoke button that asks `question`
 * first, then revokes it (`/api/credentials/{clientId}/revoke`) and redraws the page. A refusal goes
 * to `onError` when given.
 */
export function revokeCell(
  credential: { clientId: string; revoked: boolean },
  question: string,
  onError?: (error: unknown) => void,
): HTMLElement {
  if (credential.revoked) return h('span', { class: 'badge revoked' }, 'revoked');
  return h(
    'button',
    {
      type: 'button',
      class: 'small danger',
      'aria-label': `Revoke ${credential.clientId}`,
      onclick: async () => {
        if (!(await confirmDialog(question, 'Revoke'))) return;
        try {
          await post<typeof Revoked>(`/api/credentials/${encodeURIComponent(credential.clientId)}/revoke`);
          rerender();
        } catch (error) {
          if (!onError) throw error;
          onError(error);
        }
      },
    },
    'Revoke',
  );
}

/**
 * Which shapes an account's gift card answers take (docs/compatibility.md): the console's account
 * page and the dashboard's settings change it with the same form; `save` posts the choice.
 */
export function shapesForm(
  current: string,
  save: (shapes: Static<typeof AccountShapes>) => Promise<void>,
): HTMLFormElement {
  const picker = select<Static<typeof AccountShapes>>(
    'shapes',
    [
      ['documented', "Documented: the API reference's shapes"],
      ['service', "Service: the original service's shapes, for its official SDKs"],
    ],
    current,
  );
  return actionForm(
    'Gift card API shapes',
    [
      field('Shapes', picker),
      h(
        'p',
        { class: 'muted' },
        'Service: GET /products, /discounts and /reports/transactions answer a paged wrapper, ' +
          'fixedRecipientToSenderDenominationsMap is one object and an error timeStamp is text. ' +
          'Both environments and every credential; top-ups are the same either way.',
      ),
    ],
    'Save shapes',
    async () => {
      await save(picker.value);
      return `Saved: the ${picker.value} shapes.`;
    },
  );
}

/**
 * What an empty table says when filters are set: that nothing matches them ("No transaction in
 * live matches these filters.", not "Nothing yet."),
 * with a button that clears them (`clear` goes to the unfiltered page).
 */
export function noMatch(message: string, clear: () => void): HTMLElement[] {
  return [
    h('span', {}, `${message} `),
    h('button', { type: 'button', class: 'small', onclick: clear }, 'Clear filters'),
  ];
}
