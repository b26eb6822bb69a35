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

/** The SQL texts of `entryPresentedLine` by the parameters of the user id and main currency: built once each. */
const byParameters = new Map<string, string>();

/**
 * `entryPresentedLine` in the user's main currency: the one the caller read and presents the page's other
 * entries with, given by its parameter (`PageRequest.presentedMain`), else the users row's, in the page's own
 * statement (the user given by its id's parameter).
 */
export function entryPresentedLineOf(userParameter: string, mainParameter?: string): string {
  const key = `${userParameter} ${mainParameter ?? ''}`;
  let sql = byParameters.get(key);
  if (sql === undefined) {
    sql = entryPresentedLine(
      mainParameter === undefined
        ? `(SELECT u.currency FROM users u WHERE u.id = ${userParameter})`
        : `${mainParameter}::text`,
    );
    byParameters.set(key, sql);
  }
  return sql;
}
