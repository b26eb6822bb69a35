export { errorMiddleware, routeNotFoundMiddleware } from './error.middleware';
export { HEALTH_PATHS, healthRoutes } from './health.routes';
export type { HealthCheck } from './health.routes';
export { startHttpServer } from './http-server';
export type { RunningHttpServer, StartHttpServerOptions } from './http-server';
export { requestIdMiddleware } from './request-id.middleware';
export { requestLoggerMiddleware } from './request-logger.middleware';
export { runService } from './service-lifecycle';
export type { ServiceLifecycle } from './service-lifecycle';
