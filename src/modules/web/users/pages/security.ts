import { encode } from 'uqr';
import { get, post } from '../../ui/api.ts';
import { field, h, replace } from '../../ui/dom.ts';
import type { PageDef } from '../../ui/shell.ts';
import { actionForm, rerender } from '../../ui/widgets.ts';
import type { CodeBody, SessionInfo, TotpEnrolment, TotpState } from '../users-schemas.ts';
import { codeInput } from './sign-in.ts';

/**
 * The signed-in user's two-step sign-in (TOTP), the same page in the dashboard and the console:
 * turn it on (the secret as an otpauth:// URI, its QR code and the base32 text), confirm with a code
 * of the authenticator app, turn it off with a code. The secret is shown only during enrolment; the
 * 10 recovery codes only when it is turned on (or a new set is made): each works once in place of a
 * code, and the page says how many are left.
 */
const NS = 'http://www.w3.org/2000/svg';

/** The QR code of `text` as one SVG path (uqr, pure JavaScript; no markup from text). */
function qrCode(text: string, label: string): SVGSVGElement {
  const qr = encode(text, { ecc: 'M', border: 2 });
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', `0 0 ${qr.size} ${qr.size}`);
  svg.setAttribute('width', String(qr.size * 5));
  svg.setAttribute('height', String(qr.size * 5));
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', label);
  svg.setAttribute('class', 'qr');
  const background = document.createElementNS(NS, 'rect');
  background.setAttribute('width', String(qr.size));
  background.setAttribute('height', String(qr.size));
  background.setAttribute('fill', '#fff');
  const path = document.createElementNS(NS, 'path');
  let d = '';
  qr.data.forEach((row, y) => {
    row.forEach((dark, x) => {
      if (dark) d += `M${x} ${y}h1v1h-1z`;
    });
  });
  path.setAttribute('d', d);
  path.setAttribute('fill', '#000');
  svg.append(background, path);
  return svg;
}

/** The recovery codes, shown this once, with a button that copies them. */
function recoveryCodes(codes: string[]): HTMLElement {
  const copy = h(
    'button',
    {
      type: 'button',
      class: 'small',
      onclick: async () => {
        await navigator.clipboard.writeText(codes.join('\n')).catch(() => undefined);
        copy.textContent = 'Copied';
      },
    },
    'Copy the codes',
  );
  return h(
    'section',
    { class: 'secret', 'aria-labelledby': 'recovery-title', 'data-testid': 'recovery-codes' },
    h('h2', { id: 'recovery-title' }, 'Your recovery codes'),
    h(
      'p',
      {},
      h('strong', {}, 'Keep them somewhere safe now: they are shown only once.'),
      ' Each works once in place of a code when your authenticator app is not at hand.',
    ),
    h(
      'ul',
      { class: 'codes' },
      codes.map((c) => h('li', {}, h('code', {}, c))),
    ),
    h(
      'p',
      {},
      copy,
      ' ',
      h('button', { type: 'button', class: 'small', onclick: () => rerender() }, 'I have kept them'),
    ),
  );
}

export const securityPage: PageDef = {
  path: '/security',
  title: 'Two-step sign-in',
  async render(body) {
    const session = await get<typeof SessionInfo>('/api/session');
    if (session.totpEnabled) {
      const code = codeInput();
      const again = codeInput();
      const shown = h('div', {});
      body.append(
        h('p', { 'data-testid': 'totp-state' }, 'Two-step sign-in is on: signing in asks for a code.'),
        h(
          'p',
          { 'data-testid': 'recovery-left' },
          `${session.recoveryCodesLeft} of 10 recovery codes left.`,
          session.recoveryCodesLeft < 3 ? ' Make a new set before they run out.' : '',
        ),
        shown,
        actionForm(
          'New recovery codes',
          [
            h('p', { class: 'muted' }, 'A new set of 10; the codes you have now stop working.'),
            field('Code', again),
          ],
          'Make new codes',
          async () => {
            const made = await post<typeof TotpState, typeof CodeBody>('/api/totp/recovery-codes', {
              code: again.value,
            });
            replace(shown, recoveryCodes(made.recoveryCodes ?? []));
            return 'New recovery codes made: the older ones no longer work.';
          },
        ),
        actionForm('Turn two-step sign-in off', [field('Code', code)], 'Turn off', async () => {
          await post<typeof TotpState, typeof CodeBody>('/api/totp/disable', { code: code.value });
          setTimeout(rerender, 600);
          return 'Two-step sign-in is off.';
        }),
      );
      return;
    }
    const enrolment = h('div', {});
    body.append(
      h(
        'p',
        { 'data-testid': 'totp-state' },
        'Two-step sign-in is off. When on, signing in also asks for a 6-digit code from an ',
        'authenticator app (RFC 6238 TOTP: SHA-1, 30 seconds).',
      ),
      h(
        'button',
        {
          type: 'button',
          class: 'primary',
          onclick: async (event: Event) => {
            (event.currentTarget as HTMLButtonElement).remove();
            const made = await post<typeof TotpEnrolment>('/api/totp/enrol');
            const code = codeInput();
            enrolment.append(
              h(
                'section',
                { class: 'card', 'aria-labelledby': 'totp-add' },
                h('h2', { id: 'totp-add' }, 'Add airgift to your authenticator app'),
                qrCode(made.uri, 'QR code of the otpauth URI below'),
                h('p', {}, 'Or type this secret: ', h('code', { 'data-testid': 'totp-secret' }, made.secret)),
                h('p', {}, 'otpauth URI: ', h('code', { 'data-testid': 'totp-uri' }, made.uri)),
              ),
              actionForm('Confirm with a code', [field('Code', code)], 'Turn on', async () => {
                const on = await post<typeof TotpState, typeof CodeBody>('/api/totp/confirm', {
                  code: code.value,
                });
                replace(enrolment, recoveryCodes(on.recoveryCodes ?? []));
                return 'Two-step sign-in is on.';
              }),
            );
          },
        },
        'Turn on two-step sign-in',
      ),
      enrolment,
    );
  },
};
