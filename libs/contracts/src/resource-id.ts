/**
 * The id of a stored object (user, account, entry, token, …): a Postgres bigint identity, written as its
 * canonical decimal string (no sign, no leading zero, at most 18 digits so it always fits a bigint). Anything
 * else can name no object, and must not reach SQL as a bigint. Every service and the store check ids with this
 * one rule; the published JSON schemas spell it as the pattern `^${RESOURCE_ID_PATTERN}$`.
 */
export const RESOURCE_ID_PATTERN = '[1-9][0-9]{0,17}';

/** The whole-string rule, for the schemas (zod) that take a RegExp. */
export const RESOURCE_ID_REGEX = new RegExp(`^${RESOURCE_ID_PATTERN}$`);

export function isResourceId(value: unknown): value is string {
  return typeof value === 'string' && RESOURCE_ID_REGEX.test(value);
}
