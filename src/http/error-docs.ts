import type { ErrorCodeInfo } from '../errors/error-codes.ts';
import { inlineCode } from './page-layout.ts';

/**
 * The page every `infoLink` points to (`/docs/errors#CODE`): each error code with its status,
 * meaning and fix, rendered from the catalogue so the docs cannot disagree with what the server sends.
 * Backticked parts of the catalogue's texts are shown as code. Served on every host outside the bases,
 * with its stylesheet at `/docs/errors.css` (the CSP allows self-hosted assets only).
 */
export function errorDocsPage(codes: Record<string, ErrorCodeInfo>): string {
  const rows = Object.entries(codes)
    .map(
      ([code, info]) =>
        `<tr id="${code}"><th scope="row"><code>${code}</code></th><td data-label="status">${info.status}</td><td data-label="meaning">${inlineCode(info.message)}</td><td data-label="what to do">${inlineCode(info.fix)}</td></tr>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>airgift error codes</title><link rel="icon" href="data:,"><link rel="stylesheet" href="/docs/errors.css"></head>
<body><main><h1>Error codes</h1>
<p>Every error of the gift card and top-up APIs answers the envelope
<code>{timeStamp, message, infoLink, path, errorCode, details}</code>: <code>message</code> says what happened in
this case, <code>details</code> names each field that is wrong, and <code>infoLink</code> points at the code's row
below. The token service answers OAuth's <code>{error, error_description}</code> instead.</p>
<table class="codes"><caption>Error codes, their HTTP status, meaning and what to do</caption>
<thead><tr><th scope="col">errorCode</th><th scope="col">status</th><th scope="col">meaning</th><th scope="col">what to do</th></tr></thead>
<tbody>
${rows}
</tbody></table></main></body></html>`;
}
