import type { PushTokenType } from '@pfs/resource-store';

/** APNs device tokens: hex digits, 32 bytes today; Apple says they may grow, so up to 100 bytes. */
const APNS_TOKEN = /^(?:[0-9a-fA-F]{2}){32,100}$/;
/** FCM registration ids: `<instance id>:<token>` in FCM's alphabet, typically 150–180 characters. */
const FCM_TOKEN = /^[A-Za-z0-9_:-]{100,4096}$/;
/** WNS channel URIs are issued on this host's subdomains (`https://db5.notify.windows.com/?token=…`). */
const WNS_HOST = 'notify.windows.com';

function isWnsChannel(token: string): boolean {
  let url: URL;
  try {
    url = new URL(token);
  } catch {
    return false;
  }
  const host = url.hostname.toLowerCase();
  return url.protocol === 'https:' && (host === WNS_HOST || host.endsWith(`.${WNS_HOST}`));
}

const RULES: Record<PushTokenType, { accepts: (token: string) => boolean; rule: string }> = {
  apple: { accepts: (token) => APNS_TOKEN.test(token), rule: 'an APNs device token (64–200 hex digits)' },
  apple_fcm: {
    accepts: (token) => FCM_TOKEN.test(token),
    rule: 'an FCM registration id (100 or more of A-Z a-z 0-9 _ : -)',
  },
  google: {
    accepts: (token) => FCM_TOKEN.test(token),
    rule: 'an FCM registration id (100 or more of A-Z a-z 0-9 _ : -)',
  },
  windows: {
    accepts: isWnsChannel,
    rule: `a WNS channel URI (https on ${WNS_HOST} or one of its subdomains)`,
  },
};

/**
 * "The type must match the kind of token sent" (spec, POST /me/push): the rule a token of `type` breaks,
 * or undefined when it has that kind's shape. A mismatch is refused at registration instead of failing
 * later at the push provider, where nobody sees it.
 */
export function pushTokenMismatch(type: PushTokenType, token: string): string | undefined {
  const { accepts, rule } = RULES[type];
  return accepts(token) ? undefined : `must be ${rule} for type ${type}`;
}
