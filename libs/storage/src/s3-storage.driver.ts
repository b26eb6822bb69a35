import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { PassThrough, Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  assertSafeKey,
  DownloadLink,
  DownloadLinkOptions,
  linkExpiry,
  ObjectNotFoundError,
  ObjectStorage,
  OpenedObject,
  WriteOptions,
} from './object-storage';

export interface S3StorageOptions {
  bucket: string;
  region: string;
  /** Any S3-protocol server (MinIO, s3rver, …); absent means AWS itself. */
  endpoint?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
  /** Multipart part size in bytes (S3's minimum is 5 MiB); bounds the memory one upload holds. */
  partSize?: number;
}

/** SigV4 presigned URLs cannot outlive seven days. */
export const MAX_PRESIGN_SECONDS = 7 * 24 * 3600;

const isMissing = (error: unknown) =>
  error instanceof S3ServiceException &&
  (error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404);

/** The S3 driver: streamed multipart uploads (lib-storage) and presigned GET links. */
export class S3Storage implements ObjectStorage {
  readonly driver = 's3' as const;
  readonly client: S3Client;

  constructor(private readonly options: S3StorageOptions) {
    this.client = new S3Client({
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle,
      credentials:
        options.accessKeyId && options.secretAccessKey
          ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }
          : undefined,
    });
  }

  async write(key: string, body: Readable, options: WriteOptions = {}): Promise<{ size: number }> {
    assertSafeKey(key);
    let size = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        size += chunk.length;
        callback(null, chunk);
      },
    });
    const passThrough = new PassThrough();
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.options.bucket, Key: key, Body: passThrough, ContentType: options.contentType },
      partSize: this.options.partSize ?? 5 * 1024 * 1024,
      queueSize: 2,
      leavePartsOnError: false,
    });
    // A failed upload stops reading the source, so the pipeline cannot wait forever on backpressure.
    const uploading = upload.done().catch((error: unknown) => {
      passThrough.destroy(error as Error);
      throw error;
    });
    // Both sides must finish: the source drained into the upload, and the upload completed.
    await Promise.all([pipeline(body, counter, passThrough), uploading]);
    return { size };
  }

  async read(key: string): Promise<OpenedObject> {
    assertSafeKey(key);
    try {
      // The GET's response has started when `send` resolves: the object is open, its body streams.
      const result = await this.client.send(new GetObjectCommand({ Bucket: this.options.bucket, Key: key }));
      return { body: result.Body as Readable, size: result.ContentLength ?? 0 };
    } catch (error) {
      if (isMissing(error)) throw new ObjectNotFoundError(key);
      throw error;
    }
  }

  async size(key: string): Promise<number | undefined> {
    assertSafeKey(key);
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.options.bucket, Key: key }));
      return head.ContentLength;
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    assertSafeKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key: key }));
  }

  async sweepAbandonedWrites(olderThan: Date): Promise<number> {
    let aborted = 0;
    let keyMarker: string | undefined;
    let uploadIdMarker: string | undefined;
    do {
      const page = await this.client
        .send(
          new ListMultipartUploadsCommand({
            Bucket: this.options.bucket,
            KeyMarker: keyMarker,
            UploadIdMarker: uploadIdMarker,
          }),
        )
        .catch((error: unknown) => {
          // Some S3-protocol servers (s3rver) do not list uploads: the bucket's lifecycle rule is then the
          // only cleanup (docs/operations.md).
          if (error instanceof S3ServiceException && error.name === 'NotImplemented') return undefined;
          throw error;
        });
      if (!page) return aborted;
      for (const upload of page.Uploads ?? []) {
        if (!upload.Key || !upload.UploadId || !upload.Initiated || upload.Initiated >= olderThan) continue;
        await this.client.send(
          new AbortMultipartUploadCommand({
            Bucket: this.options.bucket,
            Key: upload.Key,
            UploadId: upload.UploadId,
          }),
        );
        aborted += 1;
      }
      keyMarker = page.IsTruncated ? page.NextKeyMarker : undefined;
      uploadIdMarker = page.IsTruncated ? page.NextUploadIdMarker : undefined;
    } while (keyMarker);
    return aborted;
  }

  async deletePrefix(prefix: string): Promise<number> {
    assertSafeKey(prefix);
    let deleted = 0;
    let continuation: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.options.bucket,
          Prefix: `${prefix}/`,
          ContinuationToken: continuation,
        }),
      );
      // One DELETE per object: every S3-compatible store has it (multi-object delete is not universal).
      for (const object of page.Contents ?? []) {
        await this.client.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key: object.Key }));
        deleted += 1;
      }
      continuation = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (continuation);
    return deleted;
  }

  async createDownloadLink(key: string, options: DownloadLinkOptions): Promise<DownloadLink> {
    assertSafeKey(key);
    const expiresInSeconds = Math.min(options.expiresInSeconds, MAX_PRESIGN_SECONDS);
    const command = new GetObjectCommand({
      Bucket: this.options.bucket,
      Key: key,
      ResponseContentDisposition: `attachment; filename="${options.filename.replace(/["\\\r\n]/g, '_')}"`,
    });
    const now = new Date();
    const url = await getSignedUrl(this.client, command, { expiresIn: expiresInSeconds, signingDate: now });
    return { url, expiresAt: linkExpiry(expiresInSeconds, now) };
  }

  destroy(): void {
    this.client.destroy();
  }
}
