import { z } from 'zod';
import type { JobContract } from '../job-contract';
import { RESOURCE_ID_REGEX } from '../resource-id';

/**
 * One delivery of one event to one webhook: the job carries the delivery's id only. The worker loads the
 * delivery (its stored payload), the webhook (its URL) and decrypts the signing secret itself: no secret and
 * no user data travels through Redis.
 */
export const WEBHOOK_DELIVERY_QUEUE_NAME = 'webhook-delivery';
export const WEBHOOK_DELIVERY_JOB_NAME = 'webhook.deliver';
export const WEBHOOK_DELIVERY_JOB_VERSION = 1;

export const WebhookDeliveryJobV1Schema = z.object({
  version: z.literal(1),
  deliveryId: z.string().regex(RESOURCE_ID_REGEX),
});
export type WebhookDeliveryJobPayload = z.infer<typeof WebhookDeliveryJobV1Schema>;

export const webhookDeliveryJob: JobContract<WebhookDeliveryJobPayload> = {
  queue: WEBHOOK_DELIVERY_QUEUE_NAME,
  name: WEBHOOK_DELIVERY_JOB_NAME,
  schema: WebhookDeliveryJobV1Schema,
};

/** The custom backoff strategy's name (the worker registers it; see webhookRetryDelayMs). */
export const WEBHOOK_BACKOFF = 'webhook';

/** How retries are spaced: `baseMs`, doubling, each delay capped at `maxDelayMs`, within `windowMs` in all. */
export interface WebhookRetryPolicy {
  baseMs: number;
  maxDelayMs: number;
  windowMs: number;
}

/** The doubling delay before retry `retry` (1 for the first retry), capped at `maxDelayMs`. */
function cappedDelayMs(policy: WebhookRetryPolicy, retry: number): number {
  return Math.min(policy.baseMs * 2 ** Math.min(retry - 1, 40), policy.maxDelayMs);
}

/**
 * The delay before retry `retry` (1 for the first retry). The last retry takes what is left of the window
 * rather than a whole capped delay, so that retries go on for the whole window (24 h by default) and the
 * final attempt falls at its end, not up to one capped delay (4 h) before it.
 */
export function webhookRetryDelayMs(policy: WebhookRetryPolicy, retry: number): number {
  let elapsed = 0;
  for (let earlier = 1; earlier < retry && elapsed < policy.windowMs; earlier += 1) {
    elapsed += cappedDelayMs(policy, earlier);
  }
  return Math.max(0, Math.min(cappedDelayMs(policy, retry), policy.windowMs - elapsed));
}

/** Attempts in all: the first, then retries until their delays fill the window. */
export function webhookAttempts(policy: WebhookRetryPolicy): number {
  let total = 0;
  let attempts = 1;
  while (attempts < 200 && total < policy.windowMs) {
    total += cappedDelayMs(policy, attempts);
    attempts += 1;
  }
  return attempts;
}

/**
 * One BullMQ job per (delivery, run): `run` 0 is the relay's, each manual redelivery takes the next run
 * (BullMQ ignores an id it still keeps, and refuses ':' in custom ids).
 */
export const webhookDeliveryJobId = (deliveryId: string, run: number) => `webhook-${deliveryId}-${run}`;
