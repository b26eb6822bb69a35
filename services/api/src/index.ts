export { buildApiApp } from './app';
export { loadApiConfig } from './config';
export type { ApiConfig } from './config';
export { createApiDependencies } from './dependencies';
export type { ApiDependencies } from './dependencies';
// The bench measures the token check alone.
export { RequestGate } from './middleware/request-gate';
