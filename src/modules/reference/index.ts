/**
 * Reference data shared by both products: countries (from the versioned seed) and the FX table.
 */
export { type Countries, type Country, loadCountries, SEED_DIR } from './countries.ts';
export { GiftcardCountry, TopupCountry } from './country-schemas.ts';
export { createFx, type Fx } from './fx.ts';
export { fxAdminRoutes, fxRateView } from './fx-admin-routes.ts';
export { fxRepository } from './fx-repository.ts';
