import { hashToken } from '@pfs/contracts';
import { randomBytes } from 'node:crypto';

const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
export const RECOVERY_CODE_COUNT = 10;

/** A recovery code: 16 characters (about 79 bits) shown as four groups, e.g. `k3m9-x2pq-7hva-c4tn`. */
function generateRecoveryCode(): string {
  const bytes = randomBytes(16);
  const chars = [...bytes].map((byte) => ALPHABET[byte % ALPHABET.length]);
  return [0, 4, 8, 12].map((start) => chars.slice(start, start + 4).join('')).join('-');
}

export function generateRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, generateRecoveryCode);
}

/** Typed codes may differ in case, spaces and dashes; the hash is of the normalised form. */
export function hashRecoveryCode(code: string): string {
  return hashToken(code.toLowerCase().replace(/[\s-]/g, ''));
}

export function looksLikeRecoveryCode(code: string): boolean {
  return /^[a-z0-9]{16}$/.test(code.toLowerCase().replace(/[\s-]/g, ''));
}
