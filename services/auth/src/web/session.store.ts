import { generateToken, hashToken } from '@pfs/contracts';
import type { Redis } from '@pfs/redis';

export interface Session {
  userId: string;
  createdAt: number;
}

export interface PendingSignIn {
  userId: string;
  returnTo: string;
}

const PENDING_TTL_SECONDS = 300;

/** Sign-in sessions of the authorization pages, in Redis under the hash of the cookie value. */
export class SessionStore {
  constructor(
    private readonly redis: Redis,
    private readonly ttlSeconds: number,
  ) {}

  async create(userId: string): Promise<string> {
    const id = generateToken();
    const session: Session = { userId, createdAt: Date.now() };
    await this.redis.set(`session:${hashToken(id)}`, JSON.stringify(session), 'EX', this.ttlSeconds);
    return id;
  }

  async find(id: string | undefined): Promise<Session | undefined> {
    if (!id) return undefined;
    const raw = await this.redis.get(`session:${hashToken(id)}`);
    return raw ? (JSON.parse(raw) as Session) : undefined;
  }

  async destroy(id: string | undefined): Promise<void> {
    if (id) await this.redis.del(`session:${hashToken(id)}`);
  }

  /**
   * A sign-in that passed the password but still owes the second factor: short-lived, and not a session
   * (it opens nothing but the two-factor step).
   */
  async createPending(pending: PendingSignIn): Promise<string> {
    const id = generateToken();
    await this.redis.set(
      `signin-pending:${hashToken(id)}`,
      JSON.stringify(pending),
      'EX',
      PENDING_TTL_SECONDS,
    );
    return id;
  }

  async findPending(id: string | undefined): Promise<PendingSignIn | undefined> {
    if (!id) return undefined;
    const raw = await this.redis.get(`signin-pending:${hashToken(id)}`);
    return raw ? (JSON.parse(raw) as PendingSignIn) : undefined;
  }

  async destroyPending(id: string | undefined): Promise<void> {
    if (id) await this.redis.del(`signin-pending:${hashToken(id)}`);
  }
}
