/**
 * Where the auth pages keep their sign-in sessions in Redis (under the deployment prefix), shared because
 * the worker's account deletion removes them too. `session:<sha256 of the cookie>` holds one session;
 * `user-sessions:<userId>` is the set of a user's session hashes, the index behind "sign out everywhere".
 */
export const sessionKey = (sessionHash: string) => `session:${sessionHash}`;
export const userSessionsKey = (userId: string) => `user-sessions:${userId}`;

/**
 * The API's rate-limit counters of a user (`rl:{<userId>}:<client>:<window>`, written by its gate script):
 * short-lived, but named by the user's id, so the account deletion removes them too (a SCAN pattern).
 */
export const userRateLimitKeyPattern = (userId: string) => `rl:{${userId}}:*`;

/**
 * The base of a subject's rate-limit counters (`<base><window>`): a user and application, or, unauthenticated,
 * the client's IP. The gate's scripts build the same names in Lua (services/api gate-scripts.ts).
 */
export const rateLimitBase = (subject: { userId: string; app: string } | undefined, clientIp: string) =>
  subject ? `rl:{${subject.userId}}:${subject.app}:` : `rl:{ip:${clientIp}}:`;
