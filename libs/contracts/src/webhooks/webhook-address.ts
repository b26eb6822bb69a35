import ipaddr from 'ipaddr.js';
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';

/** Where webhooks may point (both the API, at registration, and the worker, at every delivery, apply it). */
export interface WebhookUrlPolicy {
  /** Only `https:` URLs (always so in production). */
  requireHttps: boolean;
  /** Loopback receivers (127.0.0.0/8, ::1) are allowed: tests and development only (WEBHOOK_ALLOW_LOOPBACK). */
  allowLoopback: boolean;
}

/** A URL or address the policy refuses; `message` says why (it is shown to the client as is). */
export class WebhookUrlRefused extends Error {}

/** Resolves a host name to every address it has (the system resolver: what a connection would use). */
export type HostLookup = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

const systemLookup: HostLookup = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

export const MAX_WEBHOOK_URL_LENGTH = 2048;

/** The checks that need no DNS: an absolute http(s) URL, no user info, https when required. */
export function parseWebhookUrl(raw: string, policy: WebhookUrlPolicy): URL {
  if (raw.length > MAX_WEBHOOK_URL_LENGTH) {
    throw new WebhookUrlRefused(`must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`);
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebhookUrlRefused('must be an absolute URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new WebhookUrlRefused('must be an https URL');
  if (policy.requireHttps && url.protocol !== 'https:') throw new WebhookUrlRefused('must be an https URL');
  if (url.username || url.password) throw new WebhookUrlRefused('must not carry a user name or password');
  if (!url.hostname) throw new WebhookUrlRefused('must name a host');
  return url;
}

/** IPv6 global unicast (2000::/3): everything else (ULA, link-local, mapped, NAT64, …) is not a public host. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/**
 * Why an address may not receive webhooks (undefined: it may). IPv4-mapped IPv6 addresses are judged as the
 * IPv4 address they carry. Only public unicast addresses pass (and loopback when the policy allows it):
 * private, link-local, multicast, unspecified, broadcast, carrier-grade NAT, reserved and every IPv6 address
 * outside global unicast, or inside its special ranges (6to4, Teredo, NAT64, …), are refused.
 */
export function addressProblem(address: string, policy: WebhookUrlPolicy): string | undefined {
  if (!ipaddr.isValid(address)) return 'is not an IP address';
  const parsed = ipaddr.process(address);
  const range = parsed.range();
  if (range === 'loopback') return policy.allowLoopback ? undefined : 'is a loopback address';
  if (range !== 'unicast') return `is a ${range} address`;
  if (parsed.kind() === 'ipv6' && !parsed.match(GLOBAL_UNICAST_V6)) return 'is not a global unicast address';
  return undefined;
}

/** The address a delivery connects to, pinned: the connection goes to this address, never to a new lookup. */
export interface WebhookTarget {
  url: URL;
  /** The first address (what a single-address connection uses). */
  address: string;
  family: 4 | 6;
  /** Every address the host resolved to, all checked (a dual-stack connection may try each). */
  addresses: Array<{ address: string; family: 4 | 6 }>;
}

/**
 * Resolves the URL's host and checks every address it resolves to (one bad address refuses the URL: a
 * rebinding attacker controls which one a later lookup returns). The caller connects to the address returned,
 * so the name cannot resolve to another one between this check and the connection (DNS rebinding).
 */
export async function resolveWebhookTarget(
  url: URL,
  policy: WebhookUrlPolicy,
  lookup: HostLookup = systemLookup,
): Promise<WebhookTarget> {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: Array<{ address: string; family: number }>;
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    try {
      addresses = await lookup(host);
    } catch {
      throw new WebhookUrlRefused(`host ${host} does not resolve`);
    }
    if (!addresses.length) throw new WebhookUrlRefused(`host ${host} does not resolve`);
  }
  for (const { address } of addresses) {
    const problem = addressProblem(address, policy);
    if (problem) throw new WebhookUrlRefused(`host ${host} resolves to ${address}, which ${problem}`);
  }
  const checked = addresses.map(({ address, family }) => ({
    address,
    family: family === 6 ? (6 as const) : (4 as const),
  }));
  return { url, address: checked[0].address, family: checked[0].family, addresses: checked };
}
