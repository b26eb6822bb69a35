/**
 * Turns the environment compose gives a container into one a test can run on this machine, changing only
 * what Docker's network would provide (documented in docs/operations.md, "Deploy with Docker Compose"):
 * - a URL whose host is a compose service (postgres, redis, minio) points at the same server on loopback;
 *   for Postgres the test run's database and its role replace `pfs` (the machine's Postgres trusts `postgres`);
 * - each service listens on a free port in place of its container port;
 * - REDIS_KEY_PREFIX is unique to the test run, so it shares the machine's Redis safely.
 */
export interface Loopback {
  /** compose service name → the loopback URL standing in for it. */
  hosts: Record<string, string>;
  /** Variables set on top (the listening ports, the key prefix). */
  overrides: Record<string, string>;
}

export function toLoopbackEnv(
  environment: Record<string, unknown>,
  loopback: Loopback,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, raw] of Object.entries(environment)) {
    const value = String(raw);
    env[name] = rewriteUrl(value, loopback.hosts) ?? value;
  }
  return { ...env, ...loopback.overrides };
}

function rewriteUrl(value: string, hosts: Record<string, string>): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  const replacement = hosts[url.hostname];
  if (!replacement) return undefined;
  const target = new URL(replacement);
  url.host = target.host;
  if (url.protocol.startsWith('postgres')) {
    url.username = target.username;
    url.password = target.password;
    url.pathname = target.pathname;
  }
  return url.toString().replace(/\/$/, '');
}
