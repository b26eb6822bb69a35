/**
 * Whether a WNS channel URI's host is one of `allowedHosts` (WNS_CHANNEL_HOSTS) or a subdomain of one.
 * The API refuses other hosts at POST /me/push and the worker never POSTs to them (the token is a URL
 * a client chose: without this, a client could make the worker call any host).
 */
export function isAllowedWnsHost(hostname: string, allowedHosts: readonly string[]): boolean {
  const host = hostname.toLowerCase();
  return allowedHosts.some((suffix) => host === suffix || host.endsWith(`.${suffix}`));
}
