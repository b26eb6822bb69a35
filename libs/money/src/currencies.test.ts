import { findCurrency, isKnownCurrency, listCurrencies } from './currencies';

describe('currency list', () => {
  it('when looking up ISO codes, then each carries its minor units and type', () => {
    expect(findCurrency('EUR')).toMatchObject({ precision: 2, type: 'fiat', name: 'Euro' });
    expect(findCurrency('JPY')).toMatchObject({ precision: 0, type: 'fiat' });
    expect(findCurrency('KWD')).toMatchObject({ precision: 3 });
    expect(findCurrency('XAU')).toMatchObject({ precision: 4, type: 'commodity' });
    expect(findCurrency('SIT')).toMatchObject({ type: 'deprecated' });
  });

  it('when a code is unknown or a test code, then it is not listed', () => {
    expect(isKnownCurrency('ABC')).toBe(false);
    expect(isKnownCurrency('XTS')).toBe(false);
    expect(isKnownCurrency('eur')).toBe(false);
  });

  it('when listing, then codes are unique, sorted and precisions within 0–9', () => {
    const codes = listCurrencies().map((currency) => currency.code);
    expect(new Set(codes).size).toBe(codes.length);
    expect([...codes].sort()).toEqual(codes);
    expect(codes.length).toBeGreaterThan(150);
    for (const currency of listCurrencies()) {
      expect(currency.precision).toBeGreaterThanOrEqual(0);
      expect(currency.precision).toBeLessThanOrEqual(9);
    }
  });
});
