import { compact, formatModified, formatTimestamp } from '@pfs/resource-api';
import type { User } from '@pfs/resource-store';

/** The `/me` representation: null values are omitted, as the spec asks of every response. */
export function presentUser(user: User): Record<string, unknown> {
  return compact({
    id: user.id,
    email: user.email,
    first_name: user.firstName,
    last_name: user.lastName,
    joined: formatTimestamp(user.createdAt),
    modified: formatModified(user.modifiedAt),
    currency: { main: user.currency },
    start_day: user.startDay,
    locale: user.locale,
    timezone: user.timezone,
    country: user.country,
    extra: user.extra,
  });
}
