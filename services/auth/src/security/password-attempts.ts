import type { LimitState, RateLimiter } from './rate-limiter';
import { clientNetwork } from './client-network';

/** The brute-force limits on password checks: sign-in, and turning two-factor off in settings. */
export interface PasswordAttemptLimits {
  limiter: RateLimiter;
  maxFailuresPerAccount: number;
  maxFailuresPerIp: number;
}

export interface PasswordAttempt {
  email: string;
  ip: string | undefined;
}

const accountBucket = (email: string) => `signin-account:${email.trim().toLowerCase()}`;
const ipBucket = (ip: string | undefined) => `signin-ip:${clientNetwork(ip)}`;

/**
 * Counts an attempt before the password is checked, and returns the refusal (for Retry-After) when either
 * limit is passed. Counting first matters: argon2 takes tens of milliseconds, and a limit that only read its
 * counter before the check let a burst of guesses sent at once all through.
 */
export async function countPasswordAttempt(
  deps: PasswordAttemptLimits,
  attempt: PasswordAttempt,
): Promise<LimitState | undefined> {
  const states = await Promise.all([
    deps.limiter.hit(accountBucket(attempt.email), deps.maxFailuresPerAccount),
    deps.limiter.hit(ipBucket(attempt.ip), deps.maxFailuresPerIp),
  ]);
  return states.find((state) => state.blocked);
}

/** A right password: the account starts afresh, and the attempt no longer counts against the IP. */
export async function forgivePasswordAttempt(deps: PasswordAttemptLimits, attempt: PasswordAttempt) {
  await Promise.all([
    deps.limiter.reset(accountBucket(attempt.email)),
    deps.limiter.forgive(ipBucket(attempt.ip)),
  ]);
}
