import type { Pool, PoolClient } from 'pg';
import type { DataSource } from 'typeorm';
import type { ReadRouting } from '../replica/read-routing';

/** One exported row: money and other numerics arrive as exact decimal strings. */
export type ExportCell = string | number | boolean | null;
export type ExportRow = Record<string, ExportCell>;

/** Rows fetched per round trip: large enough to be fast, small enough to keep memory flat. */
const BATCH_SIZE = 2_000;
const CURSOR = 'pfs_export_rows';

/**
 * Streams the rows of one query, one array per batch, through a SQL cursor (`DECLARE … NO SCROLL CURSOR`,
 * then `FETCH` per batch) in a read-only transaction on a connection of the data source's pg pool.
 * Back-pressure holds: the next batch is fetched only when the consumer asks, and the connection is taken
 * only when the consumer starts reading.
 *
 * Why not a protocol-level portal (pg-query-stream, pg-cursor): PostgreSQL times a portal read by repeated
 * Execute messages as one statement, from its first Execute to its end, so `statement_timeout` bounded the
 * whole export, consumer included (an XLSX of a million rows died at 30 s and retried forever). Each
 * `FETCH` is its own statement: the timeout, server-side and pg's client-side `query_timeout`, still ends one
 * stuck fetch, but no longer a long export that is merely slow to consume.
 */
export async function* streamRowBatches<Row = ExportRow>(
  source: DataSource,
  sql: string,
  params: unknown[],
): AsyncGenerator<Row[]> {
  // The pool itself, not a TypeORM query runner: only pg's release(error) can drop a broken connection.
  const pool = (source.driver as unknown as { master: Pool }).master;
  const client = await pool.connect();
  let failure: Error | undefined;
  try {
    await client.query('BEGIN READ ONLY');
    // A cursor's plan is tuned by default for the first 10 % of rows; an export reads them all.
    await client.query('SET LOCAL cursor_tuple_fraction = 1');
    await client.query(`DECLARE ${CURSOR} NO SCROLL CURSOR FOR ${sql}`, params);
    // One batch is fetched ahead while the consumer handles the current one (a round trip hidden per batch).
    let next = fetchBatch(client);
    for (;;) {
      const rows = await next;
      const last = rows.length < BATCH_SIZE;
      if (!last) next = fetchBatch(client);
      yield rows as Row[];
      if (last) break;
    }
  } catch (error) {
    failure = error as Error;
    throw error;
  } finally {
    // Also reached when the consumer stops early (break, or an error downstream): the cursor ends with
    // its transaction. After a failure the connection is not trusted (a client-side timeout leaves the
    // server busy): released with the error, the pool drops it.
    const rollbackFailure = await endTransaction(client);
    client.release(rollbackFailure ?? failure);
  }
}

function fetchBatch(client: PoolClient): Promise<unknown[]> {
  const batch = client.query(`FETCH ${BATCH_SIZE} FROM ${CURSOR}`).then((result) => result.rows);
  // Its failure is thrown where the batch is awaited; until then (a slow or stopped consumer) it is not unhandled.
  batch.catch(() => undefined);
  return batch;
}

async function endTransaction(client: PoolClient): Promise<Error | undefined> {
  try {
    await client.query('ROLLBACK');
    return undefined;
  } catch (error) {
    return error as Error;
  }
}

/**
 * The rows of one cursor, one by one, or through `batches()` one array per `FETCH`: a consumer of a million
 * rows then pays one await per 2,000 rows instead of one per row (three generator hops a row cost the CSV
 * export about a fifth of its CPU, most of it garbage collection).
 */
export interface RowStream<Row = ExportRow> extends AsyncIterable<Row> {
  batches(): AsyncIterable<Row[]>;
}

function rowStream<Row>(batches: () => AsyncGenerator<Row[]>): RowStream<Row> {
  return {
    batches,
    async *[Symbol.asyncIterator]() {
      for await (const batch of batches()) yield* batch;
    },
  };
}

/** streamRowBatches, row by row or batch by batch (RowStream). */
export function streamRows<Row = ExportRow>(
  source: DataSource,
  sql: string,
  params: unknown[],
): RowStream<Row> {
  return rowStream(() => streamRowBatches<Row>(source, sql, params));
}

/**
 * streamRows on the source `routing` picks for `walPosition` (a replica that has replayed that far, else the
 * primary), chosen when the consumer starts reading.
 */
export function streamRowsAfter<Row = ExportRow>(
  routing: ReadRouting,
  walPosition: string | null | undefined,
  sql: string,
  params: unknown[],
): RowStream<Row> {
  return rowStream(async function* () {
    yield* streamRowBatches<Row>(await routing.sourceAfter(walPosition), sql, params);
  });
}
