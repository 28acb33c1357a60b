/** The background worker: one job loop, one handler per job type. */

export { catalogueSyncJob } from './catalogue-sync-job.ts';
export { createLeases, type Leases, leaseOwner } from './lease-repository.ts';
export { BUSY_ORDERS, messageDeliveryJob } from './message-delivery-job.ts';
export { giftcardFulfilmentJob, orderStepJob, topupCompletionJob } from './order-step-job.ts';
export { requestLogRetentionJob } from './request-log-retention-job.ts';
export { webhookDeliveryJob } from './webhook-delivery-job.ts';
export { createWorker } from './worker.ts';
