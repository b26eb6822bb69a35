import { authenticator } from 'otplib';

/** RFC 6238 defaults (SHA-1, 6 digits, 30 s steps), accepting one step of clock drift either way. */
const totp = authenticator.clone({ window: 1 });
const STEP_SECONDS = 30;

/** A new base32 TOTP secret of 160 bits (RFC 4226 §4 recommends at least 128). */
export function generateTotpSecret(): string {
  return totp.generateSecret(20);
}

/** The `otpauth://` URI authenticator apps read from the QR code. */
export function totpUri(accountName: string, secret: string): string {
  return totp.keyuri(accountName, 'PFS', secret);
}

/** The current code, for tests and tools. */
export function generateTotpCode(secret: string): string {
  return totp.generate(secret);
}

/**
 * Checks a code and returns the time step it belongs to (so a code can be refused when replayed), or
 * undefined when it is wrong.
 */
export function matchTotpStep(code: string, secret: string): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const delta = totp.checkDelta(code, secret);
  if (delta === null) return undefined;
  return Math.floor(Date.now() / 1000 / STEP_SECONDS) + delta;
}
