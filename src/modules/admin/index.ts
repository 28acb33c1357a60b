/** The admin module: the operator's API under the admin base, behind the admin key. */

export { accountAdminRoutes } from './account-routes.ts';
export { adminKeyId, installAdminAuth } from './admin-auth.ts';
export * from './admin-schemas.ts';
