import type { PushToken } from '@pfs/resource-store';
import { CachedAccessToken } from './access-token';
import jwt from 'jsonwebtoken';
import { isTemporaryStatus, PushMessage, PushOutcome, PushProvider, refusalOutcome } from './push-provider';

/** The fields of a Google service-account key file that FCM's HTTP v1 API needs. */
export interface FcmServiceAccount {
  project_id: string;
  client_email: string;
  private_key: string;
  token_uri: string;
}

export interface FcmOptions {
  /** `https://fcm.googleapis.com`. */
  url: string;
  serviceAccount: FcmServiceAccount;
  timeoutMs?: number;
}

const SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';

/**
 * Firebase Cloud Messaging, HTTP v1 API (Android devices, and iOS devices registered through FCM). It
 * authenticates with an OAuth 2.0 access token obtained by a service-account JWT (RS256, RFC 7523 grant),
 * reused until a minute before it expires.
 */
export class FcmProvider implements PushProvider {
  readonly name = 'fcm';
  private readonly accessToken: CachedAccessToken;

  constructor(private readonly options: FcmOptions) {
    const account = options.serviceAccount;
    // RFC 7523: the service account signs a short JWT naming the scope; Google answers an access token.
    this.accessToken = new CachedAccessToken(
      'FCM',
      account.token_uri,
      () => ({
        grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
        assertion: jwt.sign({ scope: SCOPE }, account.private_key, {
          algorithm: 'RS256',
          issuer: account.client_email,
          audience: account.token_uri,
          expiresIn: 3600,
        }),
      }),
      options.timeoutMs,
    );
  }

  async send(device: PushToken, message: PushMessage): Promise<PushOutcome> {
    let answer: Response;
    try {
      const token = await this.accessToken.get();
      answer = await fetch(
        `${this.options.url}/v1/projects/${encodeURIComponent(this.options.serviceAccount.project_id)}/messages:send`,
        {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            message: {
              token: device.token,
              notification: { title: message.title, body: message.body },
              data: message.data,
              android: { collapse_key: message.collapseId },
              apns: { headers: { 'apns-collapse-id': message.collapseId } },
            },
          }),
          signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
        },
      );
    } catch (error) {
      return { kind: 'retry', reason: `FCM: ${(error as Error).message}` };
    }
    if (answer.ok) return { kind: 'sent' };
    const text = await answer.text().catch(() => '');
    const described = `FCM ${answer.status} ${errorCodeOf(text) ?? ''}`.trim();
    if (answer.status === 404 || errorCodeOf(text) === 'UNREGISTERED')
      return { kind: 'invalid-token', reason: described };
    return refusalOutcome(answer, described, {
      temporary: isTemporaryStatus(answer.status),
      invalidateToken: () => this.accessToken.invalidate(),
    });
  }

  async close(): Promise<void> {}
}

/** FCM's error code (`UNREGISTERED`, `INVALID_ARGUMENT`, …) from its JSON error body. */
function errorCodeOf(text: string): string | undefined {
  try {
    const error = (
      JSON.parse(text) as { error?: { status?: string; details?: Array<{ errorCode?: string }> } }
    ).error;
    return error?.details?.find((detail) => detail.errorCode)?.errorCode ?? error?.status;
  } catch {
    return undefined;
  }
}
