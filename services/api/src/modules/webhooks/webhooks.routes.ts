import { AppError, notFound } from '@pfs/errors';
import { parsePageParams } from '@pfs/resource-api';
import type { Webhook } from '@pfs/resource-store';
import type { Request } from 'express';
import type { ApiDependencies } from '../../dependencies';
import type { ApiHandler } from '../../http/api-operation';
import type { RequestContext } from '../../http/request-context';
import { assertEventScopes, mayReadWebhook, parseWebhookBody } from './webhook-body';
import { presentDelivery, presentWebhook } from './webhooks.presenter';
import { registerWebhook, replaceWebhook, type WebhookUseCaseDeps } from './register-webhook.use-case';

export function webhooksHandlers(deps: ApiDependencies) {
  const api = deps.resourceApi;
  const { webhooks, webhookDeliveries: deliveries } = deps.repos;
  const useCases: WebhookUseCaseDeps = {
    webhooks,
    cipher: deps.webhookCipher,
    policy: deps.webhookUrlPolicy,
  };

  /** The caller's webhook named in the path: 404 unless it is this user's and this application's. */
  const webhookOf = async (ctx: RequestContext, req: Request): Promise<Webhook> => {
    const webhook = await webhooks.findById(deps.store.read(ctx), ctx.app, String(req.params.id));
    if (!webhook) throw notFound('Webhook', String(req.params.id));
    assertEventScopes(ctx.scopes, webhook.events);
    return webhook;
  };

  const list: ApiHandler = async (ctx, req, res) => {
    const all = await webhooks.list(deps.store.read(ctx), ctx.app);
    const visible = all.filter((webhook) => mayReadWebhook(ctx.scopes, webhook.events));
    const { page, perPage } = parsePageParams(req.query as Record<string, unknown>);
    api.respond.sendOffsetPage(req, res, 'webhooks', {
      page,
      perPage,
      total: visible.length,
      body: visible.slice(page * perPage, (page + 1) * perPage).map((webhook) => presentWebhook(webhook)),
    });
  };

  const create: ApiHandler = async (ctx, req, res) => {
    const body = parseWebhookBody(req.body);
    assertEventScopes(ctx.scopes, body.events);
    const { webhook, secret } = await registerWebhook(useCases, deps.store.read(ctx), ctx.app, body);
    api.respond.sendCreated(res, 'webhooks', '/webhooks', webhook.id, presentWebhook(webhook, secret));
  };

  const get: ApiHandler = async (ctx, req, res) => {
    const webhook = await webhookOf(ctx, req);
    api.respond.sendObject(req, res, 'webhooks', presentWebhook(webhook), webhook.modifiedAt);
  };

  const replace: ApiHandler = async (ctx, req, res) => {
    const current = await webhookOf(ctx, req);
    const body = parseWebhookBody(req.body);
    assertEventScopes(ctx.scopes, body.events);
    const updated = await replaceWebhook(useCases, deps.store.read(ctx), ctx.app, current.id, body);
    if (!updated) throw notFound('Webhook', current.id);
    api.respond.sendObject(req, res, 'webhooks', presentWebhook(updated), updated.modifiedAt);
  };

  const remove: ApiHandler = async (ctx, req, res) => {
    const current = await webhookOf(ctx, req);
    if (!(await webhooks.delete(deps.store.read(ctx), ctx.app, current.id))) {
      throw notFound('Webhook', current.id);
    }
    api.respond.sendNoContent(res);
  };

  const listDeliveries: ApiHandler = async (ctx, req, res) => {
    const webhook = await webhookOf(ctx, req);
    const { page, perPage } = parsePageParams(req.query as Record<string, unknown>, 50);
    const found = await deliveries.list(deps.store.read(ctx), webhook.id, page, perPage);
    api.respond.sendOffsetPage(req, res, 'webhook-deliveries', {
      page,
      perPage,
      total: found.total,
      body: found.items.map(presentDelivery),
    });
  };

  const getDelivery: ApiHandler = async (ctx, req, res) => {
    const webhook = await webhookOf(ctx, req);
    const id = String(req.params.delivery_id);
    const delivery = await deliveries.find(deps.store.read(ctx), webhook.id, id);
    if (!delivery) throw notFound('Webhook delivery', id);
    api.respond.sendObject(req, res, 'webhook-deliveries', presentDelivery(delivery));
  };

  /** Sends a finished delivery again, same payload and webhook-id: answers it pending (it goes out through the queue). */
  const redeliver: ApiHandler = async (ctx, req, res) => {
    const webhook = await webhookOf(ctx, req);
    const id = String(req.params.delivery_id);
    const read = deps.store.read(ctx);
    if (!(await deliveries.find(read, webhook.id, id))) throw notFound('Webhook delivery', id);
    if (!webhook.enabled) {
      throw new AppError('CONFLICT', { description: 'The webhook is disabled: enable it (PUT) first.' });
    }
    const run = await deliveries.redeliver(read, webhook.id, id);
    if (run === undefined) {
      throw new AppError('CONFLICT', { description: 'The delivery is still pending: it is being sent.' });
    }
    await deps.webhookQueue.enqueue(id, run);
    await deliveries.markQueued([id]);
    const delivery = await deliveries.find(read, webhook.id, id);
    api.respond.sendObject(req, res, 'webhook-deliveries', presentDelivery(delivery!));
  };

  return { list, create, get, replace, remove, listDeliveries, getDelivery, redeliver };
}

export type WebhooksHandlers = ReturnType<typeof webhooksHandlers>;
