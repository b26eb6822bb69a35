import type { DeclaredOperation } from '../../http/api-operation';
import type { WebhooksHandlers } from './webhooks.routes';
import { deliveriesListQuery, webhooksListQuery } from './webhooks.schema';

/**
 * No operation declares a scope: what a webhook needs depends on its events (the read scope of each event's
 * area), which the handlers check against the body or the stored webhook (403 naming the missing scopes).
 */
export const webhooksOperations: Array<DeclaredOperation<WebhooksHandlers>> = [
  {
    resource: 'webhooks',
    rel: 'list',
    method: 'GET',
    href: '/webhooks',
    title:
      "List this application's webhooks (those whose events the token may read; the read scope of each event's area)",
    hrefSchema: webhooksListQuery,
    target: 'list',
    handler: 'list',
  },
  {
    resource: 'webhooks',
    rel: 'create',
    method: 'POST',
    href: '/webhooks',
    title:
      "Register a webhook; the answer carries its signing secret, this once (needs the read scope of each event's area)",
    submission: 'create',
    target: 'object',
    handler: 'create',
  },
  {
    resource: 'webhooks',
    rel: 'self',
    method: 'GET',
    href: '/webhooks/{id}',
    title: "Get a webhook (needs the read scope of each event's area)",
    target: 'object',
    handler: 'get',
  },
  {
    resource: 'webhooks',
    rel: 'update',
    method: 'PUT',
    href: '/webhooks/{id}',
    title:
      "Replace a webhook's URL, events, description and enabled state (needs the read scope of each old and new event's area)",
    submission: 'update',
    target: 'object',
    handler: 'replace',
  },
  {
    resource: 'webhooks',
    rel: 'delete',
    method: 'DELETE',
    href: '/webhooks/{id}',
    title: "Delete a webhook and its deliveries (needs the read scope of each event's area)",
    handler: 'remove',
  },
  {
    resource: 'webhook-deliveries',
    rel: 'list',
    method: 'GET',
    href: '/webhooks/{id}/deliveries',
    title: "List a webhook's deliveries, newest first, with every attempt (status code, latency, error)",
    hrefSchema: deliveriesListQuery,
    target: 'list',
    cacheable: false,
    handler: 'listDeliveries',
  },
  {
    resource: 'webhook-deliveries',
    rel: 'self',
    method: 'GET',
    href: '/webhooks/{id}/deliveries/{delivery_id}',
    title: 'Get one delivery with its attempts',
    target: 'object',
    cacheable: false,
    handler: 'getDelivery',
  },
  {
    resource: 'webhook-deliveries',
    rel: 'redeliver',
    method: 'POST',
    href: '/webhooks/{id}/deliveries/{delivery_id}/redeliver',
    title:
      'Send a finished delivery again (same payload and webhook-id); answers the delivery, pending again; 409 while it is pending or the webhook is disabled',
    target: 'object',
    handler: 'redeliver',
  },
];
