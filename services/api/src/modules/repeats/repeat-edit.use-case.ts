import { inputError } from '@pfs/errors';
import { formatAmount } from '@pfs/money';
import type { Actor, Entry, RepeatSeries } from '@pfs/resource-store';
import type { EntryDraft } from '../entries/entry-draft';
import { EntryWriter } from '../entries/entry-writer';
import type { LedgerDeps } from '../../ledger-deps';
import { addDays, dateOfIteration, occurrenceDates, type RepeatRule, sameRule } from './repeat-rule';
import {
  MAX_OCCURRENCES_PER_WRITE,
  materializeSeries,
  saveProgress,
  userToday,
} from './repeat-series.use-case';
import { accountsOf, draftFromTemplate, type RepeatTemplate, templateOf } from './repeat-template';
import { removeWithCompanions, type SeriesContext } from './repeat-context';
import { applyEntryUpdate, type UpdateEntryOptions, writeInStep } from '../entries/update-entry.use-case';

/** Which occurrences of a series a write touches: every one, this one, or this one and the later ones. */
export type SeriesScope = 'all' | 'one' | 'tail';
export const SERIES_SCOPES = ['all', 'one', 'tail'] as const;

/** Ends a series: after a date (inclusive) or after a number of occurrences. */
export type SeriesCut = { date: string } | { count: number };

export interface SeriesEdit {
  scope: SeriesScope;
  /** `repeat` of the body, when it had one (checked here: a PATCH may send only the fields it changes). */
  repeat?: unknown;
  /** Checks a rule with the published schema and the rules it cannot say (`parseRepeatRule`). */
  parseRule: (value: unknown) => RepeatRule;
  patch?: boolean;
  cut?: SeriesCut;
  now?: Date;
}

/**
 * `PUT`/`PATCH /entries/{id}?update=all|one|tail`. The entry itself is written by the ordinary update
 * (merge, 409, transfer); for a series occurrence with `all` or `tail`, its new state then becomes the
 * template of the other occurrences in scope, and a changed rule moves them to the rule's dates. All in
 * the entry's transaction.
 */
export async function updateSeriesEntry(
  deps: LedgerDeps,
  actor: Actor,
  options: UpdateEntryOptions,
  edit: SeriesEdit,
): Promise<Entry> {
  return deps.store.change(actor, async (change) => {
    const writer = new EntryWriter(deps, change);
    const { entry, before, draft } = await applyEntryUpdate(writer, deps, change, options);
    if (!before.repeatId) {
      if (edit.repeat !== undefined || edit.cut) {
        const field =
          edit.repeat !== undefined
            ? 'repeat'
            : 'date' in edit.cut!
              ? 'delete_after_date'
              : 'delete_after_count';
        throw inputError([
          { field, error: 'this entry is not part of a series (POST a new entry with repeat)' },
        ]);
      }
      return entry;
    }
    const today = await userToday(deps.repeats, change, edit.now);
    const context: SeriesContext = { deps, change, writer, today };
    let series = (await deps.repeats.lock(change, before.repeatId))!;
    const rule = readEditedRule(edit, series.rule);
    const ruleChanged = rule !== undefined && !sameRule(rule, series.rule);
    if (edit.scope === 'one') {
      if (ruleChanged)
        throw inputError([
          { field: 'repeat', error: 'changes every occurrence: use update=all or update=tail' },
        ]);
    } else {
      if (draft.date !== before.date && !ruleChanged) {
        throw inputError([
          { field: 'date', error: "a series' dates follow its rule: change repeat.start, or use update=one" },
        ]);
      }
      const template = templateOfEdit(draft, before, series.template);
      series = await rewriteScope(context, series, before, {
        template,
        rule: ruleChanged ? rule : undefined,
        scope: edit.scope,
        edited: entry.id,
        completed: draft.completed,
        images: draft.images,
      });
    }
    if (edit.cut) await cutSeries(context, series, edit.cut);
    const final = await deps.entries.table.findById(change, entry.id);
    return final ?? { ...entry, deleted: true };
  });
}

function readEditedRule(edit: SeriesEdit, current: RepeatRule): RepeatRule | undefined {
  if (edit.repeat === undefined || edit.repeat === null) return undefined;
  const isObject = typeof edit.repeat === 'object' && !Array.isArray(edit.repeat);
  return edit.parseRule(edit.patch && isObject ? { ...current, ...(edit.repeat as object) } : edit.repeat);
}

/**
 * The template an edit leaves. The stored rate of the edited occurrence is the ECB rate of its own date:
 * unless the client changed it, the template keeps what it had (usually no rate: each date's own).
 */
function templateOfEdit(draft: EntryDraft, before: Entry, previous: RepeatTemplate): RepeatTemplate {
  const template = templateOf(draft);
  const rate = draft.currency.rate && formatAmount(draft.currency.rate);
  const samePair = draft.currency.code === before.currency && draft.account === before.accountId;
  if (samePair && rate === before.rate) {
    const kept = (previous.currency as { rate?: string }).rate;
    const { rate: _dropped, ...currency } = template.currency as Record<string, unknown>;
    template.currency = kept ? { ...currency, rate: kept } : currency;
  }
  return template;
}

/**
 * `all` (or `tail` from the first occurrence) rewrites the series in place; `tail` from occurrence k
 * splits it: the series ends the day before k, and k and the later occurrences become a new series
 * (iterations counted from 0 again) with the new template and rule. Answers the series the edited
 * occurrence belongs to afterwards.
 */
async function rewriteScope(
  context: SeriesContext,
  series: RepeatSeries,
  edited: Entry,
  change: {
    template: RepeatTemplate;
    rule?: RepeatRule;
    scope: SeriesScope;
    edited: string;
    completed: boolean;
    images: string[];
  },
): Promise<RepeatSeries> {
  const k = edited.iteration ?? 0;
  if (change.scope === 'all' || k === 0) {
    const rows = await context.deps.repeats.lockOccurrences(context.change, series.id);
    assertBoundedRewrite(rows.length);
    await rewriteSeries(context, series, rows, { ...change, rule: change.rule ?? series.rule });
    return series;
  }
  const splitDate = dateOfIteration(series.rule, k) ?? edited.date;
  const tailRule = tailRuleOf(series.rule, change.rule, k, splitDate);
  const tail = await context.deps.repeats.insert(context.change, {
    rule: tailRule,
    template: change.template,
  });
  const rows = await context.deps.repeats.lockOccurrences(context.change, series.id, k);
  assertBoundedRewrite(rows.length);
  for (const row of rows) {
    row.iteration = row.iteration! - k;
    await context.deps.repeats.link(context.change, row.id, tail.id, row.iteration);
  }
  tail.nextIteration = Math.max(0, series.nextIteration - k);
  tail.firstEntryId = rows[0]?.id ?? null;
  const { count: _count, ...head } = series.rule;
  series.rule = { ...head, end: addDays(splitDate, -1) };
  await saveProgress(context.deps, context.change, series, {
    next: Math.min(series.nextIteration, k),
    today: context.today,
  });
  await context.deps.repeats.touchOccurrences(context.change, series.id);
  await rewriteSeries(context, tail, rows, { ...change, rule: tailRule });
  return tail;
}

/**
 * Each rewritten occurrence is a full entry write (balance, revision, companion): one request rewrites at
 * most MAX_OCCURRENCES_PER_WRITE, like it creates at most that many. A longer series is edited from a later
 * occurrence with `tail`, or one occurrence at a time.
 */
function assertBoundedRewrite(occurrences: number): void {
  if (occurrences > MAX_OCCURRENCES_PER_WRITE) {
    throw inputError([
      {
        field: 'update',
        error: `would rewrite ${occurrences} occurrences (at most ${MAX_OCCURRENCES_PER_WRITE} at once): use update=tail from a later occurrence, or update=one`,
      },
    ]);
  }
}

/** The rule of a split-off tail: the new rule from the split date, or the old one continued from there. */
function tailRuleOf(
  old: RepeatRule,
  changed: RepeatRule | undefined,
  k: number,
  splitDate: string,
): RepeatRule {
  const rule = { ...(changed ?? old) };
  if (!changed || changed.start === old.start) rule.start = splitDate;
  // A count the client left as it was counts the whole series; the tail has k fewer.
  if (rule.count !== undefined && (!changed || changed.count === old.count)) rule.count = rule.count - k;
  if (rule.count !== undefined && rule.count < 1) delete rule.count;
  return rule;
}

/**
 * Puts every given occurrence on its date under `rule` with `template` (each keeps its own `completed` and
 * `images`; the edited one takes the body's), deletes the ones the rule no longer has, then creates the ones now due.
 */
async function rewriteSeries(
  context: SeriesContext,
  series: RepeatSeries,
  rows: Entry[],
  change: {
    template: RepeatTemplate;
    rule: RepeatRule;
    edited: string;
    completed: boolean;
    images: string[];
  },
): Promise<void> {
  const through = change.rule.start > context.today ? change.rule.start : context.today;
  const highest = rows.reduce((max, row) => Math.max(max, row.iteration ?? 0), -1);
  const known = Math.max(highest + 1, series.nextIteration);
  const due = occurrenceDates(change.rule, { through, limit: known + MAX_OCCURRENCES_PER_WRITE + 1 });
  if (due.length - known > MAX_OCCURRENCES_PER_WRITE) {
    throw inputError([
      {
        field: 'repeat.start',
        error: `would create more than ${MAX_OCCURRENCES_PER_WRITE} past occurrences at once`,
      },
    ]);
  }
  await context.writer.loadAccounts(accountsOf(change.template));
  const gone: Entry[] = [];
  for (const row of rows) {
    const iteration = row.iteration ?? 0;
    if (iteration >= due.length) gone.push(row);
    else if (row.id !== change.edited || row.date !== due[iteration]) {
      const completed = row.id === change.edited ? change.completed : row.completed;
      const draft = draftFromTemplate(change.template, due[iteration], completed);
      // Receipts belong to one occurrence, like `completed`: the template never carries them.
      draft.images = row.id === change.edited ? change.images : row.imageIds;
      await rewriteOccurrence(context, row, draft);
    }
  }
  await removeWithCompanions(context, gone);
  series.rule = change.rule;
  series.template = change.template;
  await saveProgress(context.deps, context.change, series, {
    next: Math.min(series.nextIteration, due.length),
    today: context.today,
  });
  await materializeSeries(
    context.deps,
    context.writer,
    context.change,
    series,
    context.today,
    MAX_OCCURRENCES_PER_WRITE,
  );
}

async function rewriteOccurrence(context: SeriesContext, row: Entry, draft: EntryDraft): Promise<void> {
  const companion = row.transactionId
    ? await context.deps.entries.table.findById(context.change, row.transactionId, { forUpdate: true })
    : undefined;
  await writeInStep(context.writer, context.deps, context.change, { current: row, companion, draft });
}

/** Ends a series after a date or a number of occurrences, deleting the occurrences past the end. */
async function cutSeries(context: SeriesContext, series: RepeatSeries, cut: SeriesCut): Promise<void> {
  // A cut only ever shortens: the series' own end or count stays when it comes first.
  const current = series.rule;
  const rule: RepeatRule =
    'date' in cut
      ? { ...current, end: current.end && current.end < cut.date ? current.end : cut.date }
      : { ...current, count: current.count && current.count < cut.count ? current.count : cut.count };
  if ('date' in cut && cut.date < rule.start)
    throw inputError([{ field: 'delete_after_date', error: 'must not be before the series start' }]);
  // Only the occurrences created so far (dated up to today, or the start) can be past the new end.
  const created = rule.start > context.today ? rule.start : context.today;
  const total = occurrenceDates(rule, {
    through: rule.end && rule.end < created ? rule.end : created,
    limit: Math.min(rule.count ?? Infinity, series.nextIteration + 1),
  }).length;
  const rows = await context.deps.repeats.lockOccurrences(context.change, series.id, total);
  await removeWithCompanions(context, rows);
  series.rule = rule;
  await saveProgress(context.deps, context.change, series, {
    next: Math.min(series.nextIteration, total),
    today: context.today,
  });
  await context.deps.repeats.touchOccurrences(context.change, series.id);
}
