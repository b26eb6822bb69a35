/**
 * The most rows a page statement asks for by the bounded form below: the largest `per_page` (500, resource-api
 * pagination.ts) and the one extra row that tells whether a next page exists.
 */
export const PAGE_ROWS_BOUND = 501;

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
 * or from a cursor (no offset) with no filter therefore reads at most `PAGE_ROWS_BOUND` rows by a constant LIMIT
 * and takes its own `rows` by an outer parameter: the generic plan is then costed right and kept after
 * Postgres's five custom plans, and one text serves every `per_page` (the outer LIMIT stops the index scan
 * beneath it after `rows`). A filtered page keeps custom plans: a filter's selectivity for this user's value
 * (a rare category among a million entries) can call for another index than the average a generic plan assumes.
 * An offset page, or a page larger than the bound (internal callers), keeps the parameters as before.
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
  if (offset === 0 && !filtered && rows <= PAGE_ROWS_BOUND) {
    const limit = add(rows);
    return (selectList) =>
      `SELECT b.* FROM (SELECT ${selectList} ${scan} LIMIT ${PAGE_ROWS_BOUND}) b LIMIT ${limit}`;
  }
  const limits = `LIMIT ${add(rows)} OFFSET ${add(offset)}`;
  return (selectList) => `SELECT ${selectList} ${scan} ${limits}`;
}
