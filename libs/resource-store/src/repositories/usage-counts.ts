import type { DataSource, EntityManager } from 'typeorm';
import { budgetsPerCategory, budgetsPerTag } from './budget-references';
import { entriesPerCategory, entriesPerTag } from './entry-references';

/** One count of one object: `key` is a member of the object's `counts` (`entries`, `budgets`, …). */
export interface UsageCount {
  id: string;
  key: string;
  count: number;
}

/**
 * Counts usage of categories or tags by other resources. Categories and tags report `counts` with zeros
 * until a counter fills a key: the ledger appends its entries counter and the budgets module its budgets
 * counter here (one array entry each), so counts grow with the schema without touching these repositories.
 */
export type UsageCounter = (
  source: DataSource | EntityManager,
  userId: string,
  ids: string[],
) => Promise<UsageCount[]>;

/** Tags per category, by type: counted here because tags live in this layer. */
const tagsPerCategory: UsageCounter = async (source, userId, ids) => {
  const rows: Array<{ id: string; type: string; count: string }> = await source.query(
    `SELECT category_id::text AS id, type, count(*) AS count FROM tags
     WHERE user_id = $1 AND category_id = ANY($2::bigint[]) AND NOT deleted GROUP BY category_id, type`,
    [userId, ids],
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
  source: DataSource | EntityManager,
  userId: string,
  ids: string[],
  zeros: Record<string, number>,
): Promise<Map<string, Record<string, number>>> {
  const result = new Map(ids.map((id) => [id, { ...zeros }]));
  if (!ids.length) return result;
  const all = await Promise.all(counters.map((counter) => counter(source, userId, ids)));
  for (const { id, key, count } of all.flat()) {
    const counts = result.get(id);
    if (counts) counts[key] = (counts[key] ?? 0) + count;
  }
  return result;
}
