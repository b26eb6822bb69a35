import type { User } from '@pfs/resource-store';

const toTimestamp = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The `/me` representation: null values are omitted, as the spec asks of every response. */
export function presentUser(user: User): Record<string, unknown> {
  const body: Record<string, unknown> = {
    id: user.id,
    email: user.email,
    first_name: user.firstName ?? undefined,
    last_name: user.lastName ?? undefined,
    joined: toTimestamp(user.createdAt),
    currency: { main: user.currency },
    start_day: user.startDay,
    locale: user.locale ?? undefined,
    timezone: user.timezone ?? undefined,
    country: user.country ?? undefined,
    extra: user.extra ?? undefined,
  };
  return JSON.parse(JSON.stringify(body));
}
