import { inputError } from '@pfs/errors';
import type { Actor, Entry, RepeatRepository, RepeatSeries, UserChange, UserRead } from '@pfs/resource-store';
import type { EntryDraft } from '../entries/entry-draft';
import { EntryWriter } from '../entries/entry-writer';
import type { LedgerDeps } from '../../ledger-deps';
import { addDays, dateOfIteration, occurrenceDates, type RepeatRule } from './repeat-rule';
import { accountsOf, draftFromTemplate, templateOf } from './repeat-template';
import { todayIn } from '../../http/user-today';

/** The most past occurrences one POST (or rule change) creates: a series started long ago is refused. */
export const MAX_OCCURRENCES_PER_WRITE = 1000;
/** The most occurrences the materializer creates for one series in one run; the rest follow next run. */
export const MAX_OCCURRENCES_PER_RUN = 500;

/** The user's today (their timezone, else UTC). */
export async function userToday(repeats: RepeatRepository, read: UserRead, now?: Date): Promise<string> {
  return todayIn(await repeats.findTimezone(read), now);
}

/**
 * Creates the occurrences of a series that are due by `today` and not yet handled (iteration 0 always:
 * a new series shows its first entry even when it starts in the future), then records how far it got.
 * Runs inside the caller's change; the writer has the template's accounts loaded.
 */
export async function materializeSeries(
  deps: LedgerDeps,
  writer: EntryWriter,
  change: UserChange,
  series: RepeatSeries,
  today: string,
  limit: number,
  /** What only the posted occurrence (iteration 0) has: its own `completed` and images. */
  first?: Pick<EntryDraft, 'completed' | 'images'>,
): Promise<Entry[]> {
  const through = series.nextIteration === 0 && series.rule.start > today ? series.rule.start : today;
  const dates = occurrenceDates(series.rule, { through, limit: series.nextIteration + limit });
  const created: Entry[] = [];
  for (let iteration = series.nextIteration; iteration < dates.length; iteration++) {
    const draft = draftFromTemplate(series.template, dates[iteration]);
    if (iteration === 0 && first) Object.assign(draft, first);
    const entry = await writer.insert(draft);
    await deps.repeats.link(change, entry.id, series.id, iteration);
    created.push({ ...entry, repeatId: series.id, iteration });
  }
  await saveProgress(deps, change, series, {
    next: Math.max(series.nextIteration, dates.length),
    today,
    firstEntryId: created[0]?.id,
  });
  return created;
}

/** Records the next iteration to create and its date (null when the rule has ended). */
export async function saveProgress(
  deps: LedgerDeps,
  change: UserChange,
  series: RepeatSeries,
  progress: { next: number; today: string; firstEntryId?: string },
): Promise<void> {
  const { next: nextIteration, today, firstEntryId } = progress;
  series.nextIteration = nextIteration;
  series.nextDate = series.deleted ? null : dateOfIteration(series.rule, nextIteration, today);
  if (!series.firstEntryId && firstEntryId) series.firstEntryId = firstEntryId;
  await deps.repeats.save(change, series);
}

/** Refuses a rule that would create more than MAX_OCCURRENCES_PER_WRITE past occurrences at once. */
export function assertBoundedBacklog(rule: RepeatRule, fromIteration: number, today: string): void {
  const due = occurrenceDates(rule, { through: today, limit: fromIteration + MAX_OCCURRENCES_PER_WRITE + 1 });
  if (due.length - fromIteration > MAX_OCCURRENCES_PER_WRITE) {
    throw inputError([
      {
        field: 'repeat.start',
        error: `would create more than ${MAX_OCCURRENCES_PER_WRITE} past occurrences at once; start later`,
      },
    ]);
  }
}

/**
 * `POST /entries` with `repeat`: the series and its occurrences due by the user's today, in one change.
 * Answers the occurrences created, iteration 0 first.
 */
export async function createRepeatingEntry(
  deps: LedgerDeps,
  change: UserChange,
  draft: EntryDraft,
  rule: RepeatRule,
  now?: Date,
): Promise<Entry[]> {
  const writer = new EntryWriter(deps, change);
  await writer.loadAccounts([draft.account, ...(draft.transaction ? [draft.transaction.account] : [])]);
  const errors = await writer.checkReferences([{ draft, prefix: '' }]);
  if (errors.length) throw inputError(errors);
  const today = await userToday(deps.repeats, change, now);
  assertBoundedBacklog(rule, 0, today);
  const series = await deps.repeats.insert(change, { rule, template: templateOf(draft) });
  return materializeSeries(deps, writer, change, series, today, MAX_OCCURRENCES_PER_WRITE, {
    completed: draft.completed,
    images: draft.images,
  });
}

export interface MaterializeOptions {
  /** Series read per query. */
  batchSize?: number;
  /** Queries per run: bounds one run's work; what is left is picked up by the next run. */
  maxBatches?: number;
  /** Logs a series that cannot be materialized (an account deleted since, a missing rate). */
  onError?: (seriesId: string, error: unknown) => void;
  /** Only these users' series (a one-user backfill; tests that must not touch other tests' users). */
  onlyUsers?: string[];
}

/**
 * Creates every occurrence that has become due since it was last looked at, for every user. `today` is a
 * date (every user's today, for tests) or an instant (each user's today in their timezone; default now).
 * Safe to run concurrently and repeatedly: each series is locked while it is extended, only iterations at
 * or after its `next_iteration` are created, and (repeat_id, iteration) is unique among live entries.
 */
export async function materializeDueRepeats(
  deps: LedgerDeps,
  today: string | Date = new Date(),
  options: MaterializeOptions = {},
): Promise<{ series: number; created: number }> {
  const batchSize = options.batchSize ?? 100;
  const maxBatches = options.maxBatches ?? 20;
  const dueOn = typeof today === 'string' ? today : await zoneDays(deps, today);
  let afterId = '0';
  let seriesCount = 0;
  let created = 0;
  for (let batch = 0; batch < maxBatches; batch++) {
    const due = await deps.repeats.findDue({
      today: dueOn,
      afterId,
      limit: batchSize,
      onlyUsers: options.onlyUsers,
    });
    for (const { id, userId } of due) {
      try {
        const made = await materializeOne(deps, { userId }, id, today);
        if (made > 0) seriesCount++;
        created += made;
      } catch (error) {
        options.onError?.(id, error);
      }
    }
    if (due.length < batchSize) break;
    afterId = due[due.length - 1].id;
  }
  return { series: seriesCount, created };
}

/** Today in each time zone of users with a possibly due series ('' for users without a zone: UTC). */
async function zoneDays(deps: LedgerDeps, now: Date): Promise<Map<string, string>> {
  // Zones run up to 14 hours ahead of UTC: a series may be due for its user on UTC's tomorrow.
  const through = addDays(now.toISOString().slice(0, 10), 1);
  const zones = await deps.repeats.findDueTimezones(through);
  return new Map(zones.map((zone) => [zone, todayIn(zone || null, now)]));
}

async function materializeOne(
  deps: LedgerDeps,
  actor: Actor,
  seriesId: string,
  today: string | Date,
): Promise<number> {
  // Claiming a change (and the user's write lock) only when something is due: a pass that finds nothing
  // to do must not move the user's sync watermark.
  const read = deps.store.read(actor);
  const userDay = typeof today === 'string' ? today : await userToday(deps.repeats, read, today);
  const [peek] = await deps.repeats.findByIds(read, [seriesId]);
  if (!peek || peek.deleted || !peek.nextDate || peek.nextDate > userDay) return 0;
  return deps.store.change(actor, async (change) => {
    const series = await deps.repeats.lock(change, seriesId);
    if (!series || series.deleted || !series.nextDate || series.nextDate > userDay) return 0;
    const writer = new EntryWriter(deps, change);
    await writer.loadAccounts(accountsOf(series.template));
    if (!(await repairTemplate(writer, series))) {
      series.deleted = true;
      await saveProgress(deps, change, series, { next: series.nextIteration, today: userDay });
      return 0;
    }
    const made = await materializeSeries(deps, writer, change, series, userDay, MAX_OCCURRENCES_PER_RUN);
    return made.length;
  });
}

/**
 * The user may have deleted what the template names since the series began. A deleted category or tag is
 * dropped from the template (as it was from the stored entries); a deleted account ends the series
 * (answers false): its entries went with the account.
 */
async function repairTemplate(writer: EntryWriter, series: RepeatSeries): Promise<boolean> {
  const probe = draftFromTemplate(series.template, series.nextDate ?? series.rule.start);
  const errors = await writer.checkReferences([{ draft: probe, prefix: '' }]);
  if (errors.some((error) => error.field === 'account' || error.field === 'transaction.account'))
    return false;
  if (errors.some((error) => error.field === 'category')) delete series.template.category;
  const badTags = new Set(
    errors
      .filter((error) => error.field.startsWith('tags.'))
      .map((error) => probe.tags[Number(error.field.slice(5))]),
  );
  if (badTags.size) series.template.tags = probe.tags.filter((tag) => !badTags.has(tag));
  return true;
}
