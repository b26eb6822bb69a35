import { FsStorage } from './fs-storage.driver';
import type { ObjectStorage } from './object-storage';
import { S3Storage } from './s3-storage.driver';

/** The config variables of storage (`storageShape` and `EXPORT_URL` of @pfs/config). */
export interface StorageConfig {
  /** `fs` (default) or `s3`. */
  STORAGE_DRIVER: string;
  STORAGE_DIR: string;
  S3_ENDPOINT?: string;
  S3_BUCKET: string;
  S3_REGION: string;
  S3_ACCESS_KEY_ID?: string;
  S3_SECRET_ACCESS_KEY?: string;
  S3_FORCE_PATH_STYLE: boolean;
  EXPORT_URL: string;
  EXPORT_LINK_SECRET: string;
}

/** Builds the configured driver once at boot. */
export function createStorage(config: StorageConfig): ObjectStorage {
  if (config.STORAGE_DRIVER === 's3') {
    return new S3Storage({
      bucket: config.S3_BUCKET,
      region: config.S3_REGION,
      endpoint: config.S3_ENDPOINT,
      accessKeyId: config.S3_ACCESS_KEY_ID,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY,
      forcePathStyle: config.S3_FORCE_PATH_STYLE,
    });
  }
  return new FsStorage({
    root: config.STORAGE_DIR,
    publicBaseUrl: config.EXPORT_URL,
    linkSecret: config.EXPORT_LINK_SECRET,
  });
}
