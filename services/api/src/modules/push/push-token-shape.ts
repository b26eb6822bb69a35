import { isAllowedWnsHost } from '@pfs/contracts';
import type { PushTokenType } from '@pfs/resource-store';

/** APNs device tokens: hex digits, 32 bytes today; Apple says they may grow, so up to 100 bytes. */
const APNS_TOKEN = /^(?:[0-9a-fA-F]{2}){32,100}$/;
/** FCM registration ids: `<instance id>:<token>` in FCM's alphabet, typically 150–180 characters. */
const FCM_TOKEN = /^[A-Za-z0-9_:-]{100,4096}$/;
/** WNS channel URIs are issued on WNS_CHANNEL_HOSTS' subdomains (`https://db5.notify.windows.com/?token=…`). */
function isWnsChannel(token: string, wnsHosts: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(token);
  } catch {
    return false;
  }
  return url.protocol === 'https:' && isAllowedWnsHost(url.hostname, wnsHosts);
}

type Rule = {
  accepts: (token: string, wnsHosts: readonly string[]) => boolean;
  rule: (wnsHosts: readonly string[]) => string;
};

const FCM_RULE = () => 'an FCM registration id (100 or more of A-Z a-z 0-9 _ : -)';

const RULES: Record<PushTokenType, Rule> = {
  apple: {
    accepts: (token) => APNS_TOKEN.test(token),
    rule: () => 'an APNs device token (64–200 hex digits)',
  },
  apple_fcm: { accepts: (token) => FCM_TOKEN.test(token), rule: FCM_RULE },
  google: { accepts: (token) => FCM_TOKEN.test(token), rule: FCM_RULE },
  windows: {
    accepts: isWnsChannel,
    rule: (wnsHosts) => `a WNS channel URI (https on ${wnsHosts.join(', ')} or a subdomain)`,
  },
};

/**
 * "The type must match the kind of token sent" (spec, POST /me/push): the rule a token of `type` breaks,
 * or undefined when it has that kind's shape. A mismatch is refused at registration instead of failing
 * later at the push provider, where nobody sees it.
 */
export function pushTokenMismatch(
  type: PushTokenType,
  token: string,
  wnsHosts: readonly string[],
): string | undefined {
  const { accepts, rule } = RULES[type];
  return accepts(token, wnsHosts) ? undefined : `must be ${rule(wnsHosts)} for type ${type}`;
}
