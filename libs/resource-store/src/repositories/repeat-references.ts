import { transactionOf } from '../sync/user-change';
import type { ReferenceHook } from './reference-types';

/**
 * Accounts merged into another: the templates of repeating entries that name a merged account (as their
 * account or as a transfer's other side) name the target instead, so later occurrences land where the
 * earlier ones were moved. A transfer template whose two sides end in one account stops being a transfer,
 * as the merged entries do. The templates are the series' internal state (no sync fields to move).
 */
export const repeatsAccountHook: ReferenceHook = async (change, { fromIds, toId }) => {
  if (toId === null || !fromIds.length) return;
  await transactionOf(change).query(
    `UPDATE repeats r SET template = c.template, updated_at = now()
     FROM (SELECT id, CASE WHEN template->>'account' = ANY($2::text[])
                      THEN jsonb_set(template, '{account}', to_jsonb($3::text)) ELSE template END AS template
           FROM repeats WHERE user_id = $1 AND NOT deleted) a,
     LATERAL (SELECT CASE WHEN a.template #>> '{transaction,account}' = ANY($2::text[])
                     THEN jsonb_set(a.template, '{transaction,account}', to_jsonb($3::text))
                     ELSE a.template END AS template) b,
     LATERAL (SELECT CASE WHEN b.template #>> '{transaction,account}' = b.template->>'account'
                     THEN b.template - 'transaction' ELSE b.template END AS template) c
     WHERE r.id = a.id AND r.template IS DISTINCT FROM c.template`,
    [change.userId, fromIds, toId],
  );
};
