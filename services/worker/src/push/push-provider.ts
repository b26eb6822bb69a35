import type { PushToken } from '@pfs/resource-store';

/** What every provider shows the user: a title, the notification's text, and ids for the app to act on. */
export interface PushMessage {
  title: string;
  body: string;
  /** Flat string pairs: FCM `data` and WNS launch arguments accept nothing else. */
  data: Record<string, string>;
  /** Pushes for one notification replace each other on the device. */
  collapseId: string;
}

/** How one attempt ended, in the terms the outbox acts on. */
export type PushOutcome =
  | { kind: 'sent' }
  /** The provider says the device token is dead (app uninstalled, token rotated): stop using it. */
  | { kind: 'invalid-token'; reason: string }
  /** Worth trying again later (rate limit, provider outage, network, expired provider credentials). */
  | { kind: 'retry'; reason: string; retryAfterSeconds?: number }
  /** Refused for good (a malformed request); retrying would not help. */
  | { kind: 'failed'; reason: string };

/** One push service (APNs, FCM, WNS). Implementations never throw: every failure is an outcome. */
export interface PushProvider {
  readonly name: string;
  send(device: PushToken, message: PushMessage): Promise<PushOutcome>;
  close(): Promise<void>;
}

/** Which provider serves each device type; a type without one is skipped (and recorded as such). */
export type PushProviders = Partial<Record<PushToken['type'], PushProvider>>;

/** A `Retry-After` header in seconds (delta form; the date form is rare from push providers). */
export function retryAfterSeconds(value: string | string[] | null | undefined): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text || !/^\d{1,6}$/.test(text.trim())) return undefined;
  return Number(text.trim());
}

/** Status codes every provider treats as "try again later". */
export const isTemporaryStatus = (status: number) => status === 429 || status >= 500;

/**
 * The outcome of a refusal by a provider reached over HTTP with an OAuth access token (FCM, WNS), once
 * its dead-token answers are handled: a 401 drops the cached token (the next attempt gets a fresh one) and
 * retries; a temporary status retries when the provider says; anything else failed for good.
 */
export function refusalOutcome(
  answer: Response,
  described: string,
  options: { temporary: boolean; invalidateToken(): void },
): PushOutcome {
  if (answer.status === 401) {
    options.invalidateToken();
    return { kind: 'retry', reason: described };
  }
  if (options.temporary) {
    return {
      kind: 'retry',
      reason: described,
      retryAfterSeconds: retryAfterSeconds(answer.headers.get('retry-after')),
    };
  }
  return { kind: 'failed', reason: described };
}
