/**
 * The events a webhook can subscribe to. Each names its area's read scope: a token may create, read or change
 * a webhook only when it holds the read scope of every event it subscribes to (receiving an event is reading
 * the object it carries). `export` and `import` belong to the entries area (spec, "Scope types").
 */
export const WEBHOOK_OBJECT_KINDS = {
  entry: 'entries',
  account: 'accounts',
  budget: 'budgets',
  category: 'categories',
  tag: 'tags',
} as const;
export type WebhookObjectKind = keyof typeof WEBHOOK_OBJECT_KINDS;

export const WEBHOOK_EVENT_TYPES = [
  'entry.created',
  'entry.updated',
  'entry.deleted',
  'account.created',
  'account.updated',
  'account.deleted',
  'budget.created',
  'budget.updated',
  'budget.deleted',
  'category.created',
  'category.updated',
  'category.deleted',
  'tag.created',
  'tag.updated',
  'tag.deleted',
  'export.generated',
  'import.imported',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export function isWebhookEventType(value: unknown): value is WebhookEventType {
  return typeof value === 'string' && (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);
}

/** The object kind of an event type (`entry` of `entry.created`, `export` of `export.generated`). */
export const eventObjectKind = (type: WebhookEventType) => type.slice(0, type.indexOf('.'));

/** The endpoint (and scope area) an event's object belongs to: `entries` for `entry.*`, `export.*`, `import.*`. */
export function eventArea(type: WebhookEventType): string {
  const kind = eventObjectKind(type);
  return kind in WEBHOOK_OBJECT_KINDS ? WEBHOOK_OBJECT_KINDS[kind as WebhookObjectKind] : 'entries';
}

/** The read scopes a token needs to subscribe to `events` (one per area, sorted). */
export function scopesForEvents(events: readonly WebhookEventType[]): string[] {
  return [...new Set(events.map((type) => `${eventArea(type)}:r`))].sort();
}
