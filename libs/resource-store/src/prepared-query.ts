import { createHash } from 'node:crypto';
import { Query } from 'pg';
import type { DataSource, EntityManager } from 'typeorm';

/**
 * Hot statements as named prepared statements, on the data sources that allow them (DATABASE_PREPARED_STATEMENTS).
 *
 * Why: pg sends every parameterised query as an unnamed statement, so Postgres parses and plans it again on every
 * call. For the reads a request makes on every hit (the list state behind every stored page, the page statement of
 * every list) planning is most of the server's work: measured on the bench database at 1,000,000 entries, the list
 * state read costs the backend 150 µs of CPU unnamed and 45 µs named (the client 70 → 47 µs), while its execution
 * alone is about 25 µs. A named statement is parsed once per connection and, after five runs, planned once
 * (PostgreSQL's generic plan).
 *
 * Named statements live on the server connection, so a pooler that hands each transaction another connection
 * (PgBouncer in transaction mode before 1.21) breaks them: the data sources opened for such a setup do not prepare
 * (the default `auto` prepares unless DATABASE_DIRECT_URL says DATABASE_URL is a pooler). Statement texts are
 * bounded (each call site builds its text from a fixed set of shapes); past MAX_NAMED distinct texts in a process,
 * further ones run unnamed, so a connection never holds more than that many.
 */
const MAX_NAMED = 500;
const preparing = new WeakSet<DataSource>();
const names = new Map<string, string>();

/** A pg `Pool` or pooled `Client`: both take a submittable query and a callback. */
interface PgQueryable {
  query(
    query: Query,
    values: undefined,
    callback: (error: Error | undefined, result: { rows: Record<string, unknown>[] }) => void,
  ): void;
}

/** Lets `preparedQuery` prepare on `dataSource` (set once when it is opened). */
export function allowPreparedStatements(dataSource: DataSource): void {
  preparing.add(dataSource);
}

/** A prepared statement's name for `text`: `prefix` and a hash of the text, so two texts (or versions) never share one. */
export function statementName(prefix: string, text: string): string {
  return `${prefix}_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
}

function nameOf(text: string): string | undefined {
  const known = names.get(text);
  if (known !== undefined || names.size >= MAX_NAMED) return known;
  const name = statementName('pfs', text);
  names.set(text, name);
  return name;
}

function dataSourceOf(source: DataSource | EntityManager): DataSource {
  return 'driver' in source ? source : source.connection;
}

/**
 * `source.query(text, values)`, as a named prepared statement when the data source allows it. Inside a
 * transaction (an EntityManager bound to a query runner) it runs on that transaction's connection.
 */
export async function preparedQuery<Row = Record<string, unknown>>(
  source: DataSource | EntityManager,
  text: string,
  values: unknown[],
): Promise<Row[]> {
  const dataSource = dataSourceOf(source);
  const name = preparing.has(dataSource) ? nameOf(text) : undefined;
  if (name === undefined) return source.query(text, values);
  const runner = (source as EntityManager).queryRunner;
  const connection: PgQueryable = runner
    ? await (runner as unknown as { connect(): Promise<PgQueryable> }).connect()
    : (dataSource.driver as unknown as { master: PgQueryable }).master;
  const result = await new Promise<{ rows: Record<string, unknown>[] }>((resolve, reject) =>
    connection.query(namedQuery(name, text, values), undefined, (error, answer) =>
      error ? reject(error) : resolve(answer),
    ),
  ).catch((error: Error) => {
    // As pg's own promise does: the stack leads back to the caller, not to the socket's read.
    Error.captureStackTrace(error);
    throw error;
  });
  return result.rows as Row[];
}

/**
 * pg's own `Query` for a named statement, built from its text: pg 8.23 copies a config object (`{ name, text,
 * values }`) through property descriptors on every query (`cloneQueryConfig`: 2.2% of a refresh grant's samples,
 * about 3-6 µs of client CPU a statement: docs/bench.md, session 9), but not a text, and takes a ready `Query` as it is.
 */
function namedQuery(name: string, text: string, values: unknown[]): Query {
  const query = new Query(text, values);
  (query as Query & { name: string }).name = name;
  return query;
}
