import { notFound } from '@pfs/errors';
import { requireScope, userIdOf } from '@pfs/resource-api';
import { Router } from 'express';
import type { ApiDependencies } from '../../dependencies';
import { presentUser } from './me.presenter';

export function meRoutes(deps: Pick<ApiDependencies, 'users' | 'resourceApi'>): Router {
  const router = Router();
  router.get('/me', requireScope('user:r'), async (req, res) => {
    const user = await deps.users.findById(userIdOf(req));
    if (!user) throw notFound('User');
    deps.resourceApi.respond.sendObject(req, res, 'me', presentUser(user), user.modifiedAt);
  });
  return router;
}
