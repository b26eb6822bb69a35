import { SchemaRegistry } from '@pfs/resource-api';
import { entriesSchema } from '../../../src/modules/entries/entries.schema';
import { parseRepeatRule } from '../../../src/modules/repeats/repeat-body';
import { dateOfIteration, occurrenceDates, type RepeatRule } from '../../../src/modules/repeats/repeat-rule';

const schemas = new SchemaRegistry();
// Only the validators are used here: the links the app derives from the operations do not matter.
schemas.register({ ...entriesSchema, links: [] });
const readRepeatRule = (value: unknown): RepeatRule => parseRepeatRule(schemas, value);

const rule = (fields: Record<string, unknown>): RepeatRule => readRepeatRule({ interval: 1, ...fields });
const dates = (fields: Record<string, unknown>, through = '2026-12-31', limit = 100) =>
  occurrenceDates(rule(fields), { through, limit });

describe('repeat rule expansion (RFC 5545)', () => {
  it('when a monthly rule is on the 31st, then months without a 31st are skipped', () => {
    expect(dates({ start: '2025-01-31', frequency: 'monthly', count: 4 })).toEqual([
      '2025-01-31',
      '2025-03-31',
      '2025-05-31',
      '2025-07-31',
    ]);
  });

  it('when the last business day is asked with bysetpos, then it is the last weekday of each month', () => {
    expect(
      dates({ start: '2025-01-31', frequency: 'monthly', byday: 'MO,TU,WE,TH,FR', bysetpos: '-1', count: 4 }),
    ).toEqual(['2025-01-31', '2025-02-28', '2025-03-31', '2025-04-30']);
    // May 2025 ends on a Saturday: the last business day is Friday the 30th.
    expect(
      dates({ start: '2025-05-30', frequency: 'monthly', byday: 'MO,TU,WE,TH,FR', bysetpos: -1, count: 2 }),
    ).toEqual(['2025-05-30', '2025-06-30']);
  });

  it('when byday has ordinals, then the first Monday and the last Friday of each month come out', () => {
    expect(dates({ start: '2025-01-06', frequency: 'monthly', byday: '1MO', count: 3 })).toEqual([
      '2025-01-06',
      '2025-02-03',
      '2025-03-03',
    ]);
    expect(dates({ start: '2025-01-31', frequency: 'monthly', byday: '-1FR', count: 3 })).toEqual([
      '2025-01-31',
      '2025-02-28',
      '2025-03-28',
    ]);
  });

  it('when count and end are given, then whichever comes first ends the series; the start always counts', () => {
    const weekly = { start: '2025-01-01', frequency: 'weekly', byday: 'MO' };
    // 2025-01-01 is a Wednesday: it is iteration 0 even though it is not a Monday.
    expect(dates({ ...weekly, count: 3 })).toEqual(['2025-01-01', '2025-01-06', '2025-01-13']);
    expect(dates({ ...weekly, count: 10, end: '2025-01-13' })).toEqual([
      '2025-01-01',
      '2025-01-06',
      '2025-01-13',
    ]);
    expect(dates({ ...weekly, count: 2, end: '2025-03-01' })).toEqual(['2025-01-01', '2025-01-06']);
  });

  it('when the interval is 2 and the rule is yearly on Feb 29, then leap years only come out', () => {
    expect(dates({ start: '2025-01-01', frequency: 'daily', interval: 2, count: 3 })).toEqual([
      '2025-01-01',
      '2025-01-03',
      '2025-01-05',
    ]);
    expect(dates({ start: '2024-02-29', frequency: 'yearly' }, '2032-12-31')).toEqual([
      '2024-02-29',
      '2028-02-29',
      '2032-02-29',
    ]);
  });

  it('when through and limit are given, then expansion stops at either', () => {
    expect(dates({ start: '2025-01-01', frequency: 'daily' }, '2025-01-03')).toHaveLength(3);
    expect(dates({ start: '2025-01-01', frequency: 'daily' }, '2099-01-01', 5)).toHaveLength(5);
  });

  it('when a series has run for decades, then its next date is still found; a rule that ended has none', () => {
    const monthly = rule({ start: '2000-01-15', frequency: 'monthly' });
    expect(dateOfIteration(monthly, 12 * 40, '2039-12-20')).toBe('2040-01-15');
    expect(dateOfIteration(rule({ start: '2025-01-01', frequency: 'daily', count: 3 }), 3)).toBeNull();
    expect(
      dateOfIteration(rule({ start: '2025-01-01', frequency: 'daily', end: '2025-01-02' }), 2),
    ).toBeNull();
  });

  it('when fields break the rules, then one 400 names each', () => {
    let error: { fields?: Array<{ field: string }> } = {};
    try {
      readRepeatRule({
        start: '2025-02-30',
        frequency: 'hourly',
        interval: 0,
        byday: 'XX',
        bysetpos: '0',
        count: -1,
      });
    } catch (caught) {
      error = caught as typeof error;
    }
    expect(error.fields?.map((field) => field.field).sort()).toEqual([
      'repeat.byday',
      'repeat.bysetpos',
      'repeat.count',
      'repeat.frequency',
      'repeat.interval',
      'repeat.start',
    ]);
    expect(() =>
      readRepeatRule({ start: '2025-01-01', frequency: 'monthly', interval: 1, bysetpos: -1 }),
    ).toThrow();
    expect(() =>
      readRepeatRule({ start: '2025-01-02', end: '2025-01-01', frequency: 'monthly', interval: 1 }),
    ).toThrow();
  });
});
