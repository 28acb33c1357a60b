import type { Static, TSchema } from 'typebox';
import type { ErrorEnvelope } from '../../../http/error-envelope.ts';

/**
 * The pages' JSON client: same-origin requests under the page's base path, with the session cookie
 * (HttpOnly: the script never sees it) and, on every POST, the session's CSRF token, which lives in
 * memory only (never in localStorage). A call names the route's schemas as type arguments, so the
 * answer and the body have the types the server validates and answers with (types only: no schema
 * is bundled).
 *
 * @example
 * const overview = await get<typeof Overview>('/api/overview', { environment: 'live' });
 * await post<typeof Settings, typeof Settings>('/api/settings', { shapes: 'service' });
 */
export const BASE = document.body.dataset.base ?? '';

let csrfToken: string | null = null;
export const setCsrfToken = (token: string | null) => {
  csrfToken = token;
};

type Envelope = Static<typeof ErrorEnvelope>;
export type ErrorDetail = Envelope['details'][number];

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: ErrorDetail[] = [],
  ) {
    super(message);
  }
}

export type Query = Record<string, string | number | undefined | null>;

export function url(path: string, query: Query = {}): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query))
    if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const text = q.toString();
  return `${BASE}${path}${text ? `?${text}` : ''}`;
}

async function call<T>(method: string, path: string, query?: Query, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (method !== 'GET') {
    headers['content-type'] = 'application/json';
    if (csrfToken) headers['x-csrf-token'] = csrfToken;
  }
  const res = await fetch(url(path, query), {
    method,
    headers,
    body: method === 'GET' ? undefined : JSON.stringify(body ?? {}),
    credentials: 'same-origin',
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    // the envelope, or whatever a proxy in between answered
    const err = data as Partial<Envelope>;
    const detail = err.details?.length
      ? ` (${err.details.map((d) => `${d.field}: ${d.issue}`).join('; ')})`
      : '';
    throw new ApiError(
      res.status,
      err.errorCode ?? 'ERROR',
      `${err.message ?? res.statusText}${detail}`,
      err.details ?? [],
    );
  }
  return data as T;
}

/** GET `path`; `Answer` is the route's response schema. */
export const get = <Answer extends TSchema>(path: string, query?: Query) =>
  call<Static<Answer>>('GET', path, query);

/** POST `body` to `path`; `Answer` and `Body` are the route's response and body schemas. */
export const post = <Answer extends TSchema = TSchema, Body extends TSchema = TSchema>(
  path: string,
  body?: Static<Body>,
  query?: Query,
) => call<Static<Answer>>('POST', path, query, body);

/** An error as a message for a status line. */
export const explain = (error: unknown) =>
  error instanceof ApiError ? error.message : error instanceof Error ? error.message : String(error);
