import { assertExtraSize, readClientModified } from '@pfs/resource-api';
import type { ApiDependencies } from '../../dependencies';
import type { ApiHandler } from '../../http/api-operation';
import { withRates } from '../../http/rates-ready';
import { presentUser } from './me.presenter';
import type { MeBody } from './me.schema';
import { updateMe } from './update-me.use-case';

const text = (value: string | undefined) => (typeof value === 'string' && value !== '' ? value : null);

/**
 * `PUT /me` (user:rw): replaces the writable profile (names, main currency, start day, locale, timezone,
 * country, extra); email and joined are read-only and ignored. `currency` also carries the main-currency
 * change options (update, update_accounts, custom_exchange_rate) and custom rates (see update-me.use-case).
 * The profile keeps no revision snapshots, so a write with an older issued `modified` cannot be merged: it
 * is a 409 with the current profile; a `modified` never issued is a 400 `error.modified.invalid`.
 */
export function updateMeHandler(deps: ApiDependencies): ApiHandler {
  const api = deps.resourceApi;

  const replace: ApiHandler = async (ctx, req, res) => {
    const clientModified = readClientModified(req.body);
    const { modified: _ignored, ...state } = api.schemas.normalizeUpdate('me', req.body);
    const body = api.schemas.parseState<MeBody>('me', state);
    assertExtraSize(body.extra);
    const user = await updateMe(
      {
        store: deps.store,
        rates: deps.rates,
        accounts: deps.repos.accounts,
        mainCurrencyChange: deps.repos.mainCurrencyChange,
        userProfiles: deps.repos.userProfiles,
      },
      {
        actor: ctx,
        clientModified,
        profile: {
          firstName: text(body.first_name),
          lastName: text(body.last_name),
          startDay: body.start_day ?? 1,
          locale: text(body.locale),
          timezone: text(body.timezone),
          country: text(body.country),
          extra: body.extra ?? null,
        },
        currency: body.currency,
        presentCurrent: presentUser,
      },
    );
    api.respond.sendObject(req, res, 'me', presentUser(user), user.modifiedAt);
  };

  return withRates(deps.rates, replace);
}
