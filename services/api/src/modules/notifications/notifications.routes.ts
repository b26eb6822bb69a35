import { notFound } from '@pfs/errors';
import type { ApiDependencies } from '../../dependencies';
import type { ApiHandler, DeclaredOperation } from '../../http/api-operation';
import { presentNotification } from './notifications.presenter';
import { notificationsListQuery } from './notifications.schema';

export function notificationsHandlers(deps: ApiDependencies) {
  const notifications = deps.repos.notifications;
  const api = deps.resourceApi;

  const list: ApiHandler = async (ctx, req, res) => {
    const params = api.parseList(req, { endpoint: 'notifications' });
    const result = await notifications.list(deps.store.read(ctx), params);
    api.respond.sendList(req, res, { schema: 'notifications', params, result, present: presentNotification });
  };

  // The reference's "dismiss all": every notification read and gone at once (204 even when there were none).
  const dismissAll: ApiHandler = async (ctx, _req, res) => {
    await deps.store.change(ctx, (change) => notifications.deleteAll(change));
    api.respond.sendNoContent(res);
  };

  const get: ApiHandler = async (ctx, req, res) => {
    const record = await notifications.findById(deps.store.read(ctx), String(req.params.id));
    if (!record) throw notFound('Notification', String(req.params.id));
    api.respond.sendObject(req, res, 'notifications', presentNotification(record), record.modifiedAt);
  };

  const dismiss: ApiHandler = async (ctx, req, res) => {
    const deleted = await deps.store.change(ctx, (change) =>
      notifications.delete(change, String(req.params.id)),
    );
    if (!deleted) throw notFound('Notification', String(req.params.id));
    api.respond.sendNoContent(res);
  };

  return { list, get, dismiss, dismissAll };
}

export type NotificationsHandlers = ReturnType<typeof notificationsHandlers>;

const resource = 'notifications';

export const notificationsOperations: Array<DeclaredOperation<NotificationsHandlers>> = [
  {
    resource,
    rel: 'list',
    method: 'GET',
    href: '/me/notifications',
    title: 'List notifications',
    hrefSchema: notificationsListQuery,
    target: 'list',
    scope: 'user:r',
    handler: 'list',
  },
  {
    resource,
    rel: 'self',
    method: 'GET',
    href: '/me/notifications/{id}',
    title: 'Get a notification',
    target: 'object',
    scope: 'user:r',
    handler: 'get',
  },
  {
    resource,
    rel: 'delete',
    method: 'DELETE',
    href: '/me/notifications/{id}',
    title: 'Dismiss a notification',
    scope: 'user:rw',
    handler: 'dismiss',
  },
  {
    resource,
    rel: 'dismiss_all',
    method: 'POST',
    href: '/me/notifications/dismiss_all',
    title: 'Dismiss every notification',
    scope: 'user:rw',
    handler: 'dismissAll',
  },
];
