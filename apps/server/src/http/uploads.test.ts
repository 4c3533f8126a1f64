import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyHeadersFor, createTestOrganization } from '../test/factories.ts';
import { buildTestApp, type TestApp } from '../test/harness.ts';
import { solidImage } from '../test/images.ts';
import { uploadLimits } from './uploads.ts';

const boundary = 'uploads-test-boundary';

type Part = { name: string; value: string | Buffer; filename?: string };

function multipartBody(parts: Part[]): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename ? `; filename="${part.filename}"` : ''}`;
    const type = part.filename ? '\r\nContent-Type: image/png' : '';
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n`));
    chunks.push(typeof part.value === 'string' ? Buffer.from(part.value) : part.value);
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

describe('multipart uploads beyond their part limits', () => {
  let app: TestApp;
  let admin: Record<string, string>;
  let imagesUrl: string;
  let image: Buffer;

  beforeAll(async () => {
    app = await buildTestApp();
    const organization = await createTestOrganization(app);
    admin = await apiKeyHeadersFor(app, organization, organization.admin);
    imagesUrl = `/api/v1/workspaces/${organization.workspaceId}/images`;
    image = await solidImage(8, 8).png().toBuffer();
  });
  afterAll(() => app.close());

  const upload = (parts: Part[]) =>
    app.inject({
      method: 'POST',
      url: imagesUrl,
      headers: { ...admin, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: multipartBody(parts),
    });
  const imageCount = async () =>
    (await app.inject({ method: 'GET', url: imagesUrl, headers: admin })).json().pagination.total;
  const file: Part = { name: 'file', value: Buffer.alloc(0), filename: 'dot.png' };

  it('takes an upload within the limits', async () => {
    const response = await upload([
      { name: 'name', value: 'Dot' },
      { ...file, value: image },
    ]);
    expect(response.statusCode, response.body).toBe(200);
  });

  it('answers 413 naming the limit to more text fields than any upload has', async () => {
    const before = await imageCount();
    const fields = Array.from({ length: uploadLimits.fields + 1 }, (_, index) => ({
      name: `field_${index}`,
      value: 'x',
    }));
    const response = await upload([{ name: 'name', value: 'Dot' }, ...fields, { ...file, value: image }]);
    expect(response.statusCode, response.body).toBe(413);
    expect(response.json()).toEqual({
      code: 'payload_too_large',
      message: `The upload has too many fields: at most ${uploadLimits.fields}`,
    });
    expect(await imageCount()).toBe(before);
  });

  it('answers 413 naming the limit to more files than the upload takes', async () => {
    const before = await imageCount();
    const response = await upload([
      { name: 'name', value: 'Dot' },
      { ...file, value: image },
      { ...file, name: 'other', value: image },
    ]);
    expect(response.statusCode, response.body).toBe(413);
    expect(response.json()).toEqual({
      code: 'payload_too_large',
      message: `The upload has too many files: at most ${uploadLimits.files}`,
    });
    expect(await imageCount()).toBe(before);
  });

  it('answers 413 naming the limit to a text field larger than any upload’s, rather than cutting it', async () => {
    const before = await imageCount();
    const response = await upload([
      { name: 'name', value: 'x'.repeat(uploadLimits.fieldBytes + 1) },
      { ...file, value: image },
    ]);
    expect(response.statusCode, response.body).toBe(413);
    expect(response.json()).toEqual({
      code: 'payload_too_large',
      message: `The upload field name is too large: at most ${uploadLimits.fieldBytes / 1024} KB`,
    });
    expect(await imageCount()).toBe(before);
  });
});
