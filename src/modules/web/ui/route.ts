/**
 * The page's address as the hash router reads it (`#/<path>?<query>`, shell.ts). A file of its own
 * so that the widgets that read it (widgets.ts, request-log.ts) need not import the shell, which
 * imports them.
 */
export interface Route {
  path: string;
  query: URLSearchParams;
}
