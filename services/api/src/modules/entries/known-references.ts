/** What a one-trip write needs of an account: its id and the currency its amounts are converted to. */
export interface AccountCurrency {
  id: string;
  currency: string;
}

/** Users kept, least recently written first out. */
const MAX_USERS = 10_000;
/** Ids kept per user and kind: past it, that kind starts again empty (a user with more reads them again). */
const MAX_IDS = 1_000;

/**
 * The references one user's checks found live: accounts with their currency; category, tag and image ids.
 * Each kind holds at most `maxIds`; past it, that kind starts again empty (a user with more reads them again).
 */
export class UserReferences {
  readonly accounts = new Map<string, AccountCurrency>();
  readonly categories = new Set<string>();
  readonly tags = new Set<string>();
  readonly images = new Set<string>();

  constructor(private readonly maxIds = MAX_IDS) {}

  /** Records accounts found live by a read scoped to the user (only what a write needs of them). */
  rememberAccounts(accounts: AccountCurrency[]): void {
    for (const { id, currency } of accounts) {
      if (this.accounts.size >= this.maxIds) this.accounts.clear();
      this.accounts.set(id, { id, currency });
    }
  }

  /** Records ids found live by a read scoped to the user. */
  remember(kind: Set<string>, ids: string[]): void {
    for (const id of ids) {
      if (kind.size >= this.maxIds) kind.clear();
      kind.add(id);
    }
  }
}

/**
 * The references (accounts and their currency, categories, tags, images) that the checks before a one-trip
 * write found live for a user, kept per process so that the next write of that user need not read them again.
 *
 * Why it may be stale and still be exact: it is only a hint for the checks made before the change
 * (createPlainEntries). The one-trip statement checks every reference again under the user's write lock
 * (account live, the user's own, still in the currency its amount was converted to; category, tag, image
 * live) and writes nothing when one changed; the request then takes the ordinary path, which reads them in
 * the change and names the field, and the user's hint is forgotten. Only what was found live is kept (an
 * unknown id is always read), and only from reads scoped to the user, under the user's key. Why: at one
 * user's 16 connections, the two reads before each write (accounts, categories) were the API's largest
 * cost after HTTP itself (docs/bench.md, session 6).
 */
export class KnownReferences {
  private readonly users = new Map<string, UserReferences>();

  constructor(private readonly maxUsers = MAX_USERS) {}

  /** The user's known references (empty at first); the user becomes the most recently used. */
  of(userId: string): UserReferences {
    let known = this.users.get(userId);
    if (known) {
      this.users.delete(userId);
    } else {
      known = new UserReferences();
      if (this.users.size >= this.maxUsers) this.users.delete(this.users.keys().next().value!);
    }
    this.users.set(userId, known);
    return known;
  }

  /** After a write found a reference changed: the user's next write reads them all again. */
  forget(userId: string): void {
    this.users.delete(userId);
  }
}
