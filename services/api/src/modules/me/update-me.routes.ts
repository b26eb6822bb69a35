import { AppError, inputError, notFound } from '@pfs/errors';
import { isKnownCurrency } from '@pfs/money';
import { assertExtraSize, readClientModified, requireScope, userIdOf } from '@pfs/resource-api';
import { UserProfileRepository } from '@pfs/resource-store';
import { Router } from 'express';
import type { ApiDependencies } from '../../dependencies';
import { presentUser } from './me.presenter';

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);

/**
 * `PUT /me` (user:rw): replaces the writable profile (names, main currency, start day, locale, timezone,
 * country, extra); email and joined are read-only and ignored. The profile keeps no revision history, so a
 * write with an older `modified` cannot be merged: it is a 409 with the current profile.
 */
export function updateMeRoutes(deps: ApiDependencies): Router {
  const router = Router();
  const profiles = new UserProfileRepository(deps.dataSource, (userId) =>
    deps.profileCache.invalidate(userId),
  );
  const api = deps.resourceApi;

  router.put('/me', requireScope('user:rw'), async (req, res) => {
    const clientModified = readClientModified(req.body);
    const { modified: _ignored, ...state } = api.schemas.normalizeUpdate('me', req.body);
    api.schemas.assertValidState('me', state);
    assertExtraSize(state.extra);
    const main = (state.currency as { main: string }).main;
    if (!isKnownCurrency(main))
      throw inputError([{ field: 'currency.main', error: 'must be a known ISO 4217 currency code' }]);
    const result = await profiles.updateProfile(userIdOf(req), clientModified, {
      firstName: text(state.first_name),
      lastName: text(state.last_name),
      currency: main,
      startDay: (state.start_day as number | undefined) ?? 1,
      locale: text(state.locale),
      timezone: text(state.timezone),
      country: text(state.country),
      extra: (state.extra as Record<string, unknown> | undefined) ?? null,
    });
    if (result.state === 'missing') throw notFound('User');
    if (result.state === 'stale' && clientModified > result.user.modifiedAt) {
      throw new AppError('MODIFIED_INVALID', {
        description: 'modified is not a value the server issued for the profile; fetch it again.',
        fields: [{ field: 'modified', error: 'must be a modified value issued for this object' }],
      });
    }
    if (result.state === 'stale') {
      throw new AppError('CONFLICT', {
        description: 'The profile was changed since you fetched it; fetch it again.',
        body: { current: presentUser(result.user) },
      });
    }
    api.respond.sendObject(req, res, 'me', presentUser(result.user), result.user.modifiedAt);
  });

  return router;
}
