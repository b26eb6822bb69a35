import { inputError } from '@pfs/errors';
import { Decimal, isKnownCurrency, parseAmount, RATE_SIGNIFICANT_DIGITS } from '@pfs/money';
import type { MeBody } from './me.schema';

export const CURRENCY_UPDATE_MODES = ['historical', 'custom', 'sign'] as const;
export type CurrencyUpdateMode = (typeof CURRENCY_UPDATE_MODES)[number];

/** One `currency.custom` item: a rate sets the pair, no rate (or the placeholder 0) removes it. */
export interface CustomRateInput {
  code: string;
  /** Defaults to the (new) main currency. */
  referenceCurrency?: string;
  rate?: string;
  fixed: boolean;
}

/** What `PUT /me` asks of the currencies, read from its `currency` object. */
export interface CurrencyRequest {
  main: string;
  mode: CurrencyUpdateMode;
  updateAccounts: boolean;
  /** Units of the new main currency per 1 of the old; required when mode is custom. */
  customExchangeRate?: string;
  custom: CustomRateInput[];
}

/**
 * Custom rates must keep converted amounts inside the stored numeric range (amounts up to 1e15 times a rate
 * up to 1e6 still fit) and stay above zero at the 12 decimals rates are stored with.
 */
const MIN_RATE = new Decimal('1e-6');
const MAX_RATE = new Decimal('1e6');
export const MAX_CUSTOM_RATES = 50;

type FieldError = { field: string; error: string };

function readRate(value: unknown, field: string, errors: FieldError[]): string | undefined {
  const rate = parseAmount(value);
  if (!rate || rate.lessThan(MIN_RATE) || rate.greaterThan(MAX_RATE)) {
    errors.push({ field, error: 'must be a number from 0.000001 to 1000000' });
    return undefined;
  }
  return rate.toSignificantDigits(RATE_SIGNIFICANT_DIGITS, Decimal.ROUND_HALF_EVEN).toFixed();
}

function readCustomItem(
  item: unknown,
  field: string,
  main: string,
  errors: FieldError[],
): CustomRateInput | undefined {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) {
    errors.push({ field, error: 'must be an object {code, rate, fixed, reference_currency}' });
    return undefined;
  }
  const { code, rate, fixed, reference_currency: reference } = item as Record<string, unknown>;
  if (typeof code !== 'string' || !isKnownCurrency(code)) {
    errors.push({ field: `${field}.code`, error: 'must be a known ISO 4217 currency code' });
    return undefined;
  }
  const hasReference = reference !== undefined && reference !== null && reference !== '';
  if (hasReference && (typeof reference !== 'string' || !isKnownCurrency(reference))) {
    errors.push({ field: `${field}.reference_currency`, error: 'must be a known ISO 4217 currency code' });
    return undefined;
  }
  if ((hasReference ? reference : main) === code) {
    errors.push({ field, error: 'code and reference_currency must differ' });
    return undefined;
  }
  const removes = rate === undefined || rate === null || rate === 0 || rate === '0';
  return {
    code,
    referenceCurrency: hasReference ? (reference as string) : undefined,
    rate: removes ? undefined : readRate(rate, `${field}.rate`, errors),
    fixed: fixed === true || fixed === 'true',
  };
}

/**
 * Reads `currency` of a PUT /me body the published schema has checked (types, enum, pattern): `main`, `update`
 * (historical by default), `update_accounts`, `custom_exchange_rate` (needed when update is custom and main
 * changes) and `custom` (one object, or the array GET /me shows: the schema leaves it open, so its items are
 * read here). Field errors name `currency.<field>`.
 */
export function readCurrencyRequest(currency: MeBody['currency'], oldMain: string): CurrencyRequest {
  const errors: FieldError[] = [];
  const main = currency.main;
  if (!isKnownCurrency(main))
    errors.push({ field: 'currency.main', error: 'must be a known ISO 4217 currency code' });
  const mode = currency.update ?? 'historical';
  const changes = main !== oldMain;
  let customExchangeRate: string | undefined;
  if (changes && mode === 'custom') {
    const given = currency.custom_exchange_rate;
    if (given === undefined || given === null || given === '')
      errors.push({
        field: 'currency.custom_exchange_rate',
        error: 'is required when currency.update is custom',
      });
    else customExchangeRate = readRate(given, 'currency.custom_exchange_rate', errors);
  }
  const customList =
    currency.custom === undefined ? [] : Array.isArray(currency.custom) ? currency.custom : [currency.custom];
  if (customList.length > MAX_CUSTOM_RATES)
    errors.push({ field: 'currency.custom', error: `must hold at most ${MAX_CUSTOM_RATES} rates` });
  const custom = customList
    .slice(0, MAX_CUSTOM_RATES)
    .map((item, index) =>
      readCustomItem(
        item,
        Array.isArray(currency.custom) ? `currency.custom.${index}` : 'currency.custom',
        main,
        errors,
      ),
    )
    .filter((item): item is CustomRateInput => item !== undefined);
  if (errors.length) throw inputError(errors);
  return { main, mode, updateAccounts: currency.update_accounts === true, customExchangeRate, custom };
}
