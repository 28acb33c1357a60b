/**
 * The web module: the account dashboard and the operator console (issue 10), server and browser
 * side, one folder per concern (README.md): `dashboard/` and `console/` (JSON routes, schemas,
 * service, repository, and `pages/`, the browser code), `users/` (users, sessions, sign-in, two-step
 * sign-in, the admin API's routes for them; changes go to modules/audit through each page's audit
 * hook), `ui/` (the browser code both pages
 * share) and the files here that serve a page (web-pages.ts, web-assets.ts).
 */
export { rolesWith } from './permissions.ts';
export { usersAdminRoutes } from './users/users-admin-routes.ts';
export { webPages } from './web-pages.ts';
export { createWebServices, type WebDeps, type WebServices } from './web-services.ts';
