/**
 * The pages' JSON client: same-origin requests under the page's base path, with the session cookie
 * (HttpOnly: the script never sees it) and, on every POST, the session's CSRF token, which lives in
 * memory only (never in localStorage).
 */
export const BASE = document.body.dataset.base ?? '';

let csrfToken: string | null = null;
export const setCsrfToken = (token: string | null) => {
  csrfToken = token;
};

export interface ErrorDetail {
  field: string;
  issue: string;
}

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
    const err = data as {
      errorCode?: string;
      message?: string;
      details?: ErrorDetail[];
    };
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

export const get = <T>(path: string, query?: Query) => call<T>('GET', path, query);
export const post = <T>(path: string, body?: unknown, query?: Query) => call<T>('POST', path, query, body);
