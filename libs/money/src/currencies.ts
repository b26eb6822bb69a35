import { data as isoCurrencies } from 'currency-codes';

/** How Toshl types currencies; `deprecated` are withdrawn codes still found in historical rates. */
export type CurrencyType = 'fiat' | 'commodity' | 'crypto' | 'deprecated';

export interface Currency {
  code: string;
  name: string;
  /** Minor units: digits after the decimal point that amounts in this currency keep. */
  precision: number;
  type: CurrencyType;
}

/** Precious metals are priced per troy ounce; ISO gives them no minor unit, we keep 4 decimals of an ounce. */
const COMMODITIES = new Set(['XAU', 'XAG', 'XPD', 'XPT']);
const COMMODITY_PRECISION = 4;
/** ISO codes that are not money a person holds: testing and "no currency". */
const EXCLUDED = new Set(['XTS', 'XXX']);

/** Withdrawn currencies that appear in the ECB history, so old entries in them still convert. */
const DEPRECATED: Currency[] = [
  { code: 'CYP', name: 'Cyprus Pound', precision: 2, type: 'deprecated' },
  { code: 'EEK', name: 'Estonian Kroon', precision: 2, type: 'deprecated' },
  { code: 'HRK', name: 'Croatian Kuna', precision: 2, type: 'deprecated' },
  { code: 'LTL', name: 'Lithuanian Litas', precision: 2, type: 'deprecated' },
  { code: 'LVL', name: 'Latvian Lats', precision: 2, type: 'deprecated' },
  { code: 'MTL', name: 'Maltese Lira', precision: 2, type: 'deprecated' },
  { code: 'ROL', name: 'Romanian Leu (old)', precision: 2, type: 'deprecated' },
  { code: 'SIT', name: 'Slovenian Tolar', precision: 2, type: 'deprecated' },
  { code: 'SKK', name: 'Slovak Koruna', precision: 2, type: 'deprecated' },
  { code: 'TRL', name: 'Turkish Lira (old)', precision: 0, type: 'deprecated' },
];

function buildCurrencies(): Map<string, Currency> {
  const byCode = new Map<string, Currency>();
  for (const record of isoCurrencies) {
    if (EXCLUDED.has(record.code)) continue;
    const isCommodity = COMMODITIES.has(record.code);
    byCode.set(record.code, {
      code: record.code,
      name: record.currency,
      precision: isCommodity ? COMMODITY_PRECISION : record.digits,
      type: isCommodity ? 'commodity' : 'fiat',
    });
  }
  for (const currency of DEPRECATED) if (!byCode.has(currency.code)) byCode.set(currency.code, currency);
  return byCode;
}

const CURRENCIES: ReadonlyMap<string, Currency> = buildCurrencies();
const SORTED: readonly Currency[] = [...CURRENCIES.values()].sort((a, b) => a.code.localeCompare(b.code));

/** The ISO 4217 list (edition of the `currency-codes` package) plus the deprecated codes above, by code. */
export function listCurrencies(): readonly Currency[] {
  return SORTED;
}

export function findCurrency(code: string): Currency | undefined {
  return CURRENCIES.get(code);
}

export function isKnownCurrency(code: string): boolean {
  return CURRENCIES.has(code);
}

/** Throws when the code is unknown: callers validate input with `isKnownCurrency` first. */
export function getCurrency(code: string): Currency {
  const currency = CURRENCIES.get(code);
  if (!currency) throw new Error(`unknown currency ${code}`);
  return currency;
}
