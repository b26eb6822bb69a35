import {
  generateWebhookSecret,
  parseWebhookUrl,
  resolveWebhookTarget,
  WebhookUrlRefused,
  type WebhookSecretCipher,
  type WebhookUrlPolicy,
} from '@pfs/contracts';
import { inputError } from '@pfs/errors';
import type { UserRead, Webhook, WebhookRepository } from '@pfs/resource-store';
import type { WebhookBody } from './webhook-body';

export interface WebhookUseCaseDeps {
  webhooks: WebhookRepository;
  cipher: WebhookSecretCipher;
  policy: WebhookUrlPolicy;
}

/**
 * Checks a webhook URL as a delivery would see it: its form, then every address its host resolves to
 * (SSRF: no loopback, private, link-local, multicast or unspecified address). 400 naming `url` and why.
 */
export async function assertDeliverableUrl(raw: string, policy: WebhookUrlPolicy): Promise<string> {
  try {
    const url = parseWebhookUrl(raw, policy);
    await resolveWebhookTarget(url, policy);
    return url.toString();
  } catch (error) {
    if (error instanceof WebhookUrlRefused) throw inputError([{ field: 'url', error: error.message }]);
    throw error;
  }
}

/** Registers a webhook of the user and application; the secret is returned this once, stored encrypted. */
export async function registerWebhook(
  deps: WebhookUseCaseDeps,
  user: UserRead,
  app: string,
  body: WebhookBody,
): Promise<{ webhook: Webhook; secret: string }> {
  const url = await assertDeliverableUrl(body.url, deps.policy);
  const secret = generateWebhookSecret();
  const webhook = await deps.webhooks.create(
    user,
    app,
    { url, events: body.events, description: body.description },
    deps.cipher.encrypt(secret),
  );
  return { webhook, secret };
}

/** Replaces a webhook's URL (checked again), events, description and enabled state. */
export async function replaceWebhook(
  deps: WebhookUseCaseDeps,
  user: UserRead,
  app: string,
  id: string,
  body: WebhookBody,
): Promise<Webhook | undefined> {
  const url = await assertDeliverableUrl(body.url, deps.policy);
  return deps.webhooks.update(user, app, id, { ...body, url });
}
