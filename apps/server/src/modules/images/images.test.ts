import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestOrganization,
  createTestUser,
  signInAs,
  type TestOrganization,
} from '../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../test/harness.ts';
import { animatedGif, jpegWithLocation, solidImage } from '../../test/images.ts';

function multipart(fields: Record<string, string>, file?: { bytes: Buffer; filename: string; type: string }) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (file) form.append('file', new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.filename);
  return form;
}

describe('the image library', () => {
  let app: TestApp;
  let organization: TestOrganization;
  let editor: Record<string, string>;
  let imagesUrl: string;

  beforeAll(async () => {
    app = await buildTestApp({ config: { maxImageBytes: 200 * 1024 } });
    organization = await createTestOrganization(app);
    editor = await signInAs(app, await createTestUser(app, organization, { role: 'Editor' }));
    imagesUrl = `/api/v1/workspaces/${organization.workspaceId}/images`;
  });
  afterAll(() => app.close());

  const upload = (form: FormData, headers = editor) =>
    app.inject({ method: 'POST', url: imagesUrl, headers, payload: form });
  const download = async (url: string) => {
    const response = await app.inject({ method: 'GET', url: new URL(url).pathname });
    return { response, bytes: response.rawPayload };
  };

  it.each([
    ['jpg', 'image/jpeg', () => solidImage(300, 200).jpeg().toBuffer()],
    ['png', 'image/png', () => solidImage(300, 200).png().toBuffer()],
    ['webp', 'image/webp', () => solidImage(300, 200).webp().toBuffer()],
    ['gif', 'image/gif', () => solidImage(300, 200).gif().toBuffer()],
  ] as const)(
    'accepts a %s and serves it with its type and a year of caching',
    async (extension, type, make) => {
      const bytes = await make();
      const response = await upload(
        multipart(
          { name: `Hero ${extension}`, description: 'Autumn sale' },
          { bytes, filename: `hero.${extension}`, type },
        ),
      );
      expect(response.statusCode).toBe(200);
      const image = response.json();
      expect(image).toMatchObject({
        id: expect.stringMatching(/^img_[0-9a-f]{20}$/),
        name: `Hero ${extension}`,
        description: 'Autumn sale',
        filename: `hero.${extension}`,
        width: 300,
        height: 200,
        extension,
        animated: false,
        workspace_id: organization.workspaceId,
      });
      expect(image.public_url).toMatch(
        new RegExp(`^http://localhost:3000/files/images/\\d+/${image.id}\\.${extension}$`),
      );

      const { response: served } = await download(image.public_url);
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe(type);
      expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(Number(served.headers['content-length'])).toBe(image.file_size);
    },
  );

  it('keeps an animated GIF animated', async () => {
    const response = await upload(
      multipart(
        { name: 'Spinner' },
        { bytes: await animatedGif(), filename: 'spinner.gif', type: 'image/gif' },
      ),
    );
    const image = response.json();
    expect(image).toMatchObject({ extension: 'gif', animated: true, width: 10, height: 20 });
    const { bytes } = await download(image.public_url);
    expect((await sharp(bytes, { animated: true }).metadata()).pages).toBe(2);
  });

  it('makes a WebP thumbnail within 400 × 400', async () => {
    const response = await upload(
      multipart(
        { name: 'Banner' },
        { bytes: await solidImage(1200, 600).png().toBuffer(), filename: 'banner.png', type: 'image/png' },
      ),
    );
    const { bytes } = await download(response.json().thumbnail_url);
    const metadata = await sharp(bytes).metadata();
    expect([metadata.format, metadata.width, metadata.height]).toEqual(['webp', 400, 200]);
  });

  it('removes the location from an uploaded JPEG', async () => {
    const response = await upload(
      multipart(
        { name: 'Holiday' },
        { bytes: await jpegWithLocation(), filename: 'holiday.jpg', type: 'image/jpeg' },
      ),
    );
    const { bytes } = await download(response.json().public_url);
    expect((await sharp(bytes).metadata()).exif).toBeUndefined();
    expect(bytes.includes(Buffer.from('Letterset Test Camera'))).toBe(false);
  });

  it('refuses a PDF named .png, whatever its declared type', async () => {
    const pdf = Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
    const response = await upload(
      multipart({ name: 'Sneaky' }, { bytes: pdf, filename: 'logo.png', type: 'image/png' }),
    );
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      code: 'validation_failed',
      message: 'Failed to save',
      errors: { file: ['must be a JPEG, PNG, GIF or WebP image'] },
    });
  });

  it('refuses an image over the size limit', async () => {
    const noisy = await sharp(
      Buffer.from(Array.from({ length: 600 * 600 * 3 }, (_, index) => (index * 7919) % 251)),
      {
        raw: { width: 600, height: 600, channels: 3 },
      },
    )
      .png({ compressionLevel: 0 })
      .toBuffer();
    expect(noisy.length).toBeGreaterThan(200 * 1024);
    const response = await upload(
      multipart({ name: 'Huge' }, { bytes: noisy, filename: 'huge.png', type: 'image/png' }),
    );
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual({ file: ['is too large: images can be at most 0.2 MB'] });
  });

  it('names missing fields in a 422', async () => {
    const response = await upload(multipart({ description: 'no name, no file' }));
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual({ file: ['is required'], name: ['is required'] });
  });

  it('searches names and descriptions, newest first, paginated', async () => {
    const bytes = await solidImage(20, 20).png().toBuffer();
    await upload(
      multipart(
        { name: 'Winter boots', description: 'Catalogue' },
        { bytes, filename: 'a.png', type: 'image/png' },
      ),
    );
    await upload(
      multipart(
        { name: 'Scarf', description: 'winter collection' },
        { bytes, filename: 'b.png', type: 'image/png' },
      ),
    );
    const found = (
      await app.inject({ method: 'GET', url: `${imagesUrl}?search=WINTER`, headers: editor })
    ).json();
    expect(found.results.map((image: { name: string }) => image.name)).toEqual(['Scarf', 'Winter boots']);
    expect(found.pagination).toEqual({ per: 10, page: 1, total: 2 });
  });

  it('renames, describes and deletes (files too)', async () => {
    const image = (
      await upload(
        multipart(
          { name: 'Old name' },
          { bytes: await solidImage(20, 20).png().toBuffer(), filename: 'c.png', type: 'image/png' },
        ),
      )
    ).json();
    const url = `${imagesUrl}/${image.id}`;
    const renamed = await app.inject({
      method: 'PATCH',
      url,
      headers: editor,
      payload: { name: 'New name', description: null },
    });
    expect(renamed.json()).toMatchObject({ name: 'New name', description: null });
    expect((await app.inject({ method: 'DELETE', url, headers: editor })).statusCode).toBe(204);
    expect((await app.inject({ method: 'GET', url, headers: editor })).statusCode).toBe(404);
    expect((await download(image.public_url)).response.statusCode).toBe(404);
    expect((await download(image.thumbnail_url)).response.statusCode).toBe(404);
  });

  it('keeps an image an email shows, naming the email, unless forced', async () => {
    const admin = await signInAs(app, organization.admin);
    const base = `/api/v1/workspaces/${organization.workspaceId}`;
    const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
      app.inject({ method, url, headers: admin, ...(payload ? { payload } : {}) });
    const image = (
      await upload(
        multipart(
          { name: 'Hero shot' },
          { bytes: await solidImage(40, 40).png().toBuffer(), filename: 'hero.png', type: 'image/png' },
        ),
      )
    ).json();
    const system = (await call('GET', `${base}/email_design_systems`)).json().results[0];
    const hero = (await call('GET', `${base}/email_design_systems/${system.id}/components?per=100`))
      .json()
      .results.find((component: { name: string }) => component.name === 'hero');
    const team = (
      await call('POST', '/api/v1/teams', {
        name: 'Images team',
        workspace_id: organization.workspaceId,
        badge_color: 'red',
      })
    ).json();
    const project = (await call('POST', `${base}/projects`, { name: 'Autumn', team_id: team.id })).json();
    const email = (
      await call('POST', `${base}/emails`, {
        name: 'Autumn hero',
        email_design_system_id: system.id,
        project_id: project.id,
      })
    ).json();
    const saved = await call('PATCH', `${base}/emails/${email.id}`, {
      email_content: {
        ...email.email_content,
        component_instances: [
          {
            id: '0b7f3c1e-6a4d-4e59-9c1b-2f8e5d6a7b90',
            component_id: hero.id,
            field_values: { null_branch: { 'en-US': { image_url: { value: image.public_url } } } },
          },
        ],
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);

    const refused = await call('DELETE', `${imagesUrl}/${image.id}`);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors.image).toEqual([
      'is used by emails (“Autumn hero”); delete with force=true to remove it anyway',
    ]);
    expect((await download(image.public_url)).response.statusCode).toBe(200);

    expect((await call('DELETE', `${imagesUrl}/${image.id}?force=true`)).statusCode).toBe(204);
    expect((await download(image.public_url)).response.statusCode).toBe(404);
  });

  it('keeps libraries apart: another workspace’s image is not found in this one', async () => {
    const admin = await signInAs(app, organization.admin);
    const other = (
      await app.inject({
        method: 'POST',
        url: '/api/v1/workspaces',
        headers: admin,
        payload: { name: 'Other', auto_join: false },
      })
    ).json();
    const image = (
      await upload(
        multipart(
          { name: 'Elsewhere' },
          { bytes: await solidImage(20, 20).png().toBuffer(), filename: 'd.png', type: 'image/png' },
        ),
        admin,
      )
    ).json();
    const fromOther = await app.inject({
      method: 'GET',
      url: `/api/v1/workspaces/${other.id}/images/${image.id}`,
      headers: admin,
    });
    expect(fromOther.statusCode).toBe(404);
    const otherList = (
      await app.inject({ method: 'GET', url: `/api/v1/workspaces/${other.id}/images`, headers: admin })
    ).json();
    expect(otherList.pagination.total).toBe(0);
  });

  it('lets Viewers look but not upload', async () => {
    const viewer = await signInAs(app, await createTestUser(app, organization, { role: 'Viewer' }));
    expect((await app.inject({ method: 'GET', url: imagesUrl, headers: viewer })).statusCode).toBe(200);
    const refused = await upload(
      multipart(
        { name: 'x' },
        { bytes: await solidImage(5, 5).png().toBuffer(), filename: 'x.png', type: 'image/png' },
      ),
      viewer,
    );
    expect(refused.statusCode).toBe(403);
  });
});
