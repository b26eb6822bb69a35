import { AppError, inputError, notFound } from '@pfs/errors';
import type { Actor, ActorStore, ProfileUpdate, User, UserProfileRepository } from '@pfs/resource-store';
import { changeMainCurrency, type MainCurrencyDeps } from './change-main-currency.use-case';
import type { MeBody } from './me.schema';
import { MAX_CUSTOM_RATES, readCurrencyRequest } from './currency-change-request';
import { nextCustomRates, nextRecentCurrencies } from './currency-settings';

export interface UpdateMeInput {
  actor: Actor;
  clientModified: Date;
  /** The profile fields of the body; the currency fields come from `currency`. */
  profile: Omit<ProfileUpdate, 'currency' | 'recentCurrencies' | 'customRates'>;
  currency: MeBody['currency'];
  /** The current profile as the 409 body shows it. */
  presentCurrent(user: User): Record<string, unknown>;
}

/**
 * `PUT /me` in one transaction: the profile row is locked and checked against `modified` (a stale one is a
 * 409 and changes nothing, one never issued a 400), then a main-currency change is applied to the ledger, then the profile, recent
 * currencies and custom rates are written. Any failure rolls all of it back. Once it has committed, the
 * cached `GET /me` is dropped (by the profile repository), before the response says the write happened.
 */
export async function updateMe(
  deps: MainCurrencyDeps & { store: ActorStore; userProfiles: UserProfileRepository },
  input: UpdateMeInput,
): Promise<User> {
  const profiles = deps.userProfiles;
  const updated = await deps.store.change(input.actor, async (change) => {
    const locked = await profiles.lockProfile(change, input.clientModified);
    if (!locked) throw notFound('User');
    const current = locked.user;
    if (!locked.fresh && !(await profiles.wasIssued(change, input.clientModified))) {
      throw new AppError('MODIFIED_INVALID', {
        description: 'modified is not a value the server issued for the profile; fetch it again.',
        fields: [{ field: 'modified', error: 'must be a modified value issued for this object' }],
      });
    }
    if (!locked.fresh) {
      throw new AppError('CONFLICT', {
        description: 'The profile was changed since you fetched it; fetch it again.',
        body: { current: input.presentCurrent(current) },
      });
    }
    const request = readCurrencyRequest(input.currency, current.currency);
    const customRates = nextCustomRates(current.customRates, current.currency, request);
    if (customRates.length > MAX_CUSTOM_RATES)
      throw inputError([{ field: 'currency.custom', error: `at most ${MAX_CUSTOM_RATES} custom rates` }]);
    if (request.main !== current.currency) {
      await changeMainCurrency(deps, change, {
        from: current.currency,
        to: request.main,
        mode: request.mode,
        updateAccounts: request.updateAccounts,
        customRate: request.customExchangeRate,
      });
    }
    return profiles.writeProfile(change, {
      ...input.profile,
      currency: request.main,
      recentCurrencies: nextRecentCurrencies(current.recentCurrencies, current.currency, request),
      customRates,
    });
  });
  return updated;
}
