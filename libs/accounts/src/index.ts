export { closeAccount, revokeAllAccess } from './close-account';
export type { CloseAccountDependencies, RevokeAccessDependencies } from './close-account';
export { eraseUser, userStoragePrefixes } from './erase-user';
export type { ErasedUser, EraseUserDependencies } from './erase-user';
