import { Decimal } from './decimal';

/** How a file writes its amounts: the decimal separator (the other of `.`/`,` may group thousands). */
export interface AmountLocale {
  decimalSeparator: '.' | ',';
}

/** Characters that group thousands besides the other separator: spaces (also no-break), apostrophes. */
const GROUPING = /[\s\u00a0\u202f'’]/g;
const CURRENCY_MARKS = /^[A-Z]{3}\s*|\s*[A-Z]{3}$|[€$£¥₹₽₩₪₺₴¤]/g;
const PLAIN = /^\d+(\.\d+)?$/;

/**
 * Reads an amount as a statement writes it, exactly (never through a double): `1,234.56`, `1.234,56`,
 * `-12,5`, `(12.50)` and `12.50-` (negative), `+3`, `€ 4.20`, `1 234,56`. Returns undefined when the text is
 * not an amount in that locale (a wrong separator such as `1.234.567,8` read with `.`, letters, two signs).
 */
export function parseLocaleAmount(text: string, locale: AmountLocale): Decimal | undefined {
  let value = text.trim().replace(CURRENCY_MARKS, '').trim();
  let negative = false;
  if (/^\(.*\)$/.test(value)) {
    negative = true;
    value = value.slice(1, -1).trim();
  }
  if (/^[^-+]*-$/.test(value)) {
    negative = !negative;
    value = value.slice(0, -1).trim();
  }
  if (/^[-+]/.test(value)) {
    if (value[0] === '-') negative = !negative;
    value = value.slice(1).trim();
  }
  const group = locale.decimalSeparator === '.' ? ',' : '.';
  const grouped = value.replace(GROUPING, '');
  const parts = grouped.split(locale.decimalSeparator);
  if (parts.length > 2) return undefined;
  const [whole, fraction] = parts;
  // Grouping marks only between digit groups of three: `1,234` but never `1,23` or `12,,3`.
  if (whole.includes(group) && !new RegExp(`^\\d{1,3}(\\${group}\\d{3})+$`).test(whole)) return undefined;
  const normalised = `${whole.split(group).join('')}${fraction === undefined ? '' : `.${fraction}`}`;
  if (!PLAIN.test(normalised)) return undefined;
  const amount = new Decimal(normalised);
  return negative ? amount.negated() : amount;
}
