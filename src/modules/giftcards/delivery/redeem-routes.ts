import type { FastifyInstance, FastifyReply } from 'fastify';
import { deadLinkPage, type Page, redeemPage } from './redeem-page.ts';
import type { RedeemService } from './redeem-service.ts';

/**
 * The redeem page, `/r/{token}` on every host the server answers (mounted beside the probes):
 * GET shows the card without its code, `POST /r/{token}` reveals it (with the one-time code when the
 * order has a phone), `POST /r/{token}/code` texts a one-time code. Plain HTML forms: no JavaScript,
 * no cookies; the form token in each form proves the POST comes from a page served for this link.
 */
const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';

function send(reply: FastifyReply, page: Page) {
  return reply
    .code(page.status)
    .type('text/html; charset=utf-8')
    .header('Content-Security-Policy', page.csp)
    .header('Cache-Control', 'no-store')
    .header('Referrer-Policy', 'no-referrer')
    .header('X-Robots-Tag', 'noindex')
    .send(page.html);
}

type Form = Record<string, string | undefined>;

export function redeemRoutes(app: FastifyInstance, redeem: RedeemService) {
  app.addContentTypeParser(FORM_CONTENT_TYPE, { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
  const action = (token: string) => `/r/${encodeURIComponent(token)}`;

  app.get<{ Params: { token: string } }>('/:token', async (request, reply) => {
    const state = await redeem.state(request.params.token);
    return send(reply, state ? redeemPage(state, { action: action(request.params.token) }) : deadLinkPage());
  });

  app.post<{ Params: { token: string }; Body: Form }>('/:token', async (request, reply) => {
    const { token } = request.params;
    const body = (request.body ?? {}) as Form;
    const result = await redeem.reveal(token, body.form, body.code, request.ip ?? null);
    if (!result) return send(reply, deadLinkPage());
    if (result.ok)
      return send(reply, redeemPage(result.state, { action: action(token), codes: result.codes }));
    const page = redeemPage(result.state, {
      action: action(token),
      problem: result.problem,
      triesLeft: result.triesLeft,
    });
    return send(reply, {
      ...page,
      status: result.problem === 'form-expired' ? 403 : result.problem === 'code-needed' ? 200 : 422,
    });
  });

  app.post<{ Params: { token: string }; Body: Form }>('/:token/code', async (request, reply) => {
    const { token } = request.params;
    const body = (request.body ?? {}) as Form;
    const result = await redeem.sendCode(token, body.form, request.ip ?? null);
    if (!result) return send(reply, deadLinkPage());
    if (result.ok) return send(reply, redeemPage(result.state, { action: action(token) }));
    const page = redeemPage(result.state, { action: action(token), problem: result.problem });
    const status = result.problem === 'too-many-codes' ? 429 : result.problem === 'form-expired' ? 403 : 200;
    return send(reply, { ...page, status });
  });
}
