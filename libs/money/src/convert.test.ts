import fc from 'fast-check';
import { convertAmount, findCrossRate } from './convert';
import { Decimal } from './decimal';
import { RateTable } from './rate-table';

const table = new RateTable([
  { date: '2025-05-08', currency: 'USD', rate: '1.1297' },
  { date: '2025-05-09', currency: 'USD', rate: '1.1252' },
  { date: '2025-05-08', currency: 'JPY', rate: '163.45' },
  { date: '2025-05-09', currency: 'JPY', rate: '163.36' },
  { date: '2025-05-09', currency: 'GBP', rate: '0.8477' },
]);

describe('conversion', () => {
  it('when converting from EUR, then the ECB rate of that day applies, rounded to the target precision', () => {
    expect(
      convertAmount(table, { amount: '100', from: 'EUR', to: 'USD', date: '2025-05-09' })?.toFixed(),
    ).toBe('112.52');
    expect(
      convertAmount(table, { amount: '10', from: 'EUR', to: 'JPY', date: '2025-05-09' })?.toFixed(),
    ).toBe('1634');
  });

  it('when the day has no rate (a weekend), then the nearest earlier business day is used', () => {
    expect(table.findRate('USD', '2025-05-11')).toEqual({ date: '2025-05-09', rate: new Decimal('1.1252') });
    expect(table.findRate('USD', '2025-05-08')?.rate.toFixed()).toBe('1.1297');
  });

  it('when no earlier rate exists or the currency is unknown, then nothing is converted', () => {
    expect(table.findRate('USD', '2025-05-07')).toBeUndefined();
    expect(convertAmount(table, { amount: '1', from: 'USD', to: 'XYZ', date: '2025-05-09' })).toBeUndefined();
  });

  it('when neither side is EUR, then the cross rate goes through EUR', () => {
    // 1 USD = 163.36 / 1.1252 JPY on 2025-05-09.
    expect(findCrossRate(table, 'USD', 'JPY', '2025-05-09')?.toFixed()).toBe('145.183078564');
    expect(
      convertAmount(table, { amount: '100', from: 'USD', to: 'JPY', date: '2025-05-09' })?.toFixed(),
    ).toBe('14518');
  });

  it('when converting to the same currency, then the amount is only rounded', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e9, max: 1e9 }), (cents) => {
        const amount = new Decimal(cents).dividedBy(100);
        expect(
          convertAmount(table, { amount, from: 'GBP', to: 'GBP', date: '2000-01-01' })?.equals(amount),
        ).toBe(true);
      }),
    );
  });

  it('when converting there and back, then the result is within the rounding of both legs', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1e9, max: 1e9 }),
        fc.constantFrom('USD', 'GBP', 'EUR'),
        fc.constantFrom('USD', 'GBP', 'EUR'),
        (cents, from, to) => {
          const amount = new Decimal(cents).dividedBy(100);
          const there = convertAmount(table, { amount, from, to, date: '2025-05-09' })!;
          const back = convertAmount(table, { amount: there, from: to, to: from, date: '2025-05-09' })!;
          const rate = findCrossRate(table, to, from, '2025-05-09')!;
          // Error of the first leg (≤ 0.005 of `to`) scaled back, plus the second leg's own rounding, plus slack.
          const bound = rate.times('0.005').plus('0.005').plus(amount.abs().times('1e-10'));
          expect(back.minus(amount).abs().lessThanOrEqualTo(bound)).toBe(true);
        },
      ),
    );
  });

  it('when rates are given in any order, then lookups always find the latest date not after the asked one', () => {
    const day = fc
      .integer({ min: 0, max: 60 })
      .map((offset) => new Date(Date.UTC(2024, 0, 1 + offset)).toISOString().slice(0, 10));
    fc.assert(
      fc.property(fc.uniqueArray(day, { minLength: 1, maxLength: 20 }), day, (dates, asked) => {
        const rates = dates.map((date, index) => ({ date, currency: 'USD', rate: String(index + 1) }));
        const found = new RateTable(
          fc.sample(fc.shuffledSubarray(rates, { minLength: rates.length }), 1)[0],
        ).findRate('USD', asked);
        const expected = dates
          .filter((date) => date <= asked)
          .sort()
          .pop();
        expect(found?.date).toBe(expected);
      }),
    );
  });
});
