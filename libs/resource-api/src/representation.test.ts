import fc from 'fast-check';
import { compact, formatModified, formatTimestamp, parseModified } from './representation';

describe('representation', () => {
  it('when a date is formatted, then timestamps drop fractions and modified keeps milliseconds', () => {
    const date = new Date('2026-03-04T05:06:07.089Z');
    expect(formatTimestamp(date)).toBe('2026-03-04T05:06:07Z');
    expect(formatModified(date)).toBe('2026-03-04 05:06:07.089');
  });

  it('when any date is formatted, then the forms are exactly the slices of its toISOString', () => {
    fc.assert(
      fc.property(fc.date({ noInvalidDate: true }), fc.date({ noInvalidDate: true }), (date, other) => {
        // Two dates in turn, so the formatter's cached day changes between them and back.
        for (const at of [date, other, date]) {
          const iso = at.toISOString();
          expect(formatTimestamp(at)).toBe(`${iso.slice(0, 19)}Z`);
          expect(formatModified(at)).toBe(`${iso.slice(0, 10)} ${iso.slice(11, 23)}`);
        }
      }),
      { numRuns: 5_000 },
    );
    const edges = ['1970-01-01T00:00:00.000Z', '1969-12-31T23:59:59.999Z', '0000-01-01T00:00:00.000Z'];
    for (const iso of [...edges, '9999-12-31T23:59:59.999Z', '2024-02-29T12:00:00.500Z']) {
      expect(formatModified(new Date(iso))).toBe(`${iso.slice(0, 10)} ${iso.slice(11, 23)}`);
      expect(formatTimestamp(new Date(iso))).toBe(`${iso.slice(0, 19)}Z`);
    }
    expect(() => formatTimestamp(new Date(Number.NaN))).toThrow(RangeError);
  });

  it('when any modified the server formats is read back, then it is the same instant', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1970-01-01'), max: new Date('9999-12-31'), noInvalidDate: true }),
        (date) => {
          expect(parseModified(formatModified(date))?.getTime()).toBe(date.getTime());
        },
      ),
    );
  });

  it('when a modified is not in the issued form, then it is not read', () => {
    for (const value of [
      '2026-03-04T05:06:07.089Z',
      '2026-02-30 00:00:00.000',
      '2026-03-04 05:06:07',
      42,
      null,
    ]) {
      expect(parseModified(value)).toBeUndefined();
    }
  });

  it('when a representation is compacted, then nulls and empty arrays go but extra stays verbatim', () => {
    expect(
      compact({ a: null, b: [], c: [1], d: { e: null, f: 0, g: false }, extra: { h: null, i: [] } }),
    ).toEqual({ c: [1], d: { f: 0, g: false }, extra: { h: null, i: [] } });
  });
});
