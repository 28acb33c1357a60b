import { createHash } from 'node:crypto';
import { DEFAULT_BRAND, escapeHtml } from '../../messaging/index.ts';
import { article, brandOf, faceValue } from './recipient-messages.ts';
import type { RedeemProblem, RedeemState } from './redeem-service.ts';

/**
 * The redeem page's HTML: one document, no script, one style element allowed by its hash in the
 * Content-Security-Policy (`style-src 'sha256-…'`, nothing inline besides), forms that POST to the
 * page itself, readable at 390 px. Every piece of text is HTML-escaped.
 */
export interface Page {
  status: number;
  html: string;
  csp: string;
}

const PROBLEMS: Record<RedeemProblem, string> = {
  'form-expired': 'This page was open for more than an hour. Try again now.',
  'code-needed': 'We texted you a code. Enter it to see your gift card.',
  'code-wrong': 'That code is not right.',
  'code-locked': 'That code cannot be used any more. Ask for a new one.',
  'too-many-codes': 'Too many codes were sent for this gift card. Try again in an hour.',
  'no-phone': 'This gift card needs no code.',
};

/** Black or white, whichever reads better on the brand colour (WCAG contrast). */
function textOn(color: string): string {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = Number.parseInt(color.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  const l = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return 1.05 / (l + 0.05) >= (l + 0.05) / 0.05 ? '#ffffff' : '#000000';
}

function css(color: string): string {
  return `*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,Segoe UI,Roboto,Arial,sans-serif;background:#f4f4f5;color:#111}
header{background:${color};color:${textOn(color)};padding:12px 16px;font-weight:700;display:flex;align-items:center;gap:8px}
header img{height:28px;width:auto}
main{max-width:560px;margin:16px auto;padding:20px 16px;background:#fff;border-radius:8px}
h1{font-size:1.5rem;margin:0 0 12px}
.card{display:flex;gap:12px;align-items:center;margin:0 0 16px}.card img{width:96px;height:auto;border-radius:6px}
dl{display:grid;grid-template-columns:max-content 1fr;gap:4px 12px;margin:0 0 16px}dt{color:#444}dd{margin:0;font-weight:600;word-break:break-all}
form{margin:16px 0}label{display:block;margin:0 0 4px;font-weight:600}
input{font:inherit;font-size:1.25rem;letter-spacing:.2em;padding:8px;width:100%;max-width:12em;border:2px solid #555;border-radius:6px}
button{font:inherit;margin-top:8px;padding:12px 20px;border:0;border-radius:6px;background:${color};color:${textOn(color)};cursor:pointer;min-height:44px}
button.secondary{background:#e4e4e7;color:#111}
.alert{padding:12px;border-radius:6px;background:#fef3c7;border:1px solid #92400e;color:#111;margin:0 0 16px}
.codes{background:#ecfdf5;border:1px solid #065f46;border-radius:6px;padding:12px;margin:0 0 16px}
.code{font:600 1.25rem/1.4 ui-monospace,Menlo,Consolas,monospace;word-break:break-all}
footer{max-width:560px;margin:0 auto 24px;padding:0 16px;font-size:.875rem;color:#444}`;
}

function document(title: string, color: string, header: string, body: string, footer: string): Page {
  const style = css(color);
  const hash = createHash('sha256').update(style).digest('base64');
  const html = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style>${style}</style></head>
<body><header>${header}</header><main>${body}</main><footer>${footer}</footer></body></html>
`;
  return {
    status: 200,
    html,
    csp: `default-src 'none'; style-src 'sha256-${hash}'; img-src https:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
  };
}

const safeImg = (u: string | null) => (u && /^https:\/\/[^\s"'<>]+$/.test(u) ? u : null);

export function redeemPage(
  s: RedeemState,
  view: {
    action: string;
    problem?: RedeemProblem;
    triesLeft?: number;
    codes?: { cardNumber: string; pinCode: string }[];
  },
): Page {
  const brand = brandOf(s.order);
  const o = s.order;
  const logo = safeImg(brand.logoUrl);
  const productLogo = safeImg(o.productLogoUrl);
  const e = escapeHtml;
  const parts: string[] = [];
  parts.push(`<h1>A gift card for you</h1>`);
  parts.push(
    `<div class="card">${productLogo ? `<img src="${e(productLogo)}" alt="${e(o.brandName)} logo">` : ''}<p>${e(o.senderName)} sent you ${article(faceValue(o))} ${e(faceValue(o))} ${e(o.brandName)} gift card.</p></div>`,
  );
  parts.push(
    `<dl><dt>From</dt><dd>${e(o.senderName)}</dd><dt>Brand</dt><dd>${e(o.brandName)}</dd><dt>Product</dt><dd>${e(o.productName)}</dd><dt>Value</dt><dd>${e(faceValue(o))}</dd></dl>`,
  );
  if (view.problem) {
    const extra =
      view.problem === 'code-wrong' && view.triesLeft !== undefined ? ` ${view.triesLeft} tries left.` : '';
    parts.push(`<p class="alert" role="alert">${e(PROBLEMS[view.problem] + extra)}</p>`);
  }
  const token = `<input type="hidden" name="form" value="${e(s.formToken)}">`;
  if (view.codes) {
    parts.push(
      `<section class="codes" aria-labelledby="codes-title"><h2 id="codes-title">Your code${view.codes.length > 1 ? 's' : ''}</h2>${view.codes
        .map(
          (c) =>
            `<p><span class="code">${e(c.cardNumber)}</span>${c.pinCode ? `<br>PIN: <span class="code">${e(c.pinCode)}</span>` : ''}</p>`,
        )
        .join('')}</section>`,
    );
    const how = o.redeemVerbose ?? o.redeemConcise;
    if (how) parts.push(`<h2>How to redeem</h2><p>${e(how)}</p>`);
    parts.push(`<p>This view of your code was recorded. Keep the code to yourself.</p>`);
  } else if (s.phoneEnding) {
    if (s.codeSent) {
      parts.push(
        `<form method="post" action="${e(view.action)}">${token}<label for="sms-code">Code we texted to the number ending ${e(s.phoneEnding)}</label><input id="sms-code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" required><br><button type="submit">Show my gift card code</button></form>`,
      );
      parts.push(
        `<form method="post" action="${e(view.action)}/code">${token}<button type="submit" class="secondary">Text me a new code</button></form>`,
      );
    } else {
      parts.push(
        `<p>To keep your gift card safe, we text a 6-digit code to the number ending ${e(s.phoneEnding)}.</p><form method="post" action="${e(view.action)}/code">${token}<button type="submit">Text me a code</button></form>`,
      );
    }
  } else {
    parts.push(
      `<form method="post" action="${e(view.action)}">${token}<p>The code is shown when you ask for it, and the view is recorded.</p><button type="submit">Show my gift card code</button></form>`,
    );
  }
  parts.push(`<p>This link works until ${e(s.linkExpires.toISOString().slice(0, 10))}.</p>`);
  const header = `${logo ? `<img src="${e(logo)}" alt="">` : ''}<span>${e(brand.name)}</span>`;
  return document(
    `${o.brandName} gift card from ${o.senderName}`,
    brand.color,
    header,
    parts.join('\n'),
    e(brand.footer ?? `Sent with ${brand.name}`),
  );
}

/** The answer to a link that does not open a card (unknown, replaced, expired, refunded). */
export function deadLinkPage(): Page {
  const page = document(
    'Link not valid',
    DEFAULT_BRAND.color,
    '<span>Gift card</span>',
    '<h1>This link does not open a gift card</h1><p>It may have expired or been replaced by a newer one. Ask the sender to send it again.</p>',
    '',
  );
  return { ...page, status: 404 };
}
