/**
 * The look and the escaping shared by the hand-written pages (getting started, error codes): one
 * stylesheet served from this server (`{base}/docs/assets/pages.css`, and inline-free), system fonts.
 *
 * @example
 * inlineCode('Send `Authorization: Bearer <token>`') // 'Send <code>Authorization: Bearer &lt;token&gt;</code>'
 */
export const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Escapes a catalogue text and renders its `backticked` parts as code. */
export function inlineCode(text: string): string {
  return escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');
}

export const PAGE_CSS = `body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1b1b1f;background:#fff}
main{max-width:56rem;margin:0 auto;padding:1.5rem;overflow-wrap:break-word}
nav{background:#1b1b1f;padding:.6rem 1.5rem}nav a{color:#fff;margin-right:1.2rem}
a{color:#0b57d0}code,pre{font-family:ui-monospace,monospace;font-size:.92em}
code{background:#f1f3f4;padding:0 .25rem;border-radius:3px}
pre{background:#f1f3f4;padding:.8rem;overflow:auto;border-radius:4px}pre code{padding:0}
table{border-collapse:collapse;width:100%}td,th{padding:.4rem;border-bottom:1px solid #ccc;text-align:left;vertical-align:top}
tr:target{background:#fff4c2}h2{margin-top:2rem}.muted{color:#4d4d4d}
code{overflow-wrap:anywhere}pre code{overflow-wrap:normal}
@media (max-width:40rem){main{padding:1rem .75rem}nav{padding:.6rem .75rem}td,th{padding:.35rem .25rem}
table.codes,table.codes caption,table.codes tbody,table.codes tr,table.codes td,table.codes th{display:block}table.codes caption{text-align:left}
table.codes thead{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%)}
table.codes tr{border-bottom:1px solid #ccc;padding:.5rem 0}table.codes td,table.codes th{border:0;padding:.1rem 0}
table.codes td[data-label]::before{content:attr(data-label) ": ";font-weight:600}}`;

/** A page with the shared navigation; `root` is the base's public path ('' for the shared pages). */
export function page(title: string, body: string, links: [string, string][], css: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><link rel="icon" href="data:,"><link rel="stylesheet" href="${css}"></head>
<body><nav aria-label="Documentation">${links.map(([href, text]) => `<a href="${href}">${escapeHtml(text)}</a>`).join('')}</nav>
<main>${body}</main></body></html>`;
}
