import { get, post } from '../../ui/api.ts';
import type { PageDef } from '../../ui/shell.ts';
import { shapesForm } from '../../ui/widgets.ts';
import type { Settings } from '../dashboard-schemas.ts';

/** The account's own settings: which shapes its gift card answers take (docs/compatibility.md). */
export const settingsPage: PageDef = {
  path: '/settings',
  title: 'Settings',
  async render(body) {
    const current = await get<typeof Settings>('/api/settings');
    body.append(
      shapesForm(current.shapes, async (shapes) => {
        await post<typeof Settings, typeof Settings>('/api/settings', { shapes });
      }),
    );
  },
};
