import type { BudgetRecurrence } from '@pfs/resource-store';
import { BudgetCalendar } from '../../src/modules/budgets/budget-iterations';

const calendar = (recurrence: Partial<BudgetRecurrence>, startDay = 1) =>
  new BudgetCalendar({ frequency: 'monthly', interval: 1, start: '2025-05-01', ...recurrence }, startDay);

describe('BudgetCalendar', () => {
  it('when a monthly budget follows start_day 15, then iterations run from the 15th to the 14th', () => {
    const months = calendar({ start: '2025-05-15' }, 15);
    expect(months.at(0)).toEqual({ index: 0, from: '2025-05-15', to: '2025-06-14' });
    expect(months.at(1)).toEqual({ index: 1, from: '2025-06-15', to: '2025-07-14' });
    expect(months.at(-1)).toEqual({ index: -1, from: '2025-04-15', to: '2025-05-14' });
    expect(months.covering('2025-07-14')?.index).toBe(1);
    expect(months.covering('2025-07-15')?.index).toBe(2);
    expect(months.covering('2025-05-14')).toBeUndefined();
  });

  it('when a monthly budget starts mid-period, then its first iteration is cut to start there', () => {
    const months = calendar({ start: '2025-05-20' }, 15);
    expect(months.at(0)).toEqual({ index: 0, from: '2025-05-20', to: '2025-06-14' });
    expect(months.at(1)?.from).toBe('2025-06-15');
    // The period before a mid-period start has iteration 0's length (26 days), not the calendar month's.
    expect(months.at(-1)).toEqual({ index: -1, from: '2025-04-24', to: '2025-05-19' });
  });

  it('when the month start is 31, then short months start on their last day', () => {
    const months = calendar({ start: '2025-01-31' }, 31);
    expect(months.at(0)).toEqual({ index: 0, from: '2025-01-31', to: '2025-02-27' });
    expect(months.at(1)).toEqual({ index: 1, from: '2025-02-28', to: '2025-03-30' });
    expect(months.at(2)).toEqual({ index: 2, from: '2025-03-31', to: '2025-04-29' });
  });

  it('when bymonthday is set, then it wins over start_day; interval 2 spans two months', () => {
    const months = calendar({ start: '2025-05-10', bymonthday: '10', interval: 2 }, 1);
    expect(months.at(0)).toEqual({ index: 0, from: '2025-05-10', to: '2025-07-09' });
    expect(months.at(1)).toEqual({ index: 1, from: '2025-07-10', to: '2025-09-09' });
  });

  it('when weekly or daily, then periods count from start; yearly follows the month start', () => {
    const weeks = calendar({ frequency: 'weekly', interval: 2, start: '2025-05-05' });
    expect(weeks.at(0)).toEqual({ index: 0, from: '2025-05-05', to: '2025-05-18' });
    expect(weeks.at(3)).toEqual({ index: 3, from: '2025-06-16', to: '2025-06-29' });
    const days = calendar({ frequency: 'daily', interval: 3, start: '2025-05-05' });
    expect(days.covering('2025-05-10')).toEqual({ index: 1, from: '2025-05-08', to: '2025-05-10' });
    const years = calendar({ frequency: 'yearly', start: '2025-03-01' }, 1);
    expect(years.at(1)).toEqual({ index: 1, from: '2026-03-01', to: '2027-02-28' });
  });

  it('when one-time, then one iteration from start to end, and the period before has the same length', () => {
    const once = calendar({ frequency: 'one-time', start: '2025-05-01', end: '2025-05-10' });
    expect(once.at(0)).toEqual({ index: 0, from: '2025-05-01', to: '2025-05-10' });
    expect(once.at(1)).toBeUndefined();
    expect(once.at(-1)).toEqual({ index: -1, from: '2025-04-21', to: '2025-04-30' });
  });

  it('when an end is set, then the last iteration is cut at it and none follows', () => {
    const months = calendar({ start: '2025-05-01', end: '2025-06-10' });
    expect(months.at(1)).toEqual({ index: 1, from: '2025-06-01', to: '2025-06-10' });
    expect(months.at(2)).toBeUndefined();
    expect(months.rangeOf('2025-01-01', '2025-12-31')).toEqual({ first: 0, count: 2 });
    expect(months.rangeOf('2025-06-05', '2025-12-31')).toEqual({ first: 1, count: 1 });
    expect(months.rangeOf('2025-07-01', '2025-12-31').count).toBe(0);
    expect(months.rangeOf('2025-01-01', '2025-04-30').count).toBe(0);
  });
});
