import type { ErrorCodeInfo } from '../errors/error-codes.ts';

/**
 * The page every `infoLink` points to: each error code with its status, meaning and fix, rendered
 * from the catalogue so the docs cannot disagree with what the server sends.
 */
const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function errorDocsPage(codes: Record<string, ErrorCodeInfo>): string {
  const rows = Object.entries(codes)
    .map(
      ([code, info]) =>
        `<tr id="${code}"><td><code>${code}</code></td><td>${info.status}</td><td>${escapeHtml(info.message)}</td><td>${escapeHtml(info.fix)}</td></tr>`,
    )
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>airgift error codes</title>
<style>body{font:15px system-ui;margin:2rem}td,th{padding:.4rem;border-bottom:1px solid #ddd;text-align:left}</style></head>
<body><h1>Error codes</h1><p>Every error answers <code>{timeStamp, message, infoLink, path, errorCode, details}</code>.</p>
<table><tr><th>errorCode</th><th>status</th><th>meaning</th><th>what to do</th></tr>
${rows}
</table></body></html>`;
}
