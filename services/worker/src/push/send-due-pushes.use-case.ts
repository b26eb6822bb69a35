import type { Logger } from '@pfs/logger';
import type { DuePush, PushTokenRepository } from '@pfs/resource-store';
import { pushMessageOf } from './push-message';
import { pushDeliveries } from '../worker-metrics';
import type { PushOutcome, PushProviders } from './push-provider';

export interface PushSenderDeps {
  pushTokens: PushTokenRepository;
  providers: PushProviders;
  logger: Logger;
  /** Attempts before a temporarily refused push is given up (status `failed`). */
  maxAttempts: number;
}

/** Pushes claimed per round; each round sends them concurrently. */
const BATCH = 50;
/** Rounds per call, so one call is bounded however large the backlog (the next call takes the rest). */
const MAX_ROUNDS = 20;
/** How long a claimed push is this worker's before another may retry it (a worker that died mid-send). */
const LEASE_SECONDS = 120;

/** 30 s, 1 min, 2 min, … capped at an hour; a provider's Retry-After wins when it asks for longer. */
function retryDelaySeconds(attempts: number, asked?: number): number {
  const backoff = Math.min(3600, 30 * 2 ** Math.max(0, attempts - 1));
  return Math.max(backoff, asked ?? 0);
}

/**
 * Sends the outbox's due pushes (docs/exports.md, "Push"): each to its device's provider, the outcome recorded
 * on the row. A dead device token is marked so it gets no more pushes. Returns how many were settled.
 */
export async function sendDuePushes(deps: PushSenderDeps): Promise<number> {
  let settled = 0;
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    const due = await deps.pushTokens.claimDue(BATCH, LEASE_SECONDS);
    if (!due.length) break;
    await Promise.all(due.map((push) => sendOne(deps, push)));
    settled += due.length;
    if (due.length < BATCH) break;
  }
  return settled;
}

async function sendOne(deps: PushSenderDeps, push: DuePush): Promise<void> {
  if (push.deviceInvalid) {
    pushDeliveries.inc({ provider: push.device.type, outcome: 'skipped' });
    await deps.pushTokens.settle(push.id, {
      status: 'skipped',
      error: 'the device token was declared invalid',
    });
    return;
  }
  const provider = deps.providers[push.device.type];
  if (!provider) {
    pushDeliveries.inc({ provider: push.device.type, outcome: 'skipped' });
    await deps.pushTokens.settle(push.id, {
      status: 'skipped',
      error: `no push provider is configured for ${push.device.type} devices`,
    });
    return;
  }
  const outcome: PushOutcome = await provider.send(push.device, pushMessageOf(push.payload));
  pushDeliveries.inc({ provider: provider.name, outcome: outcome.kind });
  if (outcome.kind !== 'sent') {
    // The device token is not logged: it addresses the user's device.
    deps.logger.warn(
      { pushId: push.id, provider: provider.name, outcome: outcome.kind, reason: outcome.reason },
      'push not sent',
    );
  }
  switch (outcome.kind) {
    case 'sent':
      await deps.pushTokens.settle(push.id, { status: 'sent' });
      return;
    case 'invalid-token':
      await deps.pushTokens.markInvalid(push.device.id);
      await deps.pushTokens.settle(push.id, { status: 'failed', error: outcome.reason });
      return;
    case 'failed':
      await deps.pushTokens.settle(push.id, { status: 'failed', error: outcome.reason });
      return;
    case 'retry':
      if (push.attempts >= deps.maxAttempts) {
        await deps.pushTokens.settle(push.id, {
          status: 'failed',
          error: `${outcome.reason} (gave up after ${push.attempts} attempts)`,
        });
      } else {
        const delay = retryDelaySeconds(push.attempts, outcome.retryAfterSeconds);
        await deps.pushTokens.settle(push.id, {
          status: 'pending',
          error: outcome.reason,
          retryAt: new Date(Date.now() + delay * 1000),
        });
      }
  }
}
