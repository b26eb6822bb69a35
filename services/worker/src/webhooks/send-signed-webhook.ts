import type { WebhookTarget } from '@pfs/contracts';
import type { LookupFunction } from 'node:net';
import http from 'node:http';
import https from 'node:https';
import { type ConnectionOptions, createSecureContext, rootCertificates, type SecureContext } from 'node:tls';
import { Webhook } from 'standardwebhooks';

/** One signed POST: the Standard Webhooks message id, its timestamp and the exact bytes signed and sent. */
export interface WebhookMessage {
  id: string;
  timestamp: Date;
  body: string;
}

export interface SendOptions {
  /** The whole attempt (connect, TLS, answer) is abandoned after this long. */
  timeoutMs: number;
  /**
   * Extra trusted certificate authorities, besides the system's (test and private receivers): a TLS context
   * made once by `trustingAlso`, since building one per attempt (parsing every root certificate) cost ~30 ms of
   * CPU per attempt, most of the worker's time (docs/bench.md, webhooks).
   */
  secureContext?: SecureContext;
}

/** A TLS context trusting the system's certificate authorities and `ca` (PEM); made once per process. */
export function trustingAlso(ca: string): SecureContext {
  return createSecureContext({ ca: [...rootCertificates, ca] });
}

/** How an attempt went: the receiver's status when it answered, how long it took, and why it failed. */
export interface AttemptResult {
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
}

/** The bytes of an answer kept (and discarded): enough to drain it, never a large read. */
const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * A lookup that answers the addresses already checked, whatever the name: the connection is pinned to them
 * (a second DNS answer, after the check, never reaches it).
 */
function pinnedLookup(target: WebhookTarget): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, target.addresses);
    else callback(null, target.address, target.family);
  }) as unknown as LookupFunction;
}

/**
 * Signs `message` with the webhook's secret (Standard Webhooks: HMAC-SHA256 of `id.timestamp.body`, through the
 * `standardwebhooks` package) and POSTs it to the target, connecting to the pinned address (the host name
 * still names the TLS server and the Host header). Redirects are not followed (a 3xx is a failure): a redirect
 * could point anywhere. Never throws: every outcome is an AttemptResult.
 */
export function sendSignedWebhook(
  target: WebhookTarget,
  secret: string,
  message: WebhookMessage,
  options: SendOptions,
): Promise<AttemptResult> {
  const signature = new Webhook(secret).sign(message.id, message.timestamp, message.body);
  const started = process.hrtime.bigint();
  const elapsed = () => Number((process.hrtime.bigint() - started) / 1_000_000n);
  const client = target.url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: Omit<AttemptResult, 'latencyMs'>) => {
      if (settled) return;
      settled = true;
      resolve({ ...result, latencyMs: elapsed() });
    };
    // tls.connect takes `secureContext`; https.RequestOptions does not list it, but passes it on.
    const requestOptions: https.RequestOptions & Pick<ConnectionOptions, 'secureContext'> = {
      method: 'POST',
      // A connection of its own per attempt: no pooled socket (opened for another lookup) is reused.
      agent: false,
      lookup: pinnedLookup(target),
      secureContext: options.secureContext,
      timeout: options.timeoutMs,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'PFS-Webhooks/1',
        'webhook-id': message.id,
        'webhook-timestamp': String(Math.floor(message.timestamp.getTime() / 1000)),
        'webhook-signature': signature,
      },
    };
    const request = client.request(target.url, requestOptions, (response) => {
      let kept = 0;
      response.on('data', (chunk: Buffer) => {
        kept += chunk.length;
        if (kept > MAX_ANSWER_BYTES) response.destroy();
      });
      const status = response.statusCode ?? 0;
      const done = () =>
        finish({
          statusCode: status,
          error: status >= 200 && status < 300 ? null : `the receiver answered HTTP ${status}`,
        });
      response.on('end', done);
      response.on('close', done);
      response.on('error', done);
    });
    const timer = setTimeout(() => {
      request.destroy(new Error(`no answer within ${options.timeoutMs} ms`));
    }, options.timeoutMs);
    request.on('timeout', () => request.destroy(new Error(`no answer within ${options.timeoutMs} ms`)));
    request.on('error', (error: NodeJS.ErrnoException) =>
      finish({ statusCode: null, error: error.code ? `${error.code}: ${error.message}` : error.message }),
    );
    request.on('close', () => clearTimeout(timer));
    request.end(message.body);
  });
}
