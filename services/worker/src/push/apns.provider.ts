import type { PushToken } from '@pfs/resource-store';
import jwt from 'jsonwebtoken';
import { ClientHttp2Session, connect, constants } from 'node:http2';
import {
  isTemporaryStatus,
  PushMessage,
  PushOutcome,
  PushProvider,
  retryAfterSeconds,
} from './push-provider';

export interface ApnsOptions {
  /** `https://api.push.apple.com` (production) or `https://api.sandbox.push.apple.com`. */
  url: string;
  /** The .p8 signing key (PEM) of the team's APNs auth key, its key id, and the team id. */
  privateKey: string;
  keyId: string;
  teamId: string;
  /** The app's bundle id. */
  topic: string;
  timeoutMs?: number;
}

/** Apple refuses a provider token older than an hour and throttles ones renewed more than every 20 minutes. */
const TOKEN_LIFETIME_MS = 40 * 60 * 1000;

/** Reasons (HTTP 400/410 bodies) that mean the device token itself will never work again. */
const DEAD_TOKEN_REASONS = new Set(['BadDeviceToken', 'DeviceTokenNotForTopic', 'Unregistered']);
/** Reasons that mean our provider token is stale: sign a new one and try again. */
const STALE_PROVIDER_TOKEN = new Set(['ExpiredProviderToken', 'InvalidProviderToken']);

/**
 * Apple Push Notification service over HTTP/2 with token-based (JWT, ES256) authentication: one long-lived
 * HTTP/2 connection, requests multiplexed on it, the provider token reused for 40 minutes.
 */
export class ApnsProvider implements PushProvider {
  readonly name = 'apns';
  private session: ClientHttp2Session | undefined;
  private providerToken: { value: string; issuedAt: number } | undefined;

  constructor(private readonly options: ApnsOptions) {}

  private bearer(): string {
    const now = Date.now();
    if (!this.providerToken || now - this.providerToken.issuedAt > TOKEN_LIFETIME_MS) {
      const value = jwt.sign(
        { iss: this.options.teamId, iat: Math.floor(now / 1000) },
        this.options.privateKey,
        {
          algorithm: 'ES256',
          keyid: this.options.keyId,
          noTimestamp: true,
        },
      );
      this.providerToken = { value, issuedAt: now };
    }
    return this.providerToken.value;
  }

  private connection(): ClientHttp2Session {
    if (!this.session || this.session.closed || this.session.destroyed) {
      const session = connect(this.options.url);
      // A broken connection is replaced on the next send; the error itself surfaces on the request.
      session.on('error', () => undefined);
      session.on('close', () => {
        if (this.session === session) this.session = undefined;
      });
      session.unref();
      this.session = session;
    }
    return this.session;
  }

  send(device: PushToken, message: PushMessage): Promise<PushOutcome> {
    const body = JSON.stringify({
      aps: { alert: { title: message.title, body: message.body }, sound: 'default' },
      ...message.data,
    });
    return new Promise((resolve) => {
      let settled = false;
      const finish = (outcome: PushOutcome) => {
        if (!settled) resolve(outcome);
        settled = true;
      };
      let request;
      try {
        request = this.connection().request({
          ':method': 'POST',
          ':path': `/3/device/${encodeURIComponent(device.token)}`,
          authorization: `bearer ${this.bearer()}`,
          'apns-topic': this.options.topic,
          'apns-push-type': 'alert',
          'apns-priority': '10',
          'apns-collapse-id': message.collapseId,
          'content-type': 'application/json',
        });
      } catch (error) {
        finish({ kind: 'retry', reason: `APNs connection: ${(error as Error).message}` });
        return;
      }
      let status = 0;
      let retryAfter: number | undefined;
      const chunks: Buffer[] = [];
      request.setTimeout(this.options.timeoutMs ?? 10_000, () => {
        request.close(constants.NGHTTP2_CANCEL);
        finish({ kind: 'retry', reason: 'APNs did not answer in time' });
      });
      request.on('response', (headers) => {
        status = Number(headers[':status']);
        retryAfter = retryAfterSeconds(headers['retry-after'] as string | undefined);
      });
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('error', (error) => finish({ kind: 'retry', reason: `APNs: ${error.message}` }));
      request.on('end', () =>
        finish(this.outcome(status, Buffer.concat(chunks).toString('utf8'), retryAfter)),
      );
      request.end(body);
    });
  }

  private outcome(status: number, text: string, retryAfter?: number): PushOutcome {
    if (status === 200) return { kind: 'sent' };
    let reason = text;
    try {
      reason = (JSON.parse(text) as { reason?: string }).reason ?? text;
    } catch {
      // Not JSON: keep the text.
    }
    const described = `APNs ${status} ${reason}`.trim();
    if (status === 410 || DEAD_TOKEN_REASONS.has(reason)) return { kind: 'invalid-token', reason: described };
    if (STALE_PROVIDER_TOKEN.has(reason)) {
      this.providerToken = undefined;
      return { kind: 'retry', reason: described };
    }
    if (isTemporaryStatus(status) || status === 0)
      return { kind: 'retry', reason: described, retryAfterSeconds: retryAfter };
    return { kind: 'failed', reason: described };
  }

  async close(): Promise<void> {
    const session = this.session;
    this.session = undefined;
    if (session && !session.closed) await new Promise<void>((resolve) => session.close(() => resolve()));
  }
}
