import type { WebhookDeliveryQueue } from '@pfs/jobs';
import type { Logger } from '@pfs/logger';
import type { WebhookDeliveryRepository } from '@pfs/resource-store';
import type { PayloadRenderer } from './webhook-payloads';

/** Events claimed per pass, and how long a claim lasts (a relay that dies leaves them to the next). */
const EVENTS_PER_PASS = 200;
const CLAIM_SECONDS = 60;
const QUEUED_PER_PASS = 1_000;

export interface WebhookRelayDeps {
  deliveries: WebhookDeliveryRepository;
  queue: WebhookDeliveryQueue;
  render: PayloadRenderer;
  logger: Logger;
}

/**
 * One pass of the relay: outbox events become deliveries (one per subscribed webhook, with the payload
 * rendered once per application), then every delivery without a job gets one. Each step is idempotent,
 * so a pass cut short anywhere is completed by a later one: nothing committed is lost, nothing is sent twice
 * by the relay itself. Returns how many deliveries it queued.
 */
export async function relayWebhookEvents(deps: WebhookRelayDeps): Promise<number> {
  for (const event of await deps.deliveries.claimEvents(EVENTS_PER_PASS, CLAIM_SECONDS)) {
    try {
      const subscribers = await deps.deliveries.subscribers(event.userId, event.type);
      const payloads = new Map<string, Record<string, unknown>>();
      for (const { app } of subscribers) {
        if (!payloads.has(app)) payloads.set(app, await deps.render(event, app));
      }
      await deps.deliveries.fanOut(
        event,
        subscribers.map((webhook) => ({ webhookId: webhook.id, payload: payloads.get(webhook.app)! })),
      );
    } catch (error) {
      // Left claimed: the event is relayed again once its claim lapses.
      deps.logger.warn({ err: error, eventId: event.id }, 'webhook event not relayed yet');
    }
  }
  const due = await deps.deliveries.unqueued(QUEUED_PER_PASS);
  const queued: string[] = [];
  try {
    for (const delivery of due) {
      await deps.queue.enqueue(delivery.id, delivery.run);
      queued.push(delivery.id);
    }
  } finally {
    await deps.deliveries.markQueued(queued);
  }
  return queued.length;
}

export interface WebhookRelay {
  /** Runs one pass now (after any pass in progress). */
  runOnce(): Promise<number>;
  /** Stops the timer and waits for a pass in progress. */
  stop(): Promise<void>;
}

/**
 * Runs the relay every `intervalMs` (0: never by itself). The timer is unref'd: it never keeps the process
 * alive; graceful shutdown calls `stop`. Several API processes may run it: claims are exclusive.
 */
export function startWebhookRelay(deps: WebhookRelayDeps, intervalMs: number): WebhookRelay {
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const runOnce = () => {
    const pass = running.then(() => relayWebhookEvents(deps));
    running = pass.catch((error) => deps.logger.error({ err: error }, 'webhook relay pass failed'));
    return pass;
  };
  let busy = false;
  const tick = () => {
    if (stopped || busy) return;
    busy = true;
    void runOnce()
      .catch(() => undefined)
      .finally(() => {
        busy = false;
      });
  };
  const timer = intervalMs > 0 ? setInterval(tick, intervalMs) : undefined;
  timer?.unref();
  return {
    runOnce,
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      await running;
    },
  };
}
