/**
 * An entry's representation in `GET /entries` (services/api entries.presenter.ts, `presentEntry` after
 * `compact`, then JSON.stringify) written by Postgres as the final JSON text, for the entries whose every field
 * Postgres can write byte for byte as JSON.stringify would: a cold page of 200 then costs the API no JSON.parse,
 * row mapping, presenting or JSON.stringify (half of its CPU, bench profile, issue 13). Any other entry gets
 * NULL here, and its row goes through the general presenter (list-page.ts reads such rows as a JSON array).
 *
 * What "plain" means, and why each guard is there:
 * - In the user's main currency (`main`, an SQL expression): `main_rate` is then exactly 1. Another currency's
 *   rate comes from the API's rate book.
 * - No location, reminders or extra: jsonb prints `{"a": 1}` (spaces) and keeps `1.0`, JSON.stringify does not.
 * - No transfer, images or series: those are presented from other rows (the companion, the images, the series).
 * - Amounts a JSON number prints as the numeric's own digits: the presenter sends `Number(text)`, whose
 *   shortest form is the decimal itself when it has at most 15 significant digits (every such decimal has its
 *   own double) and is written without an exponent when it is 0 or between 1e-6 and 1e21. The amount columns
 *   have 9 decimals (below 1e6: at most 15 digits), the rate 12 (below 1e3). `trim_scale` drops the trailing
 *   zeros as the number's text does.
 * - Timestamps in years 1000-9999 (toISOString's four-digit years), written from the UTC text Postgres prints
 *   with the ISO DateStyle (the one pg-timestamps.ts reads too): `created` to the second, `modified` to the
 *   millisecond, both truncated, which is what the presenter keeps of the floored milliseconds.
 * Strings go through `to_json`, which escapes exactly the characters JSON.stringify escapes (text is valid
 * UTF-8: no lone surrogates). The API's test (presented-entries.test.ts) compares every field shape with
 * `presentEntry`.
 */
export function entryPresentedJson(main: string): string {
  const bool = (column: string) => `CASE WHEN ${column} THEN 'true' ELSE 'false' END`;
  const modified = `(t.modified_at AT TIME ZONE 'UTC')::text`;
  const created = `(t.created_at AT TIME ZONE 'UTC')::text`;
  const plain = [
    `t.currency = ${main}`,
    't.location IS NULL',
    't.reminders IS NULL',
    't.extra IS NULL',
    't.transaction_id IS NULL',
    't.repeat_id IS NULL',
    'cardinality(t.image_ids) = 0',
    ...[
      ['t.amount', '1000000'],
      ['t.rate', '1000'],
    ].map(
      ([column, below]) =>
        `${column} > -${below} AND ${column} < ${below} AND (${column} >= 0.000001 OR ${column} <= -0.000001 OR ${column} = 0)`,
    ),
    ...['t.created_at', 't.modified_at'].map(
      (column) => `${column} >= '1000-01-01 00:00:00+00' AND ${column} < '10000-01-01 00:00:00+00'`,
    ),
  ].join(' AND ');
  const json = [
    `'{"id":"' || t.id::text`,
    `'","amount":' || trim_scale(t.amount)::text`,
    `',"currency":{"code":' || to_json(t.currency)::text`,
    `',"rate":' || trim_scale(t.rate)::text`,
    `',"main_rate":1,"fixed":' || ${bool('t.fixed')}`,
    `'},"date":"' || left(t.date::text, 10)`,
    `CASE WHEN t.description IS NULL THEN '"' ELSE '","desc":' || to_json(t.description)::text END`,
    `',"account":"' || t.account_id::text || '"'`,
    `CASE WHEN t.category_id IS NULL THEN '' ELSE ',"category":"' || t.category_id::text || '"' END`,
    `CASE WHEN cardinality(t.tag_ids) = 0 THEN '' ELSE ',"tags":' || to_json(t.tag_ids::text[])::text END`,
    `',"completed":' || ${bool('t.completed')}`,
    `',"created":"' || left(${created}, 10) || 'T' || substr(${created}, 12, 8)`,
    `'Z","modified":"' || CASE WHEN length(${modified}) = 19 THEN ${modified} || '.000' ELSE rpad(left(${modified}, 23), 23, '0') END`,
    `CASE WHEN t.deleted THEN '","deleted":true}' ELSE '"}' END`,
  ].join(' || ');
  return `CASE WHEN ${plain} THEN ${json} END`;
}

/** The SQL texts of `entryPresentedJson` by the user id's parameter (`$1`, `$3`, …): built once each. */
const byUserParameter = new Map<string, string>();

/** `entryPresentedJson` in the user's main currency, the user given by its id's parameter. */
export function entryPresentedJsonOf(userParameter: string): string {
  let sql = byUserParameter.get(userParameter);
  if (sql === undefined) {
    sql = entryPresentedJson(`(SELECT u.currency FROM users u WHERE u.id = ${userParameter})`);
    byUserParameter.set(userParameter, sql);
  }
  return sql;
}
