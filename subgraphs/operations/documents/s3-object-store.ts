import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { attachmentDisposition } from '../../../contracts/operations/documents/types.js';
import { DocumentError } from './documents.errors.js';
import type { Address, ObjectStore, StoredFile } from './object-store.js';

export interface S3Settings {
  readonly endpoint: string;
  readonly bucket: string;
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
}

const notFound = (error: unknown) =>
  (error as { name?: string }).name === 'NotFound' ||
  (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404;

/**
 * Any S3-compatible store (`S3_ENDPOINT`, one bucket, path-style addressing): addresses
 * presigned with Signature V4, objects moved by a server-side copy. Checksums are only
 * computed where S3 requires them, so presigned uploads work with plain HTTP clients and
 * with stores that know nothing of the newer checksum headers.
 */
export class S3ObjectStore implements ObjectStore {
  readonly kind = 's3';
  private readonly client: S3Client;

  constructor(private readonly settings: S3Settings) {
    this.client = new S3Client({
      endpoint: settings.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  private get bucket(): string {
    return this.settings.bucket;
  }

  /** Runs a call to the store; a failure to reach it is DOCUMENT_STORAGE_UNAVAILABLE. */
  private async call<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (notFound(error)) throw error;
      throw DocumentError.storageUnavailable(error);
    }
  }

  async uploadAddress(key: string, seconds: number): Promise<Address> {
    const url = await getSignedUrl(this.client, new PutObjectCommand({ Bucket: this.bucket, Key: key }), { expiresIn: seconds });
    return { url, expiresAt: new Date(Date.now() + seconds * 1000) };
  }

  async downloadAddress(key: string, file: StoredFile, seconds: number): Promise<Address> {
    const command = new GetObjectCommand({
      Bucket: this.bucket,
      Key: key,
      ResponseContentDisposition: attachmentDisposition(file.filename),
      ResponseContentType: file.mimeType ?? 'application/octet-stream',
    });
    const url = await getSignedUrl(this.client, command, { expiresIn: seconds });
    return { url, expiresAt: new Date(Date.now() + seconds * 1000) };
  }

  async size(key: string): Promise<number | null> {
    try {
      const head = await this.call(() => this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key })));
      return head.ContentLength ?? 0;
    } catch (error) {
      if (notFound(error)) return null;
      throw error;
    }
  }

  async *read(key: string): AsyncIterable<Uint8Array> {
    const object = await this.call(() => this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key })));
    yield* object.Body as AsyncIterable<Uint8Array>;
  }

  async move(from: string, to: string): Promise<void> {
    await this.call(() => this.client.send(new CopyObjectCommand({ Bucket: this.bucket, Key: to, CopySource: `${this.bucket}/${from}` })));
    await this.remove(from);
  }

  async remove(key: string): Promise<void> {
    await this.call(() => this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key })));
  }

  async check(): Promise<{ up: boolean; detail: string }> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    return { up: true, detail: `bucket ${this.bucket} at ${this.settings.endpoint}` };
  }
}
