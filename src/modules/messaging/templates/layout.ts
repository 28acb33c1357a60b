/**
 * The one layout of every e-mail airgift sends (a gift card to its recipient, an invitation, a
 * password reset, a low balance): a text part and an HTML part made from the same content, every piece
 * of text HTML-escaped, styles inline (mail clients drop style sheets), no script, no remote content
 * but the brand's logo (an https URL only).
 *
 * @example
 * const { subject, text, html } = renderEmail(brand, {
 *   subject: 'Your invitation', heading: 'Welcome', paragraphs: ['Set your password:'],
 *   button: { label: 'Set password', url },
 * });
 */
export interface Brand {
  /** Shown as the sender's name and at the top. */
  name: string;
  /** #rrggbb, the heading bar and the button. */
  color: string;
  logoUrl: string | null;
  footer: string | null;
}

export interface EmailContent {
  subject: string;
  heading: string;
  paragraphs: string[];
  /** Label / value lines (brand, product, value, ...). */
  facts?: [string, string][];
  button?: { label: string; url: string };
  /** Text set apart after the button (instructions, an inline code). */
  notes?: string[];
}

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

export const DEFAULT_BRAND: Brand = { name: 'airgift', color: '#1d4ed8', logoUrl: null, footer: null };

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text made safe for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

const safeColor = (c: string) => (/^#[0-9a-fA-F]{6}$/.test(c) ? c : DEFAULT_BRAND.color);
const safeUrl = (u: string | null) => (u && /^https:\/\/[^\s"'<>]+$/.test(u) ? u : null);

export function renderEmail(brand: Brand, content: EmailContent): RenderedEmail {
  const text = [
    content.heading,
    '',
    ...content.paragraphs.flatMap((p) => [p, '']),
    ...(content.facts?.length ? [...content.facts.map(([k, v]) => `${k}: ${v}`), ''] : []),
    ...(content.button ? [`${content.button.label}: ${content.button.url}`, ''] : []),
    ...(content.notes ?? []).flatMap((n) => [n, '']),
    '--',
    brand.footer ? `${brand.name} · ${brand.footer}` : brand.name,
  ].join('\n');

  const color = safeColor(brand.color);
  const logo = safeUrl(brand.logoUrl);
  const p = (t: string) => `<p style="margin:0 0 16px;line-height:1.5">${escapeHtml(t)}</p>`;
  const facts = content.facts?.length
    ? `<table role="presentation" style="border-collapse:collapse;margin:0 0 16px">${content.facts
        .map(
          ([k, v]) =>
            `<tr><td style="padding:4px 16px 4px 0;color:#555">${escapeHtml(k)}</td><td style="padding:4px 0;font-weight:bold">${escapeHtml(v)}</td></tr>`,
        )
        .join('')}</table>`
    : '';
  const button = content.button
    ? `<p style="margin:24px 0"><a href="${escapeHtml(content.button.url)}" style="background:${color};color:#fff;padding:12px 20px;border-radius:6px;text-decoration:none;display:inline-block">${escapeHtml(content.button.label)}</a></p><p style="margin:0 0 16px;font-size:13px;color:#555;word-break:break-all">${escapeHtml(content.button.url)}</p>`
    : '';
  const html = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(content.subject)}</title></head>
<body style="margin:0;background:#f4f4f5;font-family:Arial,Helvetica,sans-serif;color:#111">
<table role="presentation" width="100%" style="border-collapse:collapse"><tr><td align="center" style="padding:24px 12px">
<table role="presentation" style="border-collapse:collapse;max-width:560px;width:100%;background:#fff;border-radius:8px">
<tr><td style="background:${color};color:#fff;padding:16px 24px;border-radius:8px 8px 0 0;font-size:18px;font-weight:bold">${logo ? `<img src="${escapeHtml(logo)}" alt="" height="32" style="vertical-align:middle;margin-right:8px">` : ''}${escapeHtml(brand.name)}</td></tr>
<tr><td style="padding:24px">
<h1 style="font-size:22px;margin:0 0 16px">${escapeHtml(content.heading)}</h1>
${content.paragraphs.map(p).join('\n')}
${facts}${button}${(content.notes ?? []).map(p).join('\n')}
</td></tr>
<tr><td style="padding:16px 24px;border-top:1px solid #e4e4e7;font-size:12px;color:#555">${escapeHtml(brand.footer ? `${brand.name} · ${brand.footer}` : brand.name)}</td></tr>
</table></td></tr></table>
</body></html>
`;
  return { subject: content.subject, text, html };
}
