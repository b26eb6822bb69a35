import type { Redis } from '@pfs/redis';
import type { Credential } from '@pfs/resource-store';
import type { OtpSecretCipher } from '../security/otp-secret.cipher';
import type { LimitState, RateLimiter } from '../security/rate-limiter';
import { hashRecoveryCode, looksLikeRecoveryCode } from '../security/recovery-codes';
import { matchTotpStep } from '../security/totp';
import type { AuthRepositories } from '../auth-repositories';

export type SecondFactorOutcome =
  | { outcome: 'not-required' }
  | { outcome: 'missing' }
  | { outcome: 'valid' }
  | { outcome: 'invalid' }
  | { outcome: 'throttled'; retryAfterSeconds: number };

export interface SecondFactorDependencies {
  repos: Pick<AuthRepositories, 'credentials' | 'recoveryCodes'>;
  cipher: OtpSecretCipher;
  limiter: RateLimiter;
  redis: Redis;
  maxFailures: number;
}

/**
 * Checks the second factor of a user with two-factor on: a TOTP code (each time step accepted once, so an
 * overheard code cannot be replayed) or an unused recovery code. Attempts are counted per account (a right
 * code clears the count) and refused altogether past `maxFailures` in the rate-limit window.
 */
export async function verifySecondFactor(
  deps: SecondFactorDependencies,
  userId: string,
  code: string | undefined,
  /** Each TOTP code works once per purpose, so signing in and then exchanging a code need not wait 30 s. */
  purpose: 'signin' | 'token',
  /** The user's two-factor state when the caller has just read it (the code exchange's one read), else read here. */
  known?: Pick<Credential, 'otpSecret' | 'otpEnabledAt'>,
): Promise<SecondFactorOutcome> {
  const credential = known ?? (await deps.repos.credentials.findByUserId(userId));
  if (!credential?.otpEnabledAt || !credential.otpSecret) return { outcome: 'not-required' };
  const bucket = `otp:${userId}`;
  const typed = code?.trim();
  if (!typed) {
    // Asking for the code is the spec's first step, not an attempt: it is refused only once throttled.
    const state = await deps.limiter.check(bucket, deps.maxFailures);
    return state.blocked ? throttledFor(state) : { outcome: 'missing' };
  }
  // Counted before checking, so codes sent all at once cannot all slip in under the limit.
  const attempt = await deps.limiter.hit(bucket, deps.maxFailures);
  if (attempt.blocked) return throttledFor(attempt);
  const accepted = looksLikeRecoveryCode(typed)
    ? await deps.repos.recoveryCodes.consume(userId, hashRecoveryCode(typed))
    : await isAcceptedCode(deps, `${purpose}:${userId}`, credential.otpSecret, typed);
  if (accepted) {
    await deps.limiter.reset(bucket);
    return { outcome: 'valid' };
  }
  return { outcome: 'invalid' };
}

const throttledFor = (state: LimitState): SecondFactorOutcome => ({
  outcome: 'throttled',
  retryAfterSeconds: state.retryAfterSeconds,
});

async function isAcceptedCode(
  deps: SecondFactorDependencies,
  replayScope: string,
  encryptedSecret: string,
  code: string,
): Promise<boolean> {
  const step = matchTotpStep(code, deps.cipher.decrypt(encryptedSecret));
  if (step !== undefined) {
    const fresh = await deps.redis.set(`otp-used:${replayScope}:${step}`, '1', 'EX', 120, 'NX');
    return fresh === 'OK';
  }
  return false;
}
