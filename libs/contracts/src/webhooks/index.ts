export * from './webhook-address';
export * from './webhook-events';
export * from './webhook-job';
export * from './webhook-secret-cipher';
