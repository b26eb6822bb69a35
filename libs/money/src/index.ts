export { Decimal, ROUNDING_MODE } from './decimal';
export type { DecimalValue } from './decimal';
export {
  AMOUNT_LIMIT,
  amountToJson,
  formatAmount,
  isWithinAmountLimit,
  parseAmount,
  roundToCurrency,
  sumAmounts,
} from './amount';
export { parseLocaleAmount } from './locale-amount';
export type { AmountLocale } from './locale-amount';
export { findCurrency, getCurrency, isKnownCurrency, listCurrencies } from './currencies';
export type { Currency, CurrencyType } from './currencies';
export { parseEcbRates, RateFileError } from './ecb-rates.parser';
export type { ReferenceRate } from './ecb-rates.parser';
export { BASE_CURRENCY, RateTable } from './rate-table';
export type { FoundRate, RateSource } from './rate-table';
export { applyRate, convertAmount, findCrossRate, RATE_SIGNIFICANT_DIGITS } from './convert';
export type { ConvertOptions } from './convert';
export { SHIPPED_RATES_FILE } from './shipped-rates';
export { convertForUser, findCustomRate, findUserCrossRate } from './custom-rates';
export type { CustomRate } from './custom-rates';
