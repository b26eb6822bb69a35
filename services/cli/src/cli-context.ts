import { databaseShape, defineConfig, Env, runtimeShape } from '@pfs/config';

export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/** A usage or input problem: printed without a stack, exit code 2. */
export class CliUsageError extends Error {}

export const loadCliConfig = (env: Env) => defineConfig({ ...runtimeShape, ...databaseShape }, env);
export type CliConfig = ReturnType<typeof loadCliConfig>;
