import { explain, get, post } from '../../ui/api.ts';
import { field, h, replace, status } from '../../ui/dom.ts';
import type { PageDef } from '../../ui/shell.ts';
import type { Branding } from '../dashboard-schemas.ts';

/**
 * The account's branding of its gift cards' messages and redeem page (display name, logo, colour,
 * footer, codes in the e-mail), with a preview drawn as the recipient sees it.
 */
export const brandingPage: PageDef = {
  path: '/branding',
  title: 'Branding',
  async render(body) {
    const b = await get<typeof Branding>('/api/branding');
    const name = h('input', {
      type: 'text',
      name: 'displayName',
      maxlength: '100',
      value: b.displayName ?? '',
    });
    const logo = h('input', { type: 'url', name: 'logoUrl', maxlength: '500', value: b.logoUrl ?? '' });
    const color = h('input', { type: 'color', name: 'color', value: b.color ?? '#1d4ed8' });
    const footer = h('input', { type: 'text', name: 'footer', maxlength: '200', value: b.footer ?? '' });
    const inline = h('input', { type: 'checkbox', name: 'codeInEmail' });
    inline.checked = b.codeInEmail;
    const message = h('div', { 'aria-live': 'polite' });
    // the preview: what a recipient sees, coloured through the CSSOM (the page's CSP allows no inline style)
    const bar = h('div', { class: 'preview-bar' });
    const foot = h('p', { class: 'preview-foot' });
    const preview = h(
      'section',
      { class: 'preview', 'aria-labelledby': 'preview-title' },
      h('h2', { id: 'preview-title' }, 'Preview'),
      h(
        'div',
        { class: 'preview-mail' },
        bar,
        h(
          'div',
          { class: 'preview-body' },
          h('h3', {}, 'You have a gift card'),
          h('p', {}, 'Ada sent you a 25.00 USD Amazon gift card.'),
        ),
        foot,
      ),
    );
    const button = h('span', { class: 'preview-button' }, 'Open your gift card');
    preview.querySelector('.preview-body')?.append(button);
    const update = () => {
      const shown = name.value.trim() || 'Your account name';
      bar.textContent = shown;
      bar.style.background = color.value;
      button.style.background = color.value;
      foot.textContent = footer.value.trim() ? `${shown} · ${footer.value.trim()}` : shown;
    };
    for (const input of [name, color, footer]) input.addEventListener('input', update);
    update();
    const form = h(
      'form',
      { class: 'branding-form', 'aria-label': 'Branding' },
      field('Display name (the sender of your recipients’ e-mails)', name),
      field('Logo URL (https)', logo),
      field('Colour', color),
      field('Footer line', footer),
      h(
        'div',
        { class: 'field' },
        h('label', {}, inline, ' Put the codes in the e-mail (off: the link only)'),
      ),
      h('button', { type: 'submit', class: 'primary' }, 'Save'),
    );
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      try {
        await post<typeof Branding, typeof Branding>('/api/branding', {
          displayName: name.value || null,
          logoUrl: logo.value || null,
          color: color.value || null,
          footer: footer.value || null,
          codeInEmail: inline.checked,
        });
        replace(message, status('Saved.'));
      } catch (error) {
        replace(message, status(explain(error), 'error'));
      }
    });
    body.append(
      h('p', {}, "How your gift cards' e-mails and the redeem page look to their recipients."),
      form,
      message,
      preview,
    );
  },
};
