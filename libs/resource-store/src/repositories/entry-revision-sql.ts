import { APPS_KEY } from '../sync/app-extra';

/**
 * SQL building, for rows of `entries` under `alias`, exactly the snapshot `entriesTable.toSnapshot` gives
 * (with `extra` narrowed to the application `appParam` names, as reads are), so bulk writes can record a
 * revision for every row they touch in the same statement instead of one insert per row.
 */
export function entrySnapshotSql(alias: string, appParam: string): string {
  const extra = `CASE WHEN ${alias}.extra IS NULL THEN NULL
      WHEN ${appParam}::text IS NULL OR jsonb_typeof(${alias}.extra) <> 'object' OR NOT (${alias}.extra ? '${APPS_KEY}')
        THEN ${alias}.extra
      ELSE ${alias}.extra -> '${APPS_KEY}' -> ${appParam}::text END`;
  const optional = (condition: string, key: string, value: string) =>
    `CASE WHEN ${condition} THEN jsonb_build_object('${key}', ${value}) ELSE '{}'::jsonb END`;
  return [
    `jsonb_build_object(
       'amount', trim_scale(${alias}.amount)::text,
       'currency', jsonb_build_object('code', ${alias}.currency::text, 'rate', trim_scale(${alias}.rate)::text,
                                      'fixed', ${alias}.fixed),
       'date', to_char(${alias}.date, 'YYYY-MM-DD'),
       'account', ${alias}.account_id::text,
       'completed', ${alias}.completed,
       'account_amount', trim_scale(${alias}.account_amount)::text)`,
    optional(`coalesce(${alias}.description, '') <> ''`, 'desc', `${alias}.description`),
    optional(`${alias}.category_id IS NOT NULL`, 'category', `${alias}.category_id::text`),
    optional(`cardinality(${alias}.tag_ids) > 0`, 'tags', `to_jsonb(${alias}.tag_ids::text[])`),
    optional(`${alias}.location IS NOT NULL`, 'location', `${alias}.location`),
    optional(
      `jsonb_typeof(${alias}.reminders) = 'array' AND jsonb_array_length(${alias}.reminders) > 0`,
      'reminders',
      `${alias}.reminders`,
    ),
    optional(
      `cardinality(${alias}.image_ids) > 0`,
      'images',
      `(SELECT jsonb_agg(jsonb_build_object('id', i::text) ORDER BY o) FROM unnest(${alias}.image_ids) WITH ORDINALITY AS x (i, o))`,
    ),
    optional(
      `${alias}.transaction_id IS NOT NULL`,
      'transaction',
      `jsonb_build_object('id', ${alias}.transaction_id::text)`,
    ),
    optional(`coalesce(${extra}, 'null'::jsonb) <> 'null'::jsonb`, 'extra', extra),
  ].join(' || ');
}
