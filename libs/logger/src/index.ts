export { createLogger } from './logger';
export type { Logger, LoggerOptions } from './logger';
export { bufferedStdout } from './buffered-stdout';
