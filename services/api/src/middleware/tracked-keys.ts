import type { Redis } from '@pfs/redis';
import { HeldValues } from './held-values';

/**
 * Redis values held in this process and kept true by Redis server-assisted client-side caching (one Redis
 * server only): a tracking connection asks `CLIENT TRACKING ON REDIRECT <subscriber> BCAST PREFIX …` for
 * the given key prefixes, and Redis then sends the name of every key under them that is written, deleted or
 * expires, by any client, to a subscriber connection on `__redis__:invalidate` (ioredis speaks RESP2, where
 * invalidations can only come as Pub/Sub messages to another connection). The gate keeps token records and
 * cached `/me` profiles here, so an authenticated request needs no Redis read for them.
 *
 * Rules that keep it true:
 * - It is used only while both connections are up and tracking is on. When either drops, everything held
 *   is forgotten at once (an invalidation may be lost) and reads go to Redis uncached until both are back
 *   and tracking is asked again (`enabled`).
 * - A read that was in flight when an invalidation of one of its keys arrived (or a flush happened) does not
 *   store what it read: the reply may predate the write. The reply and the invalidation come on two sockets,
 *   so either may be seen first; marking keys as read-in-flight covers both orders.
 * - Bounded: at most `maxEntries` (the oldest stored go first) and each entry at most `maxAgeMs` (or less,
 *   `expiresAt` of the caller: a token record's own `exp`).
 */
export interface TrackedKeysOptions {
  /** The deployment prefix (REDIS_KEY_PREFIX): ioredis adds it to keys, Redis reports keys with it. */
  keyPrefix: string;
  /** Key prefixes (under the deployment prefix) to track, e.g. `token:`. */
  prefixes: string[];
  maxEntries: number;
  maxAgeMs: number;
  /** Told when tracking comes up or goes down (logged by the caller). */
  onStateChange?: (enabled: boolean, error?: unknown) => void;
}

/** Told of each invalidated key under its prefix, and of every flush (`undefined`): see `watch`. */
type KeyWatcher = { prefix: string; listener: (key: string | undefined) => void };

const INVALIDATION_CHANNEL = '__redis__:invalidate';

export class TrackedKeys {
  private readonly entries: HeldValues<string | null>;
  private tracking = false;
  private readonly subscriber: Redis;
  private readonly tracker: Redis;
  /** The subscriber's connection id, once it has subscribed on its current connection. */
  private subscriberId: number | undefined;
  private establishing: Promise<void> | undefined;
  private closed = false;
  private readonly watchers: KeyWatcher[] = [];
  /** Invalidated keys received so far (tests wait on it). */
  invalidations = 0;

  constructor(
    private readonly redis: Redis,
    private readonly options: TrackedKeysOptions,
  ) {
    this.entries = new HeldValues(options.maxEntries);
    // Own connections: a subscriber cannot send other commands, and tracking must follow its id. ioredis
    // must not resubscribe by itself on a reconnect: the id is read first (CLIENT ID is refused once subscribed).
    this.subscriber = redis.duplicate({ connectionName: 'pfs-api-invalidations', autoResubscribe: false });
    this.tracker = redis.duplicate({ connectionName: 'pfs-api-tracking' });
    this.subscriber.on('messageBuffer', (channel: Buffer, keys: Buffer[] | null) => {
      if (channel.toString() === INVALIDATION_CHANNEL) this.invalidated(keys);
    });
    for (const connection of [this.subscriber, this.tracker]) {
      // Errors are seen as 'close' (and reported by the caller's health checks); this keeps them handled.
      connection.on('error', () => undefined);
      connection.on('close', () => this.down(connection));
      connection.on('ready', () => this.establish());
    }
  }

  /** True while held values may be used (both connections up, tracking on). */
  get enabled(): boolean {
    return this.tracking;
  }

  /** How many values are held (tests, metrics). */
  get size(): number {
    return this.entries.size;
  }

  /**
   * Opens both connections; tracking comes on when both are ready (and again after every reconnect). A
   * connection that cannot open now does not fail the start: it retries by itself, and the gate uses the
   * one-trip script meanwhile.
   */
  async start(): Promise<void> {
    const open = (connection: Redis) =>
      connection.connect().catch((error) => this.options.onStateChange?.(false, error));
    await Promise.all([open(this.subscriber), open(this.tracker)]);
    await this.establish();
  }

  /**
   * The values of `keys`, from memory when all are held, else read from Redis in one MGET and held when that
   * is safe. `store(values)` says whether to hold them, and until when (a token record's `exp`); undefined
   * holds nothing (e.g. an unknown token: not worth memory an attacker could fill).
   */
  async read(
    keys: string[],
    store: (values: (string | null)[]) => number | undefined = () => Number.POSITIVE_INFINITY,
  ): Promise<(string | null)[]> {
    if (!this.tracking) return this.redis.mget(...keys);
    const held = this.entries.get(keys, Date.now());
    if (held) return held;
    const { result: values, clean } = await this.entries.load(keys, () => this.redis.mget(...keys));
    const until = store(values);
    if (clean && this.tracking && until !== undefined) {
      const expiresAt = Math.min(until, Date.now() + this.options.maxAgeMs);
      keys.forEach((key, i) => this.entries.set(key, values[i], expiresAt));
    }
    return values;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.flush();
    this.subscriber.disconnect();
    this.tracker.disconnect();
  }

  /**
   * For values held elsewhere on the same rules (held-list-states.ts): `listener` gets each invalidated key
   * under `prefix` (a tracked prefix, without the deployment prefix), and `undefined` whenever everything
   * held must be forgotten (a flush: tracking down or up again, Redis flushed).
   */
  watch(prefix: string, listener: (key: string | undefined) => void): void {
    this.watchers.push({ prefix, listener });
  }

  /** The values of `keys` when all are held (and tracking is on), without waiting. */
  peek(keys: string[]): (string | null)[] | undefined {
    return this.tracking ? this.entries.get(keys, Date.now()) : undefined;
  }

  /** Keys written in Redis (with the deployment prefix), or null when Redis flushed its whole keyspace. */
  private invalidated(keys: Buffer[] | null): void {
    if (!keys) return this.flush();
    const prefix = this.options.keyPrefix;
    for (const raw of keys) {
      this.invalidations += 1;
      const full = raw.toString();
      if (!full.startsWith(prefix)) continue;
      const key = full.slice(prefix.length);
      for (const watcher of this.watchers) if (key.startsWith(watcher.prefix)) watcher.listener(key);
      this.entries.invalidate(key);
    }
  }

  /** Forgets everything held; reads in flight will not store. */
  private flush(): void {
    this.entries.flush();
    for (const watcher of this.watchers) watcher.listener(undefined);
  }

  private down(connection: Redis): void {
    if (connection === this.subscriber) this.subscriberId = undefined;
    const was = this.tracking;
    this.tracking = false;
    this.flush();
    if (was) this.options.onStateChange?.(false);
  }

  /** Subscribes and turns tracking on, once both connections are ready; one attempt at a time. */
  private establish(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.establishing ??= this.tryEstablish().finally(() => {
      this.establishing = undefined;
      // A connection may have come back while this attempt ran.
      if (!this.tracking && this.bothReady()) setImmediate(() => void this.establish());
    });
    return this.establishing;
  }

  private bothReady(): boolean {
    return !this.closed && this.subscriber.status === 'ready' && this.tracker.status === 'ready';
  }

  private async tryEstablish(): Promise<void> {
    if (this.tracking || !this.bothReady()) return;
    try {
      if (this.subscriberId === undefined) {
        const id = Number(await this.subscriber.client('ID'));
        await this.subscriber.subscribe(INVALIDATION_CHANNEL);
        this.subscriberId = id;
      }
      const prefixes = this.options.prefixes.flatMap((prefix) => [
        'PREFIX',
        `${this.options.keyPrefix}${prefix}`,
      ]);
      // OFF first: the tracker may still track for a subscriber that is gone (only that one reconnected).
      await this.tracker.call('CLIENT', 'TRACKING', 'OFF');
      await this.tracker.call(
        'CLIENT',
        'TRACKING',
        'ON',
        'REDIRECT',
        this.subscriberId,
        'BCAST',
        ...prefixes,
      );
      if (!this.bothReady() || this.subscriberId === undefined) return;
      this.flush();
      this.tracking = true;
      this.options.onStateChange?.(true);
    } catch (error) {
      // The connection that failed will close and come back ('ready' tries again).
      this.options.onStateChange?.(false, error);
    }
  }
}
