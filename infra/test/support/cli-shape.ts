import { databaseShape, runtimeShape } from '@pfs/config';

/** What the CLI image's commands read (services/cli/src/cli-context.ts, plus the OTP key for user:create --otp). */
export const cliConfigShape = { ...runtimeShape, ...databaseShape, AUTH_OTP_ENCRYPTION_KEY: true };
