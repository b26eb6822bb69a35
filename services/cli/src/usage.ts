/**
 * Every command's usage line, apart from the commands themselves: `--help` and the command list load no
 * command module (and so neither TypeORM nor the auth service), which keeps them instant.
 */
export const MIGRATE_USAGE = 'migrate';
export const USER_CREATE_USAGE =
  'user:create --email E (--password P | --password-stdin) [--first-name F] [--last-name L] [--currency EUR] [--otp]';
export const USER_LIST_USAGE = 'user:list [--email-contains S] [--limit 100]';
export const CLIENT_CREATE_USAGE =
  'client:create --name N --redirect-uri URI --scope "user:r entries:rw ..." [--implicit]';
export const CLIENT_LIST_USAGE = 'client:list';
export const TOKEN_REVOKE_ALL_USAGE = 'token:revoke-all --user ID';
export const RATES_IMPORT_USAGE =
  'rates:import [--file eurofxref-hist.csv]  (default: the ECB history shipped with PFS)';
export const USER_RESET_PASSWORD_USAGE = 'user:reset-password --user ID (--password P | --password-stdin)';
export const USER_DELETE_USAGE = 'user:delete --user ID|EMAIL --yes';
export const USER_DISABLE_OTP_USAGE = 'user:disable-otp --user ID';
export const CLIENT_DELETE_USAGE = 'client:delete --client CLIENT_ID';
export const CLIENT_PRUNE_USAGE = 'client:prune-registrations [--older-than-days 30]';
