/**
 * Where the API caches a user's `GET /me` representation in Redis (under the deployment prefix), shared
 * because more than one process touches it: the API's gate script reads it beside the token record, the API
 * fills and invalidates it, the CLI removes it with the user.
 * `user-profile:{<userId>}` holds the prepared response; `user-profile:{<userId>}:gen` is the user's write
 * generation (a fill is stored only if it did not move meanwhile). The `{<userId>}` hash tag keeps both in
 * one Redis Cluster slot, with the user's rate-limit counters (`rl:{<userId>}:…`), so one script can touch
 * them together.
 */
export const USER_PROFILE_KEY_PREFIX = 'user-profile:';

export const userProfileKey = (userId: string) => `${USER_PROFILE_KEY_PREFIX}{${userId}}`;
export const userProfileGenerationKey = (userId: string) => `${userProfileKey(userId)}:gen`;
