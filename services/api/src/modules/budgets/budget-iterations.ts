import type { BudgetRecurrence } from '@pfs/resource-store';

/** One iteration of a budget: `index` 0 is the first; -1 is the same-length period just before `start`. */
export interface Iteration {
  index: number;
  from: string;
  to: string;
}

const DAY_MS = 86_400_000;
const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / DAY_MS;
const dateOf = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);
const daysInMonth = (month: number) =>
  new Date(Date.UTC(Math.floor(month / 12), (month % 12) + 1, 0)).getUTCDate();

/**
 * The calendar a recurrence steps through, in "units": days for daily and weekly budgets, month periods
 * for monthly and yearly ones. A month period starts on the anchor day (`bymonthday` when set, else the
 * user's `start_day`; clamped to the month's last day, so 31 means "the last day" in short months).
 */
interface UnitCalendar {
  unitOf(date: string): number;
  startOf(unit: number): number;
  /** Units per iteration. */
  step: number;
}

function monthCalendar(anchorDay: number, step: number): UnitCalendar {
  const boundary = (month: number) => Math.min(anchorDay, daysInMonth(month));
  return {
    step,
    unitOf: (date) => {
      const month = Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7)) - 1;
      return Number(date.slice(8, 10)) >= boundary(month) ? month : month - 1;
    },
    startOf: (month) => Date.UTC(Math.floor(month / 12), month % 12, boundary(month)) / DAY_MS,
  };
}

function calendarOf(recurrence: BudgetRecurrence, startDay: number): UnitCalendar {
  const days = (step: number): UnitCalendar => ({ step, unitOf: dayNumber, startOf: (unit) => unit });
  const monthDay = Number(recurrence.bymonthday);
  const anchor = Number.isInteger(monthDay) && monthDay >= 1 && monthDay <= 31 ? monthDay : startDay;
  switch (recurrence.frequency) {
    case 'daily':
      return days(recurrence.interval);
    case 'weekly':
      return days(7 * recurrence.interval);
    case 'monthly':
      return monthCalendar(anchor, recurrence.interval);
    case 'yearly':
      return monthCalendar(anchor, 12 * recurrence.interval);
    default:
      // one-time: a single iteration from start to end.
      return days(dayNumber(recurrence.end ?? recurrence.start) - dayNumber(recurrence.start) + 1);
  }
}

/**
 * Iterations of a budget. Iteration 0 runs from `start` to the day before the next period boundary; each
 * later one covers `interval` whole periods; the last is cut at `end`. So iterations cover start…end without
 * gaps. Daily and weekly periods are counted from `start`; monthly and yearly ones follow the month start.
 */
export class BudgetCalendar {
  private readonly calendar: UnitCalendar;
  private readonly firstUnit: number;

  constructor(
    private readonly recurrence: BudgetRecurrence,
    startDay: number,
  ) {
    this.calendar = calendarOf(recurrence, startDay);
    this.firstUnit = this.calendar.unitOf(recurrence.start);
  }

  /** Iteration `index` (≥ -1), or undefined past the end (or past 0 for one-time budgets). */
  at(index: number): Iteration | undefined {
    const { start, end, frequency } = this.recurrence;
    if (index > 0 && frequency === 'one-time') return undefined;
    const unitStart = (k: number) => this.calendar.startOf(this.firstUnit + k * this.calendar.step);
    if (index === -1 && (frequency === 'one-time' || dayNumber(start) !== unitStart(0))) {
      // "The iteration before" iteration 0 (what a delta budget's first limit counts): when `start` falls
      // mid-period, the span of iteration 0's length just before `start` (docs/budgets.md); on a period
      // boundary, simply the period before.
      const first = this.at(0)!;
      const length = dayNumber(first.to) - dayNumber(first.from) + 1;
      return { index, from: dateOf(dayNumber(start) - length), to: dateOf(dayNumber(start) - 1) };
    }
    const from = index === 0 ? dayNumber(start) : unitStart(index);
    if (index > 0 && end && from > dayNumber(end)) return undefined;
    let to = index === -1 ? dayNumber(start) - 1 : unitStart(index + 1) - 1;
    if (index >= 0 && end) to = Math.min(to, dayNumber(end));
    return { index, from: dateOf(from), to: dateOf(to) };
  }

  /** The index of the iteration holding `date` (any date at or after `start`). */
  indexOf(date: string): number {
    return Math.floor((this.calendar.unitOf(date) - this.firstUnit) / this.calendar.step);
  }

  /** The iteration holding `date`, if any. */
  covering(date: string): Iteration | undefined {
    if (date < this.recurrence.start || (this.recurrence.end && date > this.recurrence.end)) return undefined;
    return this.at(this.indexOf(date));
  }

  /** How many iterations overlap [from, to], and the first one's index. */
  rangeOf(from: string, to: string): { first: number; count: number } {
    const { start, end } = this.recurrence;
    const last = end && end < to ? end : to;
    if (last < start || (end && from > end)) return { first: 0, count: 0 };
    const first = from <= start ? 0 : this.indexOf(from);
    return { first, count: this.indexOf(last) - first + 1 };
  }
}
