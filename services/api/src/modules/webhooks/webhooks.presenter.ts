import { compact, formatModified } from '@pfs/resource-api';
import type { Webhook, WebhookDelivery } from '@pfs/resource-store';

export function presentWebhook(webhook: Webhook, secret?: string): Record<string, unknown> {
  return compact({
    id: webhook.id,
    url: webhook.url,
    events: webhook.events,
    description: webhook.description ?? undefined,
    enabled: webhook.enabled,
    disabled_reason: webhook.disabledReason ?? undefined,
    secret,
    created: webhook.createdAt.toISOString(),
    modified: formatModified(webhook.modifiedAt),
  });
}

/** The webhook-id header of a delivery's attempts: stable across retries and redeliveries. */
export const messageIdOf = (delivery: Pick<WebhookDelivery, 'id'>) => `msg_${delivery.id}`;

export function presentDelivery(delivery: WebhookDelivery): Record<string, unknown> {
  return compact({
    id: delivery.id,
    webhook: delivery.webhookId,
    message_id: messageIdOf(delivery),
    type: delivery.eventType,
    status: delivery.status,
    created: delivery.createdAt.toISOString(),
    completed: delivery.completedAt?.toISOString(),
    payload: delivery.payload,
    attempts: delivery.attempts.map((attempt) =>
      compact({
        date: attempt.attemptedAt.toISOString(),
        status_code: attempt.statusCode ?? undefined,
        latency_ms: attempt.latencyMs,
        error: attempt.error ?? undefined,
      }),
    ),
  });
}
