/**
 * The upstream module: live fulfilment by another service that speaks the same two APIs (the
 * original service, or another airgift). Its configuration per product (`upstream-service.ts`, the
 * admin routes), its HTTP client (`upstream-client.ts`: tokens, media types, TLS, timeouts, and the
 * answered / unknown / notSent classification every provider decides on), and the record of the
 * calls made per transaction (`upstream-repository.ts`, table `upstream_calls`), and the read of a
 * product's live catalogue snapshot as its upstream configured now allows (`live-catalogue.ts`).
 */

export { readLiveCatalogue } from './live-catalogue.ts';
export { upstreamAdminRoutes } from './upstream-admin-routes.ts';
export type { CallOptions, UpstreamAnswer, UpstreamClient, UpstreamTarget } from './upstream-client.ts';
export { createUpstreamClient, VENDOR_MEDIA_TYPES } from './upstream-client.ts';
export type {
  Later,
  ProcessingStep,
  ProtocolStep,
  SaveFollowed,
  UpstreamProtocol,
  UpstreamTransaction,
} from './upstream-fulfilment.ts';
export { upstreamFulfilment, upstreamTransactionOf } from './upstream-fulfilment.ts';
export { upstreamCustomIdentifier } from './upstream-identifiers.ts';
export type { Refusal } from './upstream-refusals.ts';
export { refusalOf } from './upstream-refusals.ts';
export type { UpstreamCallRow, UpstreamRepository, UpstreamRow } from './upstream-repository.ts';
export { upstreamRepository } from './upstream-repository.ts';
export type { UpstreamInput, UpstreamProblem, UpstreamService, UpstreamView } from './upstream-service.ts';
export { createUpstreamService } from './upstream-service.ts';
