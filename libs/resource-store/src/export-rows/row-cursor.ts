import QueryStream from 'pg-query-stream';
import type { DataSource } from 'typeorm';

/** One exported row: money and other numerics arrive as exact decimal strings. */
export type ExportCell = string | number | boolean | null;
export type ExportRow = Record<string, ExportCell>;

/** Rows fetched per round trip: large enough to be fast, small enough to keep memory flat. */
const BATCH_SIZE = 2_000;

interface PgClient {
  query(stream: QueryStream): QueryStream;
}

/**
 * Streams the rows of one query through a server-side cursor (pg-query-stream) on a connection of the
 * data source's pool. Back-pressure holds: the next batch is fetched only when the consumer asks, and the
 * connection is taken only when the consumer starts reading.
 */
export async function* streamRows<Row = ExportRow>(
  source: DataSource,
  sql: string,
  params: unknown[],
): AsyncGenerator<Row> {
  const runner = source.createQueryRunner('slave');
  const client = (await runner.connect()) as PgClient;
  try {
    const stream = client.query(new QueryStream(sql, params, { batchSize: BATCH_SIZE }));
    try {
      for await (const row of stream) yield row as Row;
    } finally {
      stream.destroy();
    }
  } finally {
    await runner.release();
  }
}
