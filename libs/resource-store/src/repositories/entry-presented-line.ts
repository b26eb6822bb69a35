/**
 * An entry's line of a presented page of `GET /entries` (list-page.ts `listPresentedPage`), read from the line
 * Postgres keeps beside each entry (`entries.presented_line`, kept by a trigger: migration
 * 1764700000000-store-entry-presented-lines.ts, which says what it holds and which entries have one). The stored
 * item is written as if the entry were in its user's main currency (`"main_rate":1`), so it is used only for an
 * entry in the user's main currency now; any other entry, and one without a line, gets NULL here and goes
 * through the general presenter. A cold page of 200 then costs Postgres the index scan and one concatenation.
 */
export function entryPresentedLine(main: string): string {
  return `CASE WHEN t.currency = ${main} THEN t.presented_line END`;
}

/** The SQL texts of `entryPresentedLine` by the user id's parameter (`$1`, `$3`, …): built once each. */
const byUserParameter = new Map<string, string>();

/** `entryPresentedLine` in the user's main currency, the user given by its id's parameter. */
export function entryPresentedLineOf(userParameter: string): string {
  let sql = byUserParameter.get(userParameter);
  if (sql === undefined) {
    sql = entryPresentedLine(`(SELECT u.currency FROM users u WHERE u.id = ${userParameter})`);
    byUserParameter.set(userParameter, sql);
  }
  return sql;
}
