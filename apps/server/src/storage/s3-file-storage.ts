import type { Readable } from 'node:stream';
import type { S3Client, S3ClientConfig } from '@aws-sdk/client-s3';
import type { StorageConfig } from '../config.ts';
import { assertSafeKey, type FileStorage, type StoredFile } from './file-storage.ts';

type S3Config = Extract<StorageConfig, { kind: 's3' }>;
type S3Sdk = typeof import('@aws-sdk/client-s3');

/** An S3-compatible bucket (AWS S3, MinIO, Ceph, Cloudflare R2, ...). */
export class S3FileStorage implements FileStorage {
  private readonly bucket: string;
  private readonly publicBaseUrl: string;
  private readonly clientConfig: S3ClientConfig;
  private connecting: Promise<{ sdk: S3Sdk; client: S3Client }> | null = null;
  private client: S3Client | null = null;

  constructor(config: S3Config) {
    this.bucket = config.bucket;
    this.publicBaseUrl = config.publicBaseUrl;
    this.clientConfig = {
      region: config.region,
      ...(config.endpoint ? { endpoint: config.endpoint } : {}),
      forcePathStyle: config.forcePathStyle,
      ...(config.credentials ? { credentials: config.credentials } : {}),
      // Many S3-compatible servers reject the SDK's default streaming checksums: only send them when required.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    };
  }

  /**
   * The AWS SDK takes about 0.1–0.2 s to load: the first file access loads it, so a server on
   * local storage never does and one on S3 does not wait for it at start-up.
   */
  private connection(): Promise<{ sdk: S3Sdk; client: S3Client }> {
    this.connecting ??= import('@aws-sdk/client-s3').then((sdk) => {
      this.client = new sdk.S3Client(this.clientConfig);
      return { sdk, client: this.client };
    });
    return this.connecting;
  }

  async put(key: string, body: Buffer, options: { contentType: string }): Promise<void> {
    assertSafeKey(key);
    const { sdk, client } = await this.connection();
    await client.send(
      new sdk.PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Body: body,
        ContentType: options.contentType,
        ContentLength: body.length,
        // Keys never change, so clients and CDNs may keep a file forever.
        CacheControl: 'public, max-age=31536000, immutable',
      }),
    );
  }

  async get(key: string): Promise<StoredFile | null> {
    assertSafeKey(key);
    const { sdk, client } = await this.connection();
    try {
      const object = await client.send(new sdk.GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return {
        body: object.Body as Readable,
        contentType: object.ContentType ?? 'application/octet-stream',
        size: object.ContentLength ?? 0,
      };
    } catch (error) {
      if (error instanceof sdk.NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    assertSafeKey(key);
    const { sdk, client } = await this.connection();
    await client.send(new sdk.DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  publicUrl(key: string): string {
    assertSafeKey(key);
    return `${this.publicBaseUrl}/${key}`;
  }

  close(): void {
    this.client?.destroy();
  }
}
