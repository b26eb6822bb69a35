import type { CustomRate } from '@pfs/money';
import type { Entry } from '@pfs/resource-store';
import type { Request } from 'express';

/** Presents entries as `GET /entries` does (companions, main rate, repeat); built per request. */
export type PresenterFor = (
  userId: string,
  entries: Entry[],
  /** The user's main currency and custom rates, when the caller already read them. */
  known?: { main: string; customRates: CustomRate[] },
) => Promise<(entry: Entry) => Record<string, unknown>>;

/** The raw query string of a request (for Link headers, which keep every parameter as sent). */
export function rawQueryOf(req: Request): string {
  const at = req.originalUrl.indexOf('?');
  return at === -1 ? '' : req.originalUrl.slice(at + 1);
}
