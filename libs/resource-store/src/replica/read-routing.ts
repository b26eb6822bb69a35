import type { TraceContext } from '@pfs/logger';
import type { DataSource } from 'typeorm';

/**
 * Where the primary's WAL position of each user's last write is kept between requests (the API keeps it in
 * Redis: services/api/src/write-positions.ts). Positions are pg_lsn text (`16/B374D848`).
 */
export interface WritePositions {
  /** The position of the user's last recorded write, if any. */
  latest(userId: string): Promise<string | undefined>;
  /** Records `position` unless a later one is already recorded. */
  record(userId: string, position: string): Promise<void>;
}

export interface ReadRoutingOptions {
  /** How long a read waits for the replica to replay the position it needs before it reads the primary. */
  waitMs: number;
  positions?: WritePositions;
  /**
   * Told when a read that could go to the replica went to the primary, and why (for a log line or a metric),
   * with the trace of the work that read, when it has one.
   */
  onFallback?: (
    reason: 'behind' | 'replica-error' | 'positions-error',
    error?: unknown,
    trace?: TraceContext,
  ) => void;
  /** Told when a write's position could not be recorded (the write stands), with the writer's trace. */
  onRecordError?: (error: unknown, trace?: TraceContext) => void;
}

const POLL_MS = 10;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Read-your-writes routing between the primary and a streaming replica (DATABASE_READ_URL). Heavy reads
 * (sums, timeline, summary, budget figures, export rows) ask for a source: the replica once its replay
 * (`pg_last_wal_replay_lsn()`) has reached the position they need (the user's last write, or the position
 * stored on an export), polled for at most `waitMs`; otherwise the primary. Without a replica every read is the
 * primary's. Only store code holds it: repositories choose the pool, nothing above the store sees it.
 */
export class ReadRouting {
  constructor(
    readonly primary: DataSource,
    private readonly replica?: DataSource,
    private readonly options: ReadRoutingOptions = { waitMs: 0 },
  ) {}

  /** No replica: every read on `source`. */
  static primaryOnly(source: DataSource): ReadRouting {
    return new ReadRouting(source);
  }

  get hasReplica(): boolean {
    return this.replica !== undefined;
  }

  /**
   * After a write of the user committed: records the primary's current WAL insert position (at or past the
   * commit record), so the user's next heavy read waits for the replica to pass it. A failure is reported,
   * never thrown: the write has committed.
   */
  async recordWrite(userId: string, trace?: TraceContext): Promise<void> {
    if (!this.replica || !this.options.positions) return;
    try {
      const [{ lsn }] = await this.primary.query('SELECT pg_current_wal_insert_lsn()::text AS lsn');
      await this.options.positions.record(userId, lsn);
    } catch (error) {
      this.options.onRecordError?.(error, trace);
    }
  }

  /** The source for a heavy read of the user: the replica once it has replayed the user's last write. */
  async sourceForUser(userId: string, trace?: TraceContext): Promise<DataSource> {
    if (!this.replica) return this.primary;
    let position: string | undefined;
    try {
      position = await this.options.positions?.latest(userId);
    } catch (error) {
      this.options.onFallback?.('positions-error', error, trace);
      return this.primary;
    }
    return this.sourceAfter(position, trace);
  }

  /** The source for a read that must see everything up to `position` (an export's): replica or primary. */
  async sourceAfter(position: string | null | undefined, trace?: TraceContext): Promise<DataSource> {
    const replica = this.replica;
    if (!replica) return this.primary;
    if (!position) return replica;
    const deadline = Date.now() + this.options.waitMs;
    try {
      for (;;) {
        // A server that is not in recovery is a primary: it has every write.
        const [{ caught }] = await replica.query(
          `SELECT NOT pg_is_in_recovery() OR coalesce(pg_last_wal_replay_lsn() >= $1::pg_lsn, false) AS caught`,
          [position],
        );
        if (caught) return replica;
        const left = deadline - Date.now();
        if (left <= 0) break;
        await sleep(Math.min(POLL_MS, left));
      }
    } catch (error) {
      this.options.onFallback?.('replica-error', error, trace);
      return this.primary;
    }
    this.options.onFallback?.('behind', undefined, trace);
    return this.primary;
  }
}
