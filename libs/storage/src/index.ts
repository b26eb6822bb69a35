export { assertSafeKey, linkExpiry, ObjectNotFoundError } from './object-storage';
export type {
  DownloadLink,
  DownloadLinkOptions,
  ObjectStorage,
  OpenedObject,
  WriteOptions,
} from './object-storage';
export { FsStorage } from './fs-storage.driver';
export type { FsStorageOptions } from './fs-storage.driver';
export { MAX_PRESIGN_SECONDS, S3Storage } from './s3-storage.driver';
export type { S3StorageOptions } from './s3-storage.driver';
export { signDownloadToken, verifyDownloadToken } from './download-token';
export type { DownloadTokenCheck } from './download-token';
export { createStorage } from './create-storage';
export type { StorageConfig } from './create-storage';
