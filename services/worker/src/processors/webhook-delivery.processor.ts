import { webhookDeliveryJob } from '@pfs/contracts';
import { Job, UnrecoverableError } from 'bullmq';
import type { DeliveryOutcome } from '../webhooks/deliver-webhook.use-case';

/** The work of one webhook delivery job: the delivery's id and whether BullMQ will retry a failure. */
export type WebhookDeliveryHandler = (
  deliveryId: string,
  isFinalAttempt: boolean,
) => Promise<DeliveryOutcome>;

/**
 * The processor of the webhook delivery queue: checks the job against its contract (a job that breaks it
 * fails without retries), then runs one attempt. A failed attempt throws, so BullMQ retries it with the
 * webhook backoff until the job's attempts are used up (the last one records the delivery as failed).
 */
export function createWebhookDeliveryProcessor(handle: WebhookDeliveryHandler) {
  return async (job: Job): Promise<DeliveryOutcome> => {
    if (job.name !== webhookDeliveryJob.name) throw new UnrecoverableError(`unknown job name ${job.name}`);
    const parsed = webhookDeliveryJob.schema.safeParse(job.data);
    if (!parsed.success) {
      throw new UnrecoverableError(`invalid ${webhookDeliveryJob.name} payload: ${parsed.error.message}`);
    }
    const isFinalAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    return handle(parsed.data.deliveryId, isFinalAttempt);
  };
}
