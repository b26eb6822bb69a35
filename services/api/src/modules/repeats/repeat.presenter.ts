import { compact } from '@pfs/resource-api';
import type { Entry, RepeatSeries } from '@pfs/resource-store';

/** `entry.repeat` of an occurrence: the series' rule and which occurrence this is. */
export function presentRepeat(series: RepeatSeries, iteration: number | null): Record<string, unknown> {
  const rule = series.rule;
  return compact({
    id: series.id,
    start: rule.start,
    end: rule.end,
    count: rule.count,
    frequency: rule.frequency,
    interval: rule.interval,
    byday: rule.byday,
    bymonthday: rule.bymonthday,
    bysetpos: rule.bysetpos,
    iteration: iteration ?? undefined,
    // Occurrences are ordinary entries; the template lives with the series, never as an entry.
    template: false,
    type: rule.type,
    // Every due occurrence is created by the server, so none is ever missing.
    status: 'ok',
  });
}

/** The `repeat` of each occurrence among `entries`, by entry id, from the series given. */
export function repeatsOf(entries: Entry[], series: RepeatSeries[]): Map<string, Record<string, unknown>> {
  const byId = new Map(series.map((one) => [one.id, one]));
  const out = new Map<string, Record<string, unknown>>();
  for (const entry of entries) {
    const one = entry.repeatId ? byId.get(entry.repeatId) : undefined;
    if (one) out.set(entry.id, presentRepeat(one, entry.iteration));
  }
  return out;
}
