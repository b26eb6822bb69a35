/** What other packages (the operator CLI, tests) use of the auth service. */
export { buildAuthApp } from './app';
export { loadAuthConfig, loadOtpKey } from './config';
export { OtpSecretCipher } from './security/otp-secret.cipher';
export { restoreIntrospectionRecords } from './use-cases/restore-introspection.use-case';
export type { AuthConfig } from './config';
export { allMigrationSets, createAuthDependencies } from './dependencies';
export type { AuthDependencies } from './dependencies';
export { PasswordHasher } from './password-hasher';
export { createClient } from './use-cases/create-client.use-case';
export type { CreatedClient, NewClientInput } from './use-cases/create-client.use-case';
export { createUser } from './use-cases/create-user.use-case';
export type { CreatedUser, NewUserInput } from './use-cases/create-user.use-case';
