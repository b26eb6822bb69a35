/**
 * The bounds a page statement's rows are read under by the bounded form below, each ten times the one before it,
 * the largest the largest `per_page` (500, resource-api pagination.ts) and the one extra row that tells whether a
 * next page exists.
 */
const PAGE_ROW_BOUNDS = [6, 51, 501] as const;

/** The newest change first, then the highest id: every list page's order (an index's order, no sort). */
const PAGE_ORDER = 'ORDER BY t.change_seq DESC, t.id DESC';

/**
 * The rows of one page of `table` (alias `t`): a subquery body over the given SELECT list, in the page's order,
 * `rows` of them after `offset`. Its parameters are added to the statement when this is called, so the same
 * returned function is used once, in the statement's text.
 *
 * Why two forms. Postgres costs a plan whose LIMIT or OFFSET is a parameter as if a tenth of the rows were wanted
 * (planner.c `preprocess_limit`): for a user with 1,000,000 entries the prepared page statement's generic plan
 * looked a thousand times dearer than the custom plan made for `LIMIT 201`, so Postgres never kept the generic
 * plan and planned the statement again on every execution (`pg_prepared_statements.custom_plans`; planning was
 * about two thirds of the backend's time for a page: docs/bench.md, issue 13, session 10). A page from the start
 * or from a cursor (no offset) with no filter therefore reads at most the least of `PAGE_ROW_BOUNDS` that holds
 * its `rows` by a constant LIMIT, and takes its own `rows` by an outer parameter (which stops the index scan
 * beneath it after them). The generic plan then expects a tenth of the bound: never more rows than a custom plan
 * for any `rows` under that bound (the bounds are ten times apart), so it never looks dearer, and Postgres keeps
 * it after its five custom plans. One text serves a range of `per_page` (three texts at most).
 *
 * A filtered page keeps the parameters, so that Postgres may go on planning it for the user's own values (a
 * rare category among a million entries can call for another index than the average a generic plan assumes),
 * as may an offset page, and a page larger than the last bound (internal callers).
 */
export function pageRowsSql(options: {
  table: string;
  where: string;
  rows: number;
  offset: number;
  filtered: boolean;
  add: (value: unknown) => string;
}): (selectList: string) => string {
  const { table, where, rows, offset, filtered, add } = options;
  const scan = `FROM ${table} t WHERE ${where} ${PAGE_ORDER}`;
  const bound = PAGE_ROW_BOUNDS.find((rowsAtMost) => rows <= rowsAtMost);
  if (offset === 0 && !filtered && bound !== undefined) {
    const limit = add(rows);
    return (selectList) => `SELECT b.* FROM (SELECT ${selectList} ${scan} LIMIT ${bound}) b LIMIT ${limit}`;
  }
  const limits = `LIMIT ${add(rows)} OFFSET ${add(offset)}`;
  return (selectList) => `SELECT ${selectList} ${scan} ${limits}`;
}
