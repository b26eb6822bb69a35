import {
  WEBHOOK_BACKOFF,
  WEBHOOK_DELIVERY_JOB_VERSION,
  webhookAttempts,
  webhookDeliveryJob,
  webhookDeliveryJobId,
  type WebhookRetryPolicy,
} from '@pfs/contracts';
import { JobQueueConfig, openJobQueue } from './job-queue';

/** The webhook delivery queue as the API's relay and redelivery route use it (the one producer). */
export interface WebhookDeliveryQueue {
  /**
   * Queues run `run` of a delivery (its id only: the worker loads the payload and the secret). The same
   * delivery and run twice is one job (BullMQ ignores an id it holds), so the relay may queue again safely.
   */
  enqueue(deliveryId: string, run: number): Promise<void>;
  close(): Promise<void>;
}

/** What the producer reads of the config: the retry policy (the worker's backoff must use the same). */
export type WebhookQueueConfig = JobQueueConfig & {
  WEBHOOK_RETRY_BASE_MS: number;
  WEBHOOK_RETRY_MAX_DELAY_MS: number;
  WEBHOOK_RETRY_WINDOW_SECONDS: number;
};

export const webhookRetryPolicyOf = (config: Omit<WebhookQueueConfig, keyof JobQueueConfig>) => ({
  baseMs: config.WEBHOOK_RETRY_BASE_MS,
  maxDelayMs: config.WEBHOOK_RETRY_MAX_DELAY_MS,
  windowMs: config.WEBHOOK_RETRY_WINDOW_SECONDS * 1000,
});

export function openWebhookDeliveryQueue(config: WebhookQueueConfig): WebhookDeliveryQueue {
  const jobs = openJobQueue(webhookDeliveryJob, config);
  const policy: WebhookRetryPolicy = webhookRetryPolicyOf(config);
  const attempts = webhookAttempts(policy);
  return {
    async enqueue(deliveryId, run) {
      await jobs.add(
        { version: WEBHOOK_DELIVERY_JOB_VERSION, deliveryId },
        {
          jobId: webhookDeliveryJobId(deliveryId, run),
          attempts,
          backoff: { type: WEBHOOK_BACKOFF },
          removeOnComplete: { age: 24 * 3600, count: 10_000 },
          removeOnFail: { age: 7 * 24 * 3600 },
        },
      );
    },
    close: () => jobs.close(),
  };
}
