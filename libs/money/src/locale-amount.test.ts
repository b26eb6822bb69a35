import { parseLocaleAmount } from './locale-amount';

const dot = { decimalSeparator: '.' as const };
const comma = { decimalSeparator: ',' as const };
const read = (text: string, locale: { decimalSeparator: '.' | ',' } = dot) =>
  parseLocaleAmount(text, locale)?.toFixed();

describe('parseLocaleAmount', () => {
  it('when amounts use a dot, then grouping commas and spaces are dropped and the digits kept exactly', () => {
    expect(read('1,234.56')).toBe('1234.56');
    expect(read('-0.10')).toBe('-0.1');
    expect(read('1 234 567.891234567')).toBe('1234567.891234567');
    expect(read('0.1')).toBe('0.1');
    expect(read('+3')).toBe('3');
    expect(read('12345678901234.99')).toBe('12345678901234.99');
  });

  it('when amounts use a comma, then dots group thousands', () => {
    expect(read('1.234,56', comma)).toBe('1234.56');
    expect(read('-12,5', comma)).toBe('-12.5');
    expect(read('1\u00a0234,56', comma)).toBe('1234.56');
    expect(read("1'234,56", comma)).toBe('1234.56');
  });

  it('when a statement marks negatives by parentheses, a trailing minus or a currency, then they are read', () => {
    expect(read('(12.50)')).toBe('-12.5');
    expect(read('12.50-')).toBe('-12.5');
    expect(read('€ 4.20')).toBe('4.2');
    expect(read('EUR -4.20')).toBe('-4.2');
  });

  it('when the text is not an amount in the locale, then it is refused', () => {
    expect(read('1.234,56')).toBeUndefined();
    expect(read('1,23')).toBeUndefined();
    expect(read('12a')).toBeUndefined();
    expect(read('')).toBeUndefined();
    expect(read('--1')).toBeUndefined();
    expect(read('1.2.3', comma)).toBeUndefined();
  });
});
