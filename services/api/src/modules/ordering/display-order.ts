import { inputError } from '@pfs/errors';
import type { ResourceTable, SyncedRecord, UserChange } from '@pfs/resource-store';

/** `order` is 0–255 in the reference; positions past 255 share the last value (and then sort by id). */
const MAX_ORDER = 255;

/** `POST …/reorder {order}`: the listed ids first, in that order, then the rest as they were. */
export function reorderedIds(current: string[], order: string[], what: string): string[] {
  const unknown = order.filter((id) => !current.includes(id));
  if (unknown.length || new Set(order).size !== order.length) {
    throw inputError([{ field: 'order', error: `must list each of your ${what} at most once` }]);
  }
  return [...order, ...current.filter((id) => !order.includes(id))];
}

/** `POST …/{id}/move {position}`: one id at `position` (0 = first; past the end = last). */
export function movedIds(current: string[], id: string, position: number): string[] {
  const rest = current.filter((other) => other !== id);
  rest.splice(Math.min(position, rest.length), 0, id);
  return rest;
}

/**
 * Writes positions 0, 1, 2… in the given order inside the change; only objects whose position changes get
 * a new revision (and show up in `since` syncs).
 */
export async function writeDisplayOrder<T extends SyncedRecord & { order: number }>(
  table: ResourceTable<T>,
  change: UserChange,
  ids: string[],
): Promise<void> {
  const records = await table.findByIds(change, ids);
  const byId = new Map(records.map((record) => [record.id, record]));
  for (const [index, id] of ids.entries()) {
    const record = byId.get(id);
    const order = Math.min(index, MAX_ORDER);
    if (!record || record.order === order) continue;
    await table.update(change, id, { ...table.options.toSnapshot(record), order });
  }
}
