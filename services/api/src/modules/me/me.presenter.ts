import { amountToJson, type CustomRate } from '@pfs/money';
import { compact, formatModified, formatTimestamp } from '@pfs/resource-api';
import type { User } from '@pfs/resource-store';

/** Self-hosted: no plan limits accounts, budgets or images (the reference's `false` = no limit). */
const LIMITS = { accounts: false, budgets: false, images: false };

const presentRate = (rate: CustomRate) => ({
  code: rate.code,
  rate: amountToJson(rate.rate),
  fixed: rate.fixed,
  reference_currency: rate.referenceCurrency,
});

/**
 * The `/me` representation: null values are omitted, as the spec asks of every response. `currency.recent`
 * lists the previous main currencies (with the custom rate the user holds for that code, if any, in the
 * reference's `{code, rate, fixed, reference_currency}` shape); `currency.custom` every custom rate.
 */
export function presentUser(user: User): Record<string, unknown> {
  return compact({
    id: user.id,
    email: user.email,
    first_name: user.firstName,
    last_name: user.lastName,
    joined: formatTimestamp(user.createdAt),
    modified: formatModified(user.modifiedAt),
    currency: {
      main: user.currency,
      recent: user.recentCurrencies.map((code) => {
        const custom = user.customRates.find((rate) => rate.code === code);
        return custom ? presentRate(custom) : { code };
      }),
      custom: user.customRates.map(presentRate),
    },
    start_day: user.startDay,
    locale: user.locale,
    timezone: user.timezone,
    country: user.country,
    limits: LIMITS,
    extra: user.extra,
  });
}
