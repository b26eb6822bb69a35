import type { CustomRate } from '@pfs/money';
import type { CurrencyRequest } from '../../src/modules/me/currency-change-request';
import { nextCustomRates, nextRecentCurrencies } from '../../src/modules/me/currency-settings';

const request = (over: Partial<CurrencyRequest>): CurrencyRequest => ({
  main: 'USD',
  mode: 'historical',
  updateAccounts: false,
  custom: [],
  ...over,
});
const rate = (code: string, referenceCurrency: string, value = '2'): CustomRate => ({
  code,
  referenceCurrency,
  rate: value,
  fixed: false,
});

describe('custom rates after a PUT /me', () => {
  it('when historical changes main, then a custom rate of the old↔new pair (either direction) is dropped', () => {
    expect(nextCustomRates([rate('USD', 'EUR'), rate('GBP', 'EUR')], 'EUR', request({}))).toEqual([
      rate('GBP', 'EUR'),
    ]);
  });

  it('when custom changes main, then the pair is set to the exchange rate, fixed', () => {
    expect(
      nextCustomRates(
        [rate('EUR', 'USD', '9')],
        'EUR',
        request({ mode: 'custom', customExchangeRate: '1.2' }),
      ),
    ).toEqual([{ code: 'EUR', referenceCurrency: 'USD', rate: '1.2', fixed: true }]);
  });

  it('when sign changes main, then the old code is relabelled, self-pairs and duplicates dropped', () => {
    const stored = [
      rate('EUR', 'GBP', '1'),
      rate('USD', 'GBP', '2'),
      rate('EUR', 'USD', '3'),
      rate('JPY', 'CHF'),
    ];
    expect(nextCustomRates(stored, 'EUR', request({ mode: 'sign' }))).toEqual([
      rate('USD', 'GBP', '1'),
      rate('JPY', 'CHF'),
    ]);
  });

  it('when currency.custom items come, then each sets its pair against main by default, or removes it without a rate', () => {
    const next = nextCustomRates(
      [rate('GBP', 'USD', '1.3')],
      'USD',
      request({
        custom: [
          { code: 'USD', referenceCurrency: 'GBP', rate: '0.8', fixed: true },
          { code: 'CHF', fixed: false, rate: '1.1' },
          { code: 'JPY', fixed: false },
        ],
      }),
    );
    expect(next).toEqual([
      { code: 'USD', referenceCurrency: 'GBP', rate: '0.8', fixed: true },
      { code: 'CHF', referenceCurrency: 'USD', rate: '1.1', fixed: false },
    ]);
  });
});

describe('recent currencies', () => {
  it('when main changes, then the old one goes first, without duplicates or the new main, at most five', () => {
    expect(nextRecentCurrencies(['GBP', 'USD', 'JPY', 'CHF', 'SEK'], 'EUR', request({}))).toEqual([
      'EUR',
      'GBP',
      'JPY',
      'CHF',
      'SEK',
    ]);
    expect(nextRecentCurrencies(['GBP'], 'EUR', request({ mode: 'sign' }))).toEqual(['GBP']);
    expect(nextRecentCurrencies(['GBP'], 'USD', request({}))).toEqual(['GBP']);
  });
});
