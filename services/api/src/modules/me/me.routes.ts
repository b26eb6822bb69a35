import { notFound } from '@pfs/errors';
import type { UserRepository } from '@pfs/resource-store';
import { Router } from 'express';
import { requireScope } from '../../middleware/require-scope.middleware';
import { presentUser } from './me.presenter';

export function meRoutes(deps: { users: UserRepository }): Router {
  const router = Router();
  router.get('/me', requireScope('user:r'), async (req, res) => {
    const user = await deps.users.findById(req.auth!.userId);
    if (!user) throw notFound('User');
    res.json(presentUser(user));
  });
  return router;
}
