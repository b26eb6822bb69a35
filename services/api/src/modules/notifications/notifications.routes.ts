import { notFound } from '@pfs/errors';
import { requireScope, userIdOf } from '@pfs/resource-api';
import { NotificationRepository } from '@pfs/resource-store';
import { Router } from 'express';
import type { ApiDependencies } from '../../dependencies';
import { presentNotification } from './notifications.presenter';

export function notificationsRoutes(deps: ApiDependencies): Router {
  const router = Router();
  const notifications = new NotificationRepository(deps.dataSource);
  const api = deps.resourceApi;

  router.get('/me/notifications', requireScope('user:r'), async (req, res) => {
    const params = api.parseList(req, { endpoint: 'notifications' });
    const result = await notifications.list(userIdOf(req), params);
    api.respond.sendList(req, res, { schema: 'notifications', params, result, present: presentNotification });
  });

  // The reference's "dismiss all": every notification read and gone at once (204 even when there were none).
  router.post('/me/notifications/dismiss_all', requireScope('user:rw'), async (req, res) => {
    await notifications.deleteAll(userIdOf(req));
    api.respond.sendNoContent(res);
  });

  router.get('/me/notifications/:id', requireScope('user:r'), async (req, res) => {
    const record = await notifications.findById(userIdOf(req), String(req.params.id));
    if (!record) throw notFound('Notification', String(req.params.id));
    api.respond.sendObject(req, res, 'notifications', presentNotification(record), record.modifiedAt);
  });

  router.delete('/me/notifications/:id', requireScope('user:rw'), async (req, res) => {
    const deleted = await notifications.delete(userIdOf(req), String(req.params.id));
    if (!deleted) throw notFound('Notification', String(req.params.id));
    api.respond.sendNoContent(res);
  });

  return router;
}
