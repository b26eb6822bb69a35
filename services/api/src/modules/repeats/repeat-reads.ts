import type { Entry } from '@pfs/resource-store';
import type { DataSource } from 'typeorm';
import { repeatsOf } from './repeat.presenter';
import { repeats } from './repeat-series.use-case';

/** The presented `repeat` of each occurrence among `entries` (one query, none when no entry repeats). */
export async function seriesOf(
  source: DataSource,
  userId: string,
  entries: Entry[],
): Promise<Map<string, Record<string, unknown>>> {
  const ids = entries.flatMap((entry) => (entry.repeatId ? [entry.repeatId] : []));
  if (!ids.length) return new Map();
  return repeatsOf(entries, await repeats.findByIds(source, userId, ids));
}
