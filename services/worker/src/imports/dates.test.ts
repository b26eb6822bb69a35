import { parseDate } from './dates';

describe('parseDate', () => {
  it('when no format is given, then ISO days (with or without a time) and YYYYMMDD are read', () => {
    expect(parseDate('2026-03-01')).toBe('2026-03-01');
    expect(parseDate('2026-03-01T10:00:00Z')).toBe('2026-03-01');
    expect(parseDate('20260301')).toBe('2026-03-01');
    expect(parseDate('01.03.2026')).toBeUndefined();
  });

  it('when a format is given, then day, month and year are taken from their places', () => {
    expect(parseDate('31.12.2025', 'DD.MM.YYYY')).toBe('2025-12-31');
    expect(parseDate('12/31/25', 'MM/DD/YY')).toBe('2025-12-31');
    expect(parseDate("12/31'25", 'M/D/YY')).toBe('2025-12-31');
    expect(parseDate('1/2/2026', 'D/M/YYYY')).toBe('2026-02-01');
  });

  it('when the day does not exist, then it is refused', () => {
    expect(parseDate('2026-02-30')).toBeUndefined();
    expect(parseDate('31/04/2026', 'DD/MM/YYYY')).toBeUndefined();
    expect(parseDate('abc', 'DD/MM/YYYY')).toBeUndefined();
  });
});
