import { handleOf, type UserRead } from '../sync/user-change';
import type { UsageCounter } from './reference-types';
import { budgetsPerCategory, budgetsPerTag } from './budget-references';
import { entriesPerCategory, entriesPerTag } from './entry-references';

/** Tags per category, by type: counted here because tags live in this layer. */
const tagsPerCategory: UsageCounter = async (read, ids) => {
  const rows: Array<{ id: string; type: string; count: string }> = await handleOf(read).query(
    `SELECT category_id::text AS id, type, count(*) AS count FROM tags
     WHERE user_id = $1 AND category_id = ANY($2::bigint[]) AND NOT deleted GROUP BY category_id, type`,
    [read.userId, ids],
  );
  return rows.flatMap((row) => [
    { id: row.id, key: 'tags', count: Number(row.count) },
    { id: row.id, key: `${row.type}_tags`, count: Number(row.count) },
  ]);
};

export const categoryUsageCounters: UsageCounter[] = [
  tagsPerCategory,
  entriesPerCategory,
  budgetsPerCategory,
];
export const tagUsageCounters: UsageCounter[] = [entriesPerTag, budgetsPerTag];

/** Runs every counter and sums them into `{id: {key: count}}`, starting from `zeros`. */
export async function countUsage(
  counters: UsageCounter[],
  read: UserRead,
  ids: string[],
  zeros: Record<string, number>,
): Promise<Map<string, Record<string, number>>> {
  const result = new Map(ids.map((id) => [id, { ...zeros }]));
  if (!ids.length) return result;
  const all = await Promise.all(counters.map((counter) => counter(read, ids)));
  for (const { id, key, count } of all.flat()) {
    const counts = result.get(id);
    if (counts) counts[key] = (counts[key] ?? 0) + count;
  }
  return result;
}
