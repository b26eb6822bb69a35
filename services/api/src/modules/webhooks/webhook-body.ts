import {
  MAX_WEBHOOK_URL_LENGTH,
  scopesForEvents,
  WEBHOOK_EVENT_TYPES,
  type WebhookEventType,
} from '@pfs/contracts';
import { AppError, inputError } from '@pfs/errors';
import { hasScope } from '@pfs/resource-api';
import { z } from 'zod';

const body = z.object({
  url: z
    .string({ required_error: 'is required', invalid_type_error: 'must be a string' })
    .trim()
    .min(1, 'must not be empty')
    .max(MAX_WEBHOOK_URL_LENGTH, `must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`),
  events: z
    .array(
      z.enum(WEBHOOK_EVENT_TYPES, {
        errorMap: () => ({ message: `must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}` }),
      }),
      { required_error: 'is required', invalid_type_error: 'must be an array of event types' },
    )
    .min(1, 'must name at least one event')
    .refine((events) => new Set(events).size === events.length, 'must not repeat an event'),
  description: z
    .string({ invalid_type_error: 'must be a string' })
    .max(200, 'must be at most 200 characters')
    .nullish(),
  enabled: z.boolean({ invalid_type_error: 'must be true or false' }).optional(),
});

export interface WebhookBody {
  url: string;
  events: WebhookEventType[];
  description: string | null;
  enabled: boolean;
}

/** Reads a webhook's create or replace body (unknown and read-only fields are ignored); 400 naming each field. */
export function parseWebhookBody(raw: unknown): WebhookBody {
  const parsed = body.safeParse(raw ?? {});
  if (!parsed.success) {
    throw inputError(
      parsed.error.issues.map((issue) => ({ field: issue.path.join('.') || 'body', error: issue.message })),
    );
  }
  const { url, events, description, enabled } = parsed.data;
  return { url, events, description: description || null, enabled: enabled ?? true };
}

/**
 * Refuses (403, naming them, as a route's scope check does) unless the token holds the read scope of every
 * event's area: a webhook shows its owner the objects its events carry.
 */
export function assertEventScopes(granted: readonly string[], events: readonly string[]): void {
  const missing = scopesForEvents(events as WebhookEventType[]).filter((scope) => !hasScope(granted, scope));
  if (!missing.length) return;
  throw new AppError('INSUFFICIENT_SCOPE', {
    description: `This webhook's events need the ${missing.join(' and ')} scope${missing.length > 1 ? 's' : ''}.`,
    headers: {
      'WWW-Authenticate': `Bearer realm="pfs", error="insufficient_scope", scope="${missing.join(' ')}"`,
    },
  });
}

/** True when the token may see this webhook (it holds the read scope of each of its events' areas). */
export const mayReadWebhook = (granted: readonly string[], events: readonly string[]) =>
  scopesForEvents(events as WebhookEventType[]).every((scope) => hasScope(granted, scope));
