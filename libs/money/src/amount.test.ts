import fc from 'fast-check';
import { amountToJson, formatAmount, parseAmount, roundToCurrency, sumAmounts } from './amount';
import { Decimal } from './decimal';

describe('amounts', () => {
  it('when a JSON number like 0.1 is read, then its shortest decimal form is kept exactly', () => {
    expect(formatAmount(parseAmount(0.1)!)).toBe('0.1');
    expect(formatAmount(sumAmounts([parseAmount(0.1)!, parseAmount(0.2)!]))).toBe('0.3');
  });

  it('when input is not a finite number, then nothing is parsed', () => {
    for (const bad of [NaN, Infinity, '1,5', 'abc', '', null, {}, '1e', '--1']) {
      expect(parseAmount(bad)).toBeUndefined();
    }
    expect(formatAmount(parseAmount('-12.50')!)).toBe('-12.5');
  });

  it('when a tie is rounded, then it goes to the even neighbour (half-even)', () => {
    expect(formatAmount(roundToCurrency('2.345', 'EUR'))).toBe('2.34');
    expect(formatAmount(roundToCurrency('2.355', 'EUR'))).toBe('2.36');
    expect(formatAmount(roundToCurrency('-2.345', 'EUR'))).toBe('-2.34');
    expect(formatAmount(roundToCurrency('100.5', 'JPY'))).toBe('100');
    expect(formatAmount(roundToCurrency('1.23455', 'CLF'))).toBe('1.2346');
    expect(formatAmount(roundToCurrency('0.0005', 'KWD'))).toBe('0');
  });

  it('when any amounts are summed, then the sum is exact whatever the order', () => {
    const cents = fc.bigInt({ min: -(10n ** 16n), max: 10n ** 16n });
    fc.assert(
      fc.property(fc.array(cents, { maxLength: 50 }), (values) => {
        const amounts = values.map((value) => new Decimal(value.toString()).dividedBy(100));
        const expected = values.reduce((total, value) => total + value, 0n);
        const forward = sumAmounts(amounts);
        const backward = sumAmounts([...amounts].reverse());
        expect(forward.times(100).toFixed()).toBe(expected.toString());
        expect(backward.equals(forward)).toBe(true);
      }),
    );
  });

  it('when rounding any value, then the error is at most half a minor unit and rounding is idempotent', () => {
    fc.assert(
      fc.property(fc.double({ min: -1e12, max: 1e12, noNaN: true }), (value) => {
        const exact = new Decimal(String(value));
        const rounded = roundToCurrency(exact, 'EUR');
        expect(rounded.minus(exact).abs().lessThanOrEqualTo('0.005')).toBe(true);
        expect(roundToCurrency(rounded, 'EUR').equals(rounded)).toBe(true);
        expect(rounded.decimalPlaces()).toBeLessThanOrEqual(2);
      }),
    );
  });

  it('when amounts go to JSON, then text and Decimal inputs give the same nearest double', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 17n), max: 10n ** 17n }),
        fc.integer({ min: 0, max: 9 }),
        (units, places) => {
          const text = new Decimal(units.toString()).dividedBy(new Decimal(10).pow(places)).toFixed();
          expect(amountToJson(text)).toBe(amountToJson(new Decimal(text)));
          expect(amountToJson(text)).toBe(Number(text));
        },
      ),
    );
  });
});
