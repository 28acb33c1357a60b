import { get } from '../../ui/api.ts';
import { h, table } from '../../ui/dom.ts';
import type { PageDef } from '../../ui/shell.ts';
import type { DocLinks } from '../dashboard-schemas.ts';

/** Links to the API references and error codes, and what each sandbox test value does. */
export const docsPage: PageDef = {
  path: '/docs',
  title: 'Docs',
  async render(body) {
    const d = await get<typeof DocLinks>('/api/docs');
    body.append(
      h(
        'section',
        { 'aria-labelledby': 'ref' },
        h('h2', { id: 'ref' }, 'API reference'),
        h(
          'ul',
          {},
          d.bases.map((b) =>
            h(
              'li',
              {},
              h('a', { href: b.docs }, `${b.title} reference`),
              ' — base URL ',
              h('code', {}, b.url),
            ),
          ),
          h('li', {}, h('a', { href: d.errors }, 'Error codes')),
        ),
      ),
      h(
        'section',
        { 'aria-labelledby': 'tv' },
        h('h2', { id: 'tv' }, 'Sandbox test values'),
        table(
          'What each sandbox test value does',
          ['Product', 'Value', 'Outcome'],
          d.sandboxTestValues.map((v) => [v.product, v.value, v.outcome]),
        ),
      ),
    );
  },
};
