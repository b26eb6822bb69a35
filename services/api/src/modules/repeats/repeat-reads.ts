import type { Entry, RepeatRepository, UserRead } from '@pfs/resource-store';
import { repeatsOf } from './repeat.presenter';

/** The presented `repeat` of each occurrence among `entries` (one query, none when no entry repeats). */
export async function seriesOf(
  repeats: RepeatRepository,
  read: UserRead,
  entries: Entry[],
): Promise<Map<string, Record<string, unknown>>> {
  const ids = entries.flatMap((entry) => (entry.repeatId ? [entry.repeatId] : []));
  if (!ids.length) return new Map();
  return repeatsOf(entries, await repeats.findByIds(read, ids));
}
