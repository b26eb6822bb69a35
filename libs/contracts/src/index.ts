export * from './access-token-record';
export * from './export-job';
export * from './scopes';
export * from './token-hash';
export * from './wns-channel';
export * from './user-profile-keys';
export * from './resource-id';
