import type { DataSource, EntityManager } from 'typeorm';
import type { JsonPage } from './json-page';
import { SqlFilter, SqlParams } from './sql-params';
import { LIST_VERSION_SQL } from './change-sequence';
import { preparedQuery } from '../prepared-query';
import { pageRowsSql } from './page-rows';
import { presentedJson } from './presented-json';
import type { PageRequest, PageResult, PresentedPageResult, RawRow, TotalCountCache } from './sync-types';
import { toListState } from './user-store';

export interface ListPageOptions<T> {
  table: string;
  /** The SELECT list over alias `t`. */
  selectList: string;
  toRecord(row: RawRow): T;
  /** Given, the page comes as one JSON value (json-page.ts) instead of one row of `selectList` each. */
  jsonPage?: JsonPage;
  /**
   * Given (with `jsonPage`), the page comes as its rows' final representations where Postgres has them: the SQL
   * of a row's whole line (keys and representation as JSON text, see `listPresentedPage`) over alias `t`, or NULL
   * for a row to be presented by the caller (read as `jsonPage` reads it), given the user id's parameter and,
   * when the request gives `presentedMain`, that main currency's parameter.
   */
  presented?: (userParameter: string, mainParameter?: string) => string;
  userId: string;
  request: PageRequest;
  filters: SqlFilter[];
}

/**
 * One page and the watermark, read in one statement (one snapshot: sync correctness depends on it),
 * plus one row more to know whether a next page exists (keyset after a cursor, else offset), and the
 * total: in the same statement from `request.totalSql` when given, else from `request.totalCache` when it knows
 * the total at this watermark, else counted; and, asked with `withListState`, the user's list state.
 */
export async function listPage<T>(
  source: DataSource | EntityManager,
  options: ListPageOptions<T>,
): Promise<PageResult<T>> {
  const { toRecord, jsonPage, request } = options;
  const { first, total } = await readPage(source, { ...options, presented: undefined });
  const pageRows = inPageOrder(
    jsonPage
      ? ((first.__page as unknown[][] | null) ?? []).map((values) => jsonPage.rowOf(values))
      : (first.__rows as RawRow[]),
  );
  return {
    ...pageMeta(first, total, request),
    items: pageRows.slice(0, request.perPage).map((row) => toRecord(row)),
    hasMore: pageRows.length > request.perPage,
  };
}

/**
 * A page (as `listPage`) whose items are their final representations as JSON text where `presented` wrote them
 * (Postgres writes the text: the caller joins it into the body as it is), the others records to present. The
 * rows come as one text, a line each: `<change_seq> <id> <modified_at as epoch ms> <item>`, where the item is
 * a representation (`{…}`) or, for a row to present, `jsonPage`'s JSON array. The keys give the page's order
 * (checked, as `listPage` checks it: no sort in the statement), the next cursor's position (`last`, when a next
 * page exists) and the newest `modified_at` of the items. A page whose every item Postgres wrote comes as its
 * JSON array's bytes (`json`, presented-json.ts) instead of items.
 */
export async function listPresentedPage<T extends { changeSeq: string; id: string }>(
  source: DataSource | EntityManager,
  options: ListPageOptions<T>,
): Promise<PresentedPageResult<T>> {
  const { toRecord, jsonPage, request } = options;
  if (!options.presented || !jsonPage) {
    // Nothing written by Postgres: every item a record, and `last` the page's last one.
    const page = await listPage(source, options);
    return { ...page, last: page.hasMore ? page.items[page.items.length - 1] : undefined };
  }
  const { first, total } = await readPage(source, options);
  const whole = presentedJson(first.__page as string | null, request.perPage);
  if (whole) return { ...pageMeta(first, total, request), items: [], ...whole };
  const rows = inPageOrder(first.__page === null ? [] : String(first.__page).split('\n').map(keyedLine));
  const hasMore = rows.length > request.perPage;
  if (hasMore) rows.length = request.perPage;
  const last = rows[rows.length - 1];
  return {
    ...pageMeta(first, total, request),
    items: rows.map(({ item }) =>
      item[0] === '{' ? item : toRecord(jsonPage!.rowOf(JSON.parse(item) as unknown[])),
    ),
    hasMore,
    last: hasMore ? { changeSeq: last.change_seq, id: last.id } : undefined,
    newest: rows.length ? new Date(Math.max(...rows.map((row) => row.modified))) : undefined,
  };
}

/** The SQL of one line of a presented page (see `listPresentedPage`), over alias `t`. */
function keyedLineSql(item: string): string {
  return `t.change_seq::text || ' ' || t.id::text || ' ' || floor(extract(epoch FROM t.modified_at) * 1000)::text || ' ' || ${item}`;
}

/** A line of a presented page, its keys apart. */
function keyedLine(line: string): { change_seq: string; id: string; modified: number; item: string } {
  const idAt = line.indexOf(' ') + 1;
  const modifiedAt = line.indexOf(' ', idAt) + 1;
  const itemAt = line.indexOf(' ', modifiedAt) + 1;
  return {
    change_seq: line.slice(0, idAt - 1),
    id: line.slice(idAt, modifiedAt - 1),
    modified: Number(line.slice(modifiedAt, itemAt - 1)),
    item: line.slice(itemAt),
  };
}

/** The page statement's one row (`__page`: the page; the watermark, total and list state once) and the total. */
async function readPage<T>(
  source: DataSource | EntityManager,
  options: ListPageOptions<T>,
): Promise<{ first: RawRow; total: number }> {
  const { table, selectList, jsonPage, presented, userId, request, filters } = options;
  const params = new SqlParams();
  const where = [`t.user_id = ${params.add(userId)}`];
  if (request.sinceSeq !== undefined) where.push(`t.change_seq > ${params.add(request.sinceSeq)}`);
  if (!request.includeDeleted) where.push('NOT t.deleted');
  where.push(...filters.map((filter) => `(${filter(params.add)})`));
  const whereSql = where.join(' AND ');
  const countParams = params.values.length;
  const pageWhere = request.after
    ? `${whereSql} AND (t.change_seq, t.id) < (${params.add(request.after.changeSeq)}::bigint, ${params.add(request.after.id)}::bigint)`
    : whereSql;
  const offset = request.after ? 0 : request.offset;
  const user = params.add(userId);
  const main =
    presented && request.presentedMain !== undefined ? params.add(request.presentedMain) : undefined;
  const countSql = `SELECT count(*)::int FROM ${table} t WHERE ${whereSql}`;
  const totalSql = request.totalSql ? request.totalSql(user) : !request.totalCache ? countSql : undefined;
  const withCount = totalSql !== undefined;
  const withState = request.withListState === true;
  const rowsOf = pageRowsSql({
    table,
    where: pageWhere,
    rows: request.perPage + 1,
    offset,
    filtered: filters.length > 0,
    add: params.add,
  });
  const rows = await preparedQuery<RawRow>(
    source,
    `WITH meta AS (
         SELECT coalesce(s.change_seq, 0)::text AS __watermark, s.modified_at AS __last_change
                ${withCount ? `, (${totalSql}) AS __total` : ''}
                ${withState ? `, ${LIST_VERSION_SQL} AS __version, u.currency AS __currency, u.custom_rates AS __custom_rates` : ''}
         FROM (SELECT 1) one LEFT JOIN user_sync_state s ON s.user_id = ${user}
              ${withState ? `LEFT JOIN users u ON u.id = ${user}` : ''})
       ${
         presented && jsonPage
           ? `SELECT meta.*, (SELECT string_agg(p.__line, E'\\n') FROM (
                ${rowsOf(`coalesce(${presented(user, main)}, ${keyedLineSql(`${jsonPage.select}::text`)}) AS __line`)}) p) AS __page FROM meta`
           : jsonPage
             ? `SELECT meta.*, (SELECT json_agg(p.__row) FROM (${rowsOf(`${jsonPage.select} AS __row`)}) p) AS __page FROM meta`
             : `SELECT meta.*, p.* FROM meta LEFT JOIN LATERAL (${rowsOf(selectList)}) p ON true`
       }`,
    params.values,
  );
  const first = rows[0];
  if (!jsonPage) first.__rows = rows.filter((row) => row.id !== null);
  const total = withCount
    ? Number(first.__total)
    : await cachedTotal(
        source,
        request.totalCache!,
        String(first.__watermark),
        countSql,
        params.values.slice(0, countParams),
        userId,
      );
  return { first, total };
}

/** The page's watermark, total, last change and list state from the statement's row. */
function pageMeta(first: RawRow, total: number, request: PageRequest) {
  return {
    total,
    watermark: String(first.__watermark),
    lastChange: (first.__last_change as Date | null) ?? undefined,
    listState: request.withListState
      ? toListState({
          version: (first.__version as string | null) ?? 'none',
          currency: (first.__currency as string | null) ?? undefined,
          customRates: first.__custom_rates,
        })
      : undefined,
  };
}

/** The total at `watermark`: cached, or counted (and cached when no write slipped in meanwhile). */
async function cachedTotal(
  source: DataSource | EntityManager,
  cache: TotalCountCache,
  watermark: string,
  countSql: string,
  countValues: unknown[],
  userId: string,
): Promise<number> {
  const cached = await cache.get(watermark).catch(() => undefined);
  if (cached !== undefined) return cached;
  const userParam = `$${countValues.length + 1}`;
  const [row]: RawRow[] = await source.query(
    `SELECT (${countSql}) AS total,
              coalesce((SELECT change_seq FROM user_sync_state WHERE user_id = ${userParam}), 0)::text AS watermark`,
    [...countValues, userId],
  );
  const total = Number(row.total);
  if (String(row.watermark) === watermark) await cache.set(watermark, total).catch(() => undefined);
  return total;
}

/** Compares two non-negative integers given as decimal text without leading zeros (bigint columns read as text). */
function compareDecimal(a: string, b: string): number {
  return a.length !== b.length ? a.length - b.length : a < b ? -1 : a > b ? 1 : 0;
}

/** Newest change first, then highest id: the page's order. */
function pageOrder(a: RawRow, b: RawRow): number {
  return (
    compareDecimal(String(b.change_seq), String(a.change_seq)) || compareDecimal(String(b.id), String(a.id))
  );
}

/**
 * The page's rows in the page's order. The statement leaves out an outer ORDER BY over the lateral page (sorting
 * its wide rows again took Postgres 0.4-1.5 ms of the page's 0.2 ms plan: EXPLAIN ANALYZE at 1,000,000
 * entries, issue 13): the nested loop over one `meta` row yields the page in its own ORDER BY in practice, but
 * SQL does not promise it, so the order is checked here (one pass) and sorted only if it ever differs.
 */
function inPageOrder<Row extends RawRow>(rows: Row[]): Row[] {
  for (let index = 1; index < rows.length; index += 1) {
    if (pageOrder(rows[index - 1], rows[index]) > 0) return rows.sort(pageOrder);
  }
  return rows;
}
