import type { PushMessage } from './push-provider';

/** The stored payload of a push (docs/exports.md) as the message providers send. */
export function pushMessageOf(payload: Record<string, unknown>): PushMessage {
  const notification = (payload.notification ?? {}) as Record<string, unknown>;
  const data: Record<string, string> = {};
  for (const [key, value] of Object.entries(notification)) {
    if (key !== 'text' && value !== undefined && value !== null) data[`notification_${key}`] = String(value);
  }
  const related = payload.export as Record<string, unknown> | undefined;
  if (related) {
    data.export_id = String(related.id);
    data.export_status = String(related.status);
  }
  return {
    title: 'PFS',
    body: String(notification.text ?? ''),
    data,
    collapseId: `notification-${String(notification.id ?? '')}`,
  };
}
