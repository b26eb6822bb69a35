import {
  parseWebhookUrl,
  resolveWebhookTarget,
  WebhookUrlRefused,
  type WebhookSecretCipher,
  type WebhookUrlPolicy,
} from '@pfs/contracts';
import type { Logger } from '@pfs/logger';
import type { NotificationRepository, UserStore, WebhookDeliveryRepository } from '@pfs/resource-store';
import { type AttemptResult, sendSignedWebhook, type SendOptions } from './send-signed-webhook';

export interface WebhookDeliveryDeps {
  deliveries: WebhookDeliveryRepository;
  notifications: NotificationRepository;
  store: UserStore;
  cipher: WebhookSecretCipher;
  policy: WebhookUrlPolicy;
  send: SendOptions;
  /** A webhook whose attempts have all failed for this long is disabled (WEBHOOK_DISABLE_AFTER_SECONDS). */
  disableAfterMs: number;
  logger: Logger;
}

/** What became of an attempt: done (sent, or nothing to send) or to be retried (the job throws). */
export type DeliveryOutcome = 'succeeded' | 'skipped' | 'retry' | 'failed' | 'disabled';

/** Thrown to have BullMQ retry the delivery with the webhook backoff. */
export class WebhookAttemptFailed extends Error {}

/** The delivery's URL checked again now (DNS may have changed since registration), then the POST. */
async function attempt(
  deps: WebhookDeliveryDeps,
  rawUrl: string,
  secret: string,
  message: Parameters<typeof sendSignedWebhook>[2],
): Promise<AttemptResult> {
  const started = Date.now();
  try {
    const target = await resolveWebhookTarget(parseWebhookUrl(rawUrl, deps.policy), deps.policy);
    return await sendSignedWebhook(target, secret, message, deps.send);
  } catch (error) {
    if (!(error instanceof WebhookUrlRefused)) throw error;
    return { statusCode: null, latencyMs: Date.now() - started, error: `refused: ${error.message}` };
  }
}

/**
 * One attempt of one delivery (the job's work). A delivery already finished, or whose webhook is gone, is
 * skipped; one whose webhook is disabled, or whose application the user no longer lets in, is cancelled. Every attempt is recorded with its status code, latency
 * and error. A failure is retried (the caller rethrows) until `isFinalAttempt`; a webhook failing without
 * a success for `disableAfterMs` is disabled and its owner notified.
 */
export async function deliverWebhook(
  deps: WebhookDeliveryDeps,
  deliveryId: string,
  isFinalAttempt: boolean,
): Promise<DeliveryOutcome> {
  const loaded = await deps.deliveries.loadForAttempt(deliveryId);
  if (!loaded || loaded.delivery.status !== 'pending') return 'skipped';
  const { delivery, webhook } = loaded;
  // Disabled, or its application no longer let in by the user (grant or personal token revoked): a delivery
  // queued before that is not sent.
  if (!webhook.enabled || !loaded.appIsLive) {
    await deps.deliveries.cancel(delivery.id);
    return 'skipped';
  }
  const message = {
    id: `msg_${delivery.id}`,
    timestamp: new Date(),
    body: JSON.stringify(delivery.payload),
  };
  const result = await attempt(deps, webhook.url, deps.cipher.decrypt(loaded.secretEncrypted), message);
  const succeeded = result.error === null;
  const status = succeeded ? 'succeeded' : isFinalAttempt ? 'failed' : 'pending';
  const { failingSince } = await deps.deliveries.recordAttempt(delivery.id, result, status);
  deps.logger.info(
    {
      deliveryId: delivery.id,
      webhookId: webhook.id,
      statusCode: result.statusCode,
      latencyMs: result.latencyMs,
      status,
    },
    'webhook attempt',
  );
  if (succeeded) return 'succeeded';
  if (failingSince && Date.now() - failingSince.getTime() >= deps.disableAfterMs) {
    const reason = `every delivery failed since ${failingSince.toISOString()} (last: ${result.error})`;
    // Disabling (with its pending deliveries cancelled) and the owner's notification are one change: a
    // fault between them rolls both back, and the next failed attempt tries again.
    const disabled = await deps.store.change(webhook.userId, async (change) => {
      if (!(await deps.deliveries.disable(change, webhook.id, reason))) return false;
      await deps.notifications.create(change, {
        type: 'webhook',
        action: 'disabled',
        text: `Your webhook to ${webhook.url} was disabled: ${reason}. Fix the receiver, then enable it again.`,
      });
      return true;
    });
    if (disabled) deps.logger.warn({ webhookId: webhook.id }, 'webhook disabled after sustained failure');
    return 'disabled';
  }
  if (isFinalAttempt) return 'failed';
  throw new WebhookAttemptFailed(result.error ?? 'failed');
}
