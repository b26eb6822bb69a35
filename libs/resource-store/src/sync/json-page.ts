import type { RawRow } from './sync-types';

/** One column of a page read as JSON: the name `toRecord` reads it by and its SQL over alias `t`. */
export type JsonColumn = readonly [name: string, expression: string];

/**
 * The common columns (resource-table.ts's `selectList`) as JSON that reads back exactly: bigints as text, the
 * two timestamps as epoch milliseconds (floored: what pg's own parser keeps of a microsecond fraction).
 */
const COMMON_COLUMNS: readonly JsonColumn[] = [
  ['id', 't.id::text'],
  ['created_at', `floor(extract(epoch FROM t.created_at) * 1000)`],
  ['modified_at', `floor(extract(epoch FROM t.modified_at) * 1000)`],
  ['change_seq', 't.change_seq::text'],
  ['deleted', 't.deleted'],
  ['extra', 't.extra'],
];

/**
 * A list page read as ONE JSON value (`json_agg` of one `json_build_array` a row) instead of 200 rows of 20-odd
 * columns: pg decodes and parses one text with one JSON.parse instead of 4,000-odd column values (pg's row
 * parsing was a third of the API's CPU on a cold page of 200 entries, bench profile, issue 13: statement
 * micro-benchmark at 1,000,000 entries, 1,830 -> 940 µs of API CPU). `rowOf` gives back the row `toRecord`
 * reads (same names, same values as pg's row: the expressions must make every value's JSON exact).
 */
export interface JsonPage {
  /** `json_build_array(...)` over alias `t`. */
  select: string;
  rowOf(values: unknown[]): RawRow;
}

/**
 * The JSON page of a table whose own `columns` (ResourceTableOptions) are `jsonColumns` again, same names in
 * the same order, as expressions whose JSON reads back exactly (bigints and numerics as text).
 */
export function jsonPageOf(
  table: string,
  columns: readonly string[],
  jsonColumns: readonly JsonColumn[],
): JsonPage {
  if (jsonColumns.map(([name]) => name).join() !== columns.map(columnName).join()) {
    throw new Error(`${table}: jsonColumns must name its columns, in their order`);
  }
  const all = [...COMMON_COLUMNS, ...jsonColumns];
  return {
    select: `json_build_array(${all.map(([, expression]) => expression).join(', ')})`,
    rowOf: rowBuilder(all.map(([name]) => name)),
  };
}

/** The common columns sent as epoch milliseconds. */
const TIMESTAMPS = new Set(['created_at', 'modified_at']);

/**
 * `values` as the row of `names` (the two timestamps as Dates), by one object literal compiled once per table:
 * V8 gives it one fixed shape, where a loop of keyed stores into `{}` (or into a copy of a template) went through
 * its slow property paths. Micro-benchmark, a page of 201 entries: loop 473 µs, template copy 331 µs, compiled
 * literal 83 µs (issue 13). The names are the tables' own column names, quoted as JSON strings: never input.
 */
function rowBuilder(names: readonly string[]): (values: unknown[]) => RawRow {
  const fields = names.map((name, index) => {
    const value = TIMESTAMPS.has(name) ? `new Date(values[${index}])` : `values[${index}]`;
    return `${JSON.stringify(name)}: ${value}`;
  });
  return new Function('values', `return { ${fields.join(', ')} };`) as (values: unknown[]) => RawRow;
}

/** The name a `columns` item of ResourceTableOptions is read by (`date::text AS date` -> `date`). */
function columnName(column: string): string {
  const alias = / AS (\w+)$/i.exec(column);
  return alias ? alias[1] : column;
}
