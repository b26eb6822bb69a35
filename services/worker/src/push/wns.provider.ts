import { isAllowedWnsHost } from '@pfs/contracts';
import type { PushToken } from '@pfs/resource-store';
import { CachedAccessToken } from './access-token';
import { isTemporaryStatus, PushMessage, PushOutcome, PushProvider, refusalOutcome } from './push-provider';

export interface WnsOptions {
  clientId: string;
  clientSecret: string;
  /** `https://login.live.com/accesstoken.srf`. */
  tokenUrl: string;
  /**
   * Host suffixes a channel URI may point at (`notify.windows.com`). The channel URI is the device token a
   * client registered: without this check, a client could make the worker POST to any host (SSRF).
   */
  channelHosts: string[];
  timeoutMs?: number;
}

const escapeXml = (text: string) =>
  text.replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!,
  );

/** Windows Push Notification Services: a toast POSTed to the device's channel URI with an OAuth token. */
export class WnsProvider implements PushProvider {
  readonly name = 'wns';
  private readonly accessToken: CachedAccessToken;

  constructor(private readonly options: WnsOptions) {
    this.accessToken = new CachedAccessToken(
      'WNS',
      options.tokenUrl,
      () => ({
        grant_type: 'client_credentials',
        client_id: options.clientId,
        client_secret: options.clientSecret,
        scope: 'notify.windows.com',
      }),
      options.timeoutMs,
    );
  }

  /** The channel URI if it is one WNS would issue: https on an allowed host (plain http on loopback, for tests). */
  private channelOf(token: string): URL | undefined {
    let url: URL;
    try {
      url = new URL(token);
    } catch {
      return undefined;
    }
    const host = url.hostname.toLowerCase();
    const allowed = isAllowedWnsHost(host, this.options.channelHosts);
    const loopback = host === '127.0.0.1' || host === 'localhost' || host === '[::1]';
    if (!allowed || (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback))) return undefined;
    return url;
  }

  async send(device: PushToken, message: PushMessage): Promise<PushOutcome> {
    const channel = this.channelOf(device.token);
    if (!channel) return { kind: 'invalid-token', reason: 'WNS channel URI is not on an allowed WNS host' };
    const launch = new URLSearchParams(message.data).toString();
    const toast =
      `<toast launch="${escapeXml(launch)}"><visual><binding template="ToastGeneric">` +
      `<text>${escapeXml(message.title)}</text><text>${escapeXml(message.body)}</text>` +
      `</binding></visual></toast>`;
    let answer: Response;
    try {
      answer = await fetch(channel, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${await this.accessToken.get()}`,
          'content-type': 'text/xml',
          'x-wns-type': 'wns/toast',
          'x-wns-tag': message.collapseId.slice(0, 16),
        },
        body: toast,
        redirect: 'error',
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
      });
    } catch (error) {
      return { kind: 'retry', reason: `WNS: ${(error as Error).message}` };
    }
    const described = `WNS ${answer.status} ${answer.headers.get('x-wns-notificationstatus') ?? ''}`.trim();
    if (answer.ok) return { kind: 'sent' };
    if (answer.status === 404 || answer.status === 410) return { kind: 'invalid-token', reason: described };
    return refusalOutcome(answer, described, {
      temporary: isTemporaryStatus(answer.status) || answer.status === 406,
      invalidateToken: () => this.accessToken.invalidate(),
    });
  }

  async close(): Promise<void> {}
}
