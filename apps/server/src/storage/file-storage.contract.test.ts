import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Peer } from '../test/s3-peer.ts';
import { contentTypeForKey, type FileStorage, InvalidStorageKeyError } from './file-storage.ts';
import { LocalFileStorage } from './local-file-storage.ts';
import { S3FileStorage } from './s3-file-storage.ts';

interface StorageUnderTest {
  storage: FileStorage;
  publicBaseUrl: string;
  stop(): Promise<void>;
}

const implementations: [string, () => Promise<StorageUnderTest>][] = [
  [
    'local disk',
    async () => {
      const dir = await mkdtemp(path.join(tmpdir(), 'letterset-files-'));
      const publicBaseUrl = 'http://localhost:3000/files';
      return {
        storage: new LocalFileStorage({ dir, publicBaseUrl }),
        publicBaseUrl,
        stop: () => rm(dir, { recursive: true, force: true }),
      };
    },
  ],
  [
    'S3-compatible object storage',
    async () => {
      const peer = await startS3Peer('letterset-test');
      const publicBaseUrl = 'https://cdn.letterset.test';
      const storage = new S3FileStorage({
        kind: 's3',
        bucket: 'letterset-test',
        region: 'us-east-1',
        endpoint: peer.endpoint,
        forcePathStyle: true,
        credentials: peer.credentials,
        publicBaseUrl,
      });
      return {
        storage,
        publicBaseUrl,
        async stop() {
          storage.close();
          await peer.stop();
        },
      };
    },
  ],
];

describe.each(implementations)('file storage: %s', (_name, start) => {
  let subject: StorageUnderTest;
  beforeAll(async () => {
    subject = await start();
  });
  afterAll(() => subject.stop());

  const contents = async (key: string) => {
    const file = await subject.storage.get(key);
    if (!file) throw new Error(`no file under ${key}`);
    return buffer(file.body);
  };
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);

  it('stores a file and gives it back byte for byte with its content type and size', async () => {
    await subject.storage.put('images/ab/abcdef.png', png, { contentType: 'image/png' });
    const file = await subject.storage.get('images/ab/abcdef.png');
    expect(file).not.toBeNull();
    expect(file?.contentType).toBe('image/png');
    expect(file?.size).toBe(png.length);
    expect(await contents('images/ab/abcdef.png')).toEqual(png);
  });

  it('replaces a file written again under the same key', async () => {
    await subject.storage.put('exports/report.json', Buffer.from('{"v":1}'), {
      contentType: 'application/json',
    });
    await subject.storage.put('exports/report.json', Buffer.from('{"v":2}'), {
      contentType: 'application/json',
    });
    expect((await contents('exports/report.json')).toString()).toBe('{"v":2}');
  });

  it('answers null for a key with no file', async () => {
    expect(await subject.storage.get('images/none/missing.png')).toBeNull();
  });

  it('deletes, and deleting again is not an error', async () => {
    await subject.storage.put('tmp/gone.txt', Buffer.from('bye'), { contentType: 'text/plain' });
    await subject.storage.delete('tmp/gone.txt');
    expect(await subject.storage.get('tmp/gone.txt')).toBeNull();
    await expect(subject.storage.delete('tmp/gone.txt')).resolves.toBeUndefined();
  });

  it('builds absolute public URLs under its base', () => {
    expect(subject.storage.publicUrl('images/ab/abcdef.png')).toBe(
      `${subject.publicBaseUrl}/images/ab/abcdef.png`,
    );
  });

  it.each(['../etc/passwd', '/absolute.png', 'images/../../x', 'Images/UPPER.png', 'a//b.png', 'dir/'])(
    'refuses the unsafe key %s',
    async (key) => {
      await expect(subject.storage.put(key, png, { contentType: 'image/png' })).rejects.toBeInstanceOf(
        InvalidStorageKeyError,
      );
      expect(() => subject.storage.publicUrl(key)).toThrow(InvalidStorageKeyError);
    },
  );
});

describe('contentTypeForKey', () => {
  it('names the type from the extension', () => {
    expect(contentTypeForKey('a/b.webp')).toBe('image/webp');
    expect(contentTypeForKey('a/b.JPG')).toBe('image/jpeg');
    expect(contentTypeForKey('a/b.unknown')).toBe('application/octet-stream');
  });
});
