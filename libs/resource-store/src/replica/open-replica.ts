import type { DataSource, EntitySchema, MixedList } from 'typeorm';
import { DatabaseTimeouts, openDataSource } from '../data-source';

/**
 * The pool of the streaming replica (DATABASE_READ_URL) when one is configured: no migration (a replica
 * replays the primary's schema), same timeouts as the primary's pool.
 */
export async function openReplica(options: {
  url: string | undefined;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  entities: MixedList<Function | string | EntitySchema>;
  applicationName: string;
  timeouts?: DatabaseTimeouts;
  /** As the primary's (preparedStatementsWanted). */
  preparedStatements?: boolean;
}): Promise<DataSource | undefined> {
  if (!options.url) return undefined;
  return openDataSource({ ...options, url: options.url });
}
