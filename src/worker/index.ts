/** The background worker: one job loop, one handler per job type. */
export { giftcardFulfilmentJob } from './giftcard-fulfilment-job.ts';
export { topupCompletionJob } from './topup-completion-job.ts';
export { createWorker } from './worker.ts';
