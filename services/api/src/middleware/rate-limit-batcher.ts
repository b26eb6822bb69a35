import type { Redis } from '@pfs/redis';
import { BATCH_LIMIT } from './gate-scripts';

/**
 * The rate limit counted in this process and sent to Redis's sliding-window buckets in batches: one script
 * call (`BATCH_LIMIT`) per subject and batch, instead of one per request. One batch is on its way at a time;
 * the next leaves as soon as it is answered (or at once when none is), with what came meanwhile.
 *
 * A request is decided here, without waiting for Redis, only while all of these hold for its subject
 * (`rl:{…}:` base); otherwise it waits for its batch and the script decides it, exactly, as before:
 * - it is busy: at least HOT_REQUESTS requests of it in the last HOT_WINDOW_MS (a quiet subject gains
 *   nothing from not waiting, and it keeps the outage behaviour: see below);
 * - Redis answered a batch of it within LIVE_MS, in the current bucket: the counts are recent;
 * - its count (Redis's last answer + what this process admitted since) is below half the limit, and fewer
 *   than `maxUncounted` of its requests admitted here are not yet counted in Redis.
 * Over-admission with several API processes: a process's view lacks only what the others counted since its
 * last answer. Below half the limit nothing is over-admitted unless the others add more than half the limit
 * within one batch's round trip; then each process over-admits at most `maxUncounted` before its next
 * answer shows the count above half and its requests wait again. So with P processes the limit is exceeded
 * by at most P x maxUncounted (maxUncounted = limit / 16, at most 64), and not at all otherwise.
 * Outages: a quiet subject's request waits for Redis and gets 503 when it is stopped or frozen; a busy
 * subject's requests are answered from its counts for at most LIVE_MS after Redis's last answer, then wait.
 * 304 refunds join the next batch (their DECRBYs go in the same write, before the scripts).
 */
export interface LimitAnswer {
  allowed: boolean;
  /** Requests counted in the window once this one was (or, not counting, as things stand). */
  used: number;
  /** Milliseconds until the window allows a request again (refused requests). */
  waitMs: number;
  /** The bucket counted, for a refund. */
  bucketKey: string;
}

/** Decided here only for a subject with this many requests in the last HOT_WINDOW_MS. */
const HOT_REQUESTS = 16;
const HOT_WINDOW_MS = 100;
/** Decided here only within this long after Redis last answered a batch of the subject. */
const LIVE_MS = 100;

/** The thresholds above (tests change them to single out one rule). */
export interface BatcherTuning {
  hotRequests?: number;
  liveMs?: number;
}

interface Waiter {
  counting: boolean;
  resolve: (answer: LimitAnswer) => void;
  reject: (error: unknown) => void;
}

/** What this process knows of one subject. */
interface Subject {
  /** The bucket of `current` / `previous`, and when Redis answered them. */
  bucket: number;
  answeredAt: number;
  current: number;
  previous: number;
  /** Admitted here and not yet counted in an answered batch (in the next batch or one on its way). */
  uncounted: number;
  /** Admitted here and not yet sent. */
  unsent: number;
  /** Requests in this and the previous HOT_WINDOW_MS. */
  hits: number;
  previousHits: number;
  hitsSince: number;
}

type BatchReply = [number, number, number, number, number];
type BatchCommands = { pfsBatchLimit(...args: unknown[]): Promise<BatchReply> };

export class RateLimitBatcher {
  private waiting = new Map<string, Waiter[]>();
  private refunds = new Map<string, number>();
  private readonly subjects = new Map<string, Subject>();
  /** Subjects with requests admitted here and not yet sent. */
  private unsent = new Set<string>();
  private forgottenAt = 0;
  private sending = false;
  private scheduled = false;
  private readonly maxUncounted: number;
  private readonly hotRequests: number;
  private readonly liveMs: number;

  constructor(
    private readonly redis: Redis,
    private readonly limit: number,
    private readonly windowMs: number,
    tuning: BatcherTuning = {},
  ) {
    this.maxUncounted = Math.min(64, Math.floor(limit / 16));
    this.hotRequests = tuning.hotRequests ?? HOT_REQUESTS;
    this.liveMs = tuning.liveMs ?? LIVE_MS;
    if (!('pfsBatchLimit' in redis))
      redis.defineCommand('pfsBatchLimit', { numberOfKeys: 2, lua: BATCH_LIMIT });
  }

  /**
   * Counts one request of `base` (`rl:{<subject>}:…:`), or only reads its count when `counting` is false.
   * Answers at once when the subject may be decided here (see above), else when its batch is answered.
   */
  count(base: string, counting: boolean): LimitAnswer | Promise<LimitAnswer> {
    const now = Date.now();
    const subject = this.subjects.get(base);
    const local = subject && this.decideHere(subject, base, counting, now);
    if (local) return local;
    return new Promise((resolve, reject) => {
      const waiters = this.waiting.get(base);
      if (waiters) waiters.push({ counting, resolve, reject });
      else this.waiting.set(base, [{ counting, resolve, reject }]);
      this.schedule();
    });
  }

  /** Gives back one request of `bucketKey` in the next batch. */
  refund(bucketKey: string): void {
    this.refunds.set(bucketKey, (this.refunds.get(bucketKey) ?? 0) + 1);
    this.schedule();
  }

  private decideHere(
    subject: Subject,
    base: string,
    counting: boolean,
    now: number,
  ): LimitAnswer | undefined {
    if (now - subject.hitsSince >= HOT_WINDOW_MS) {
      subject.previousHits = now - subject.hitsSince >= 2 * HOT_WINDOW_MS ? 0 : subject.hits;
      subject.hits = 0;
      subject.hitsSince = now;
    }
    subject.hits += 1;
    const bucket = Math.floor(now / this.windowMs);
    if (
      subject.hits + subject.previousHits < this.hotRequests ||
      subject.bucket !== bucket ||
      now - subject.answeredAt > this.liveMs ||
      subject.uncounted >= this.maxUncounted
    )
      return undefined;
    const weight = 1 - (now % this.windowMs) / this.windowMs;
    const current = subject.current + subject.uncounted;
    const used = Math.floor(subject.previous * weight) + current;
    if (used >= this.limit / 2) return undefined;
    const bucketKey = `${base}${bucket}`;
    if (!counting) return { allowed: true, used, waitMs: 0, bucketKey };
    subject.uncounted += 1;
    subject.unsent += 1;
    this.unsent.add(base);
    this.schedule();
    return { allowed: true, used: used + 1, waitMs: 0, bucketKey };
  }

  private schedule(): void {
    if (this.sending || this.scheduled) return;
    this.scheduled = true;
    // setImmediate: after the poll phase, so every request parsed in this turn joins the batch.
    setImmediate(() => void this.send());
  }

  private async send(): Promise<void> {
    this.scheduled = false;
    this.sending = true;
    const waiting = this.waiting;
    const refunds = this.refunds;
    const unsent = this.unsent;
    this.waiting = new Map();
    this.refunds = new Map();
    this.unsent = new Set();
    const now = Date.now();
    const bucket = Math.floor(now / this.windowMs);
    const calls: Promise<unknown>[] = [];
    // A refund that fails is lost, as before (the request was served): never an error for anyone.
    for (const [key, n] of refunds) calls.push(this.redis.decrby(key, n).catch(() => undefined));
    for (const [base, waiters] of waiting) calls.push(this.settle(base, bucket, now, waiters));
    for (const base of unsent) if (!waiting.has(base)) calls.push(this.settle(base, bucket, now, []));
    this.forgetQuiet(now);
    await Promise.all(calls);
    this.sending = false;
    if (this.waiting.size > 0 || this.refunds.size > 0 || this.unsent.size > 0) this.schedule();
  }

  /** Once a second, drops subjects not answered for a while (their counts are too old to be used). */
  private forgetQuiet(now: number): void {
    if (now - this.forgottenAt < 1_000) return;
    this.forgottenAt = now;
    for (const [base, subject] of this.subjects)
      if (now - subject.answeredAt > 1_000 && subject.uncounted === 0) this.subjects.delete(base);
  }

  private async settle(base: string, bucket: number, now: number, waiters: Waiter[]): Promise<void> {
    const subject = this.subjects.get(base);
    const counted = subject?.unsent ?? 0;
    if (subject) subject.unsent = 0;
    const asked = waiters.reduce((n, waiter) => n + (waiter.counting ? 1 : 0), 0);
    const bucketKey = `${base}${bucket}`;
    let reply: BatchReply;
    try {
      reply = await (this.redis as unknown as BatchCommands).pfsBatchLimit(
        bucketKey,
        `${base}${bucket - 1}`,
        now,
        this.windowMs,
        this.limit,
        asked,
        counted,
      );
    } catch (error) {
      // The requests admitted here were served: they go again with the next batch. No more are admitted
      // here until Redis answers (LIVE_MS).
      if (subject && counted > 0) {
        subject.unsent += counted;
        this.unsent.add(base);
      }
      for (const waiter of waiters) waiter.reject(error);
      return;
    }
    const [admitted, usedBefore, waitMs, current, previous] = reply;
    this.remember(base, bucket, current, previous, counted);
    let admittedSoFar = 0;
    for (const waiter of waiters) {
      if (waiter.counting && admittedSoFar < admitted) {
        admittedSoFar += 1;
        waiter.resolve({ allowed: true, used: usedBefore + admittedSoFar, waitMs: 0, bucketKey });
      } else {
        const used = usedBefore + admitted;
        waiter.resolve({ allowed: !waiter.counting, used, waitMs, bucketKey });
      }
    }
  }

  private remember(base: string, bucket: number, current: number, previous: number, counted: number): void {
    const now = Date.now();
    const subject = this.subjects.get(base);
    if (!subject) {
      this.subjects.set(base, {
        bucket,
        answeredAt: now,
        current,
        previous,
        uncounted: 0,
        unsent: 0,
        hits: 0,
        previousHits: 0,
        hitsSince: now,
      });
      return;
    }
    Object.assign(subject, { bucket, answeredAt: now, current, previous });
    subject.uncounted -= counted;
  }
}
