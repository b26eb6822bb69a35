export { corsMiddleware } from './cors.middleware';
export { errorMiddleware, routeNotFoundMiddleware } from './error.middleware';
export { HEALTH_PATHS, healthRoutes, storeChecks } from './health.routes';
export type { HealthCheck } from './health.routes';
export { appPrototypesOf } from './app-prototypes';
export { startHttpServer } from './http-server';
export type { RunningHttpServer, StartHttpServerOptions } from './http-server';
export { recordedHeaders } from './recorded-headers';
export { requestIdMiddleware } from './request-id.middleware';
export { traceMiddleware } from './trace.middleware';
export { requestLogger, requestTraceOf } from './request-trace';
export { requestLoggerMiddleware } from './request-logger.middleware';
export { setRequestIdentity } from './request-identity';
export type { RequestIdentity } from './request-identity';
export { runService } from './service-lifecycle';
export { isClusterWorker, superviseWorkers } from './cluster-primary';
export type { ClusterSupervision } from './cluster-primary';
export { loadConfigOrExit, runHttpService } from './http-service';
export type { HttpService } from './http-service';
export type { ServiceLifecycle } from './service-lifecycle';
export { retryAtStartup, serviceStoreStartup, storeStartup } from './startup-retry';
export type { StartupRetryOptions } from './startup-retry';
export { observeHttpRequest } from './metrics/http-metrics';
export { startConfiguredMetricsServer, startMetricsServer } from './metrics/metrics-server';
export { observeDependencies, rateLimitRefusals } from './metrics/shared-metrics';
export type { PoolStats } from './metrics/shared-metrics';
export { DEFAULT_HTTP_TIMEOUTS } from './request-timeouts';
export type { HttpTimeouts } from './request-timeouts';
export {
  asInputError,
  bodyTextGuard,
  jsonDepthVerifier,
  MAX_JSON_DEPTH,
  requestTargetGuard,
} from './input-guard';
export { asUnavailable, isStoreUnavailable, UNAVAILABLE_RETRY_AFTER_SECONDS } from './store-unavailable';
