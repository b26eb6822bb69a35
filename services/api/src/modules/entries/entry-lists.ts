import type { CustomRate } from '@pfs/money';
import type { Entry } from '@pfs/resource-store';

/** Presents entries as `GET /entries` does (companions, main rate, repeat); built per request. */
export type PresenterFor = (
  userId: string,
  entries: Entry[],
  /** The user's main currency and custom rates, when the caller already read them. */
  known?: { main: string; customRates: CustomRate[] },
) => Promise<(entry: Entry) => Record<string, unknown>>;
