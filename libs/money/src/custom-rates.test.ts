import { convertForUser, CustomRate, findUserCrossRate } from './custom-rates';
import { RateTable } from './rate-table';

const table = new RateTable([
  { date: '2025-05-09', currency: 'USD', rate: '1.1252' },
  { date: '2025-05-09', currency: 'GBP', rate: '0.8477' },
]);
const custom: CustomRate[] = [{ code: 'EUR', referenceCurrency: 'USD', rate: '1.2', fixed: true }];

describe('custom rates', () => {
  it('when the user set a rate for the pair, then it replaces the ECB rate in both directions', () => {
    expect(findUserCrossRate(table, custom, 'EUR', 'USD', '2025-05-09')?.toFixed()).toBe('1.2');
    expect(findUserCrossRate(table, custom, 'USD', 'EUR', '2025-05-09')?.toFixed()).toBe('0.833333333333');
    expect(
      convertForUser(table, custom, { amount: '100', from: 'EUR', to: 'USD', date: '2025-05-09' })?.toFixed(),
    ).toBe('120');
  });

  it('when the pair has no custom rate, then the ECB cross rate of the date applies', () => {
    expect(findUserCrossRate(table, custom, 'GBP', 'USD', '2025-05-09')?.toFixed()).toBe('1.32735637608');
    expect(findUserCrossRate(table, custom, 'GBP', 'USD', '2025-05-08')).toBeUndefined();
    expect(findUserCrossRate(table, [], 'EUR', 'USD', '2025-05-09')?.toFixed()).toBe('1.1252');
  });
});
