/**
 * Values held in this process until an invalidation, a flush or their expiry: the bookkeeping TrackedKeys (token
 * records, profiles: read from Redis) and HeldListStates (list versions: read from Postgres) share.
 * - A read that was in flight when an invalidation of one of its keys arrived, or a flush happened, must not
 *   store what it read: it may predate the write (`load` says whether it is `clean`).
 * - Bounded: at most `maxEntries` (the one stored longest ago goes first), each until its `expiresAt`.
 */
export class HeldValues<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();
  /** Keys being read, and whether an invalidation of one arrived meanwhile. */
  private readonly inFlight = new Map<string, { readers: number; invalidated: boolean }>();
  /** Bumped by every flush: a read that began before one is not clean. */
  private epoch = 0;

  constructor(private readonly maxEntries: number) {}

  /** How many values are held. */
  get size(): number {
    return this.entries.size;
  }

  /** The values of `keys` when every one is held and unexpired at `now`. */
  get(keys: readonly string[], now: number): V[] | undefined {
    const values: V[] = [];
    for (const key of keys) {
      const entry = this.entries.get(key);
      if (!entry) return undefined;
      if (entry.expiresAt <= now) {
        this.entries.delete(key);
        return undefined;
      }
      values.push(entry.value);
    }
    return values;
  }

  /** Runs `read` of `keys`; `clean` is false when a key was invalidated, or everything flushed, meanwhile. */
  async load<T>(keys: readonly string[], read: () => Promise<T>): Promise<{ result: T; clean: boolean }> {
    const epoch = this.epoch;
    for (const key of keys) {
      const flight = this.inFlight.get(key);
      if (flight) flight.readers += 1;
      else this.inFlight.set(key, { readers: 1, invalidated: false });
    }
    let clean = true;
    let result: T;
    try {
      result = await read();
    } finally {
      for (const key of keys) {
        const flight = this.inFlight.get(key)!;
        if (flight.invalidated) clean = false;
        if (--flight.readers === 0) this.inFlight.delete(key);
      }
    }
    return { result, clean: clean && epoch === this.epoch };
  }

  set(key: string, value: V, expiresAt: number): void {
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt });
    // A Map iterates in insertion order: the first key is the one stored longest ago.
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
  }

  /** Drops the key's value; a read of it in flight will not be clean. */
  invalidate(key: string): void {
    this.entries.delete(key);
    const flight = this.inFlight.get(key);
    if (flight) flight.invalidated = true;
  }

  /** Drops every value; reads in flight will not be clean. */
  flush(): void {
    this.entries.clear();
    this.epoch += 1;
  }
}
