import type { AuthorizationCode } from '@node-oauth/oauth2-server';
import { formatScope, sameScope } from '@pfs/contracts';
import { createHash, timingSafeEqual } from 'node:crypto';

/** What a code exchange sends besides the code, as the library reads it after consuming the code. */
export interface CodeExchangeParameters {
  codeVerifier: unknown;
  redirectUri: unknown;
}

/** RFC 7636 §4.1: code-verifier = 43*128unreserved. */
const CODE_VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

/**
 * The spec: a requested scope must equal the client's registered one; none requested means the registered one.
 * The model's validateScope and the precheck below share it.
 */
export const scopeGrantable = (scope: string[] | undefined, clientScope: string) =>
  !scope || scope.length === 0 || sameScope(formatScope(scope), clientScope);

/** RFC 7636 §4.6 with S256 only (the library allows no `plain`), compared in constant time. */
function pkceVerifies(code: AuthorizationCode, verifier: unknown): boolean {
  if (!code.codeChallenge) return verifier === undefined || verifier === '';
  if ((code.codeChallengeMethod ?? 'S256') !== 'S256') return false;
  if (typeof verifier !== 'string' || !CODE_VERIFIER.test(verifier)) return false;
  const given = Buffer.from(createHash('sha256').update(verifier).digest('base64url'));
  const stored = Buffer.from(code.codeChallenge);
  return given.length === stored.length && timingSafeEqual(given, stored);
}

/**
 * Whether the library's steps after consuming this code (PKCE, redirect URI, scope: AuthorizationCodeGrantType
 * `handle`) will pass for this request. Only then may the code be marked used by the statement that stores the
 * tokens (one round trip less); when any may fail, the code is consumed at once as the library means it to be,
 * so that a failed PKCE attempt still uses the code up (no online guessing of the verifier). Errs on "may fail":
 * a redirect URI sent in the query, not the body, is left to the library.
 */
export function codeExchangeWillPass(
  code: AuthorizationCode,
  sent: CodeExchangeParameters,
  clientScope: string,
): boolean {
  if (!pkceVerifies(code, sent.codeVerifier)) return false;
  if (code.redirectUri && sent.redirectUri !== code.redirectUri) return false;
  return scopeGrantable(code.scope, clientScope);
}
