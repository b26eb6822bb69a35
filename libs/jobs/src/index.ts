export { openJobQueue } from './job-queue';
export type { JobQueue, JobQueueConfig } from './job-queue';
export { openExportJobQueue, SWEEP_RUN } from './export-job-queue';
export type { ExportJobQueue, ExportRunJob } from './export-job-queue';
export { openWebhookDeliveryQueue, webhookRetryPolicyOf } from './webhook-delivery-queue';
export type { WebhookDeliveryQueue, WebhookQueueConfig } from './webhook-delivery-queue';
export { openAccountDeletionQueue } from './account-deletion-queue';
export type { AccountDeletionQueue } from './account-deletion-queue';
