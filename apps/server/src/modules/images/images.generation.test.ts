import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Config } from '../../config.ts';
import { aiUsage, images, organizationAiSettings } from '../../db/schema.ts';
import { aiNotConfiguredMessage } from '../../integrations/ai/ai-client.ts';
import {
  createTestOrganization,
  createTestUser,
  signInAs,
  type TestOrganization,
} from '../../test/factories.ts';
import { json, startFakeServer } from '../../test/fakes/fake-http.ts';
import { type FakeOpenAi, startFakeOpenAi } from '../../test/fakes/fake-openai.ts';
import { buildTestApp, type TestApp } from '../../test/harness.ts';
import { nameFromPrompt } from './images.generation.ts';

type Headers = Record<string, string>;

const prompt = 'A red fox asleep in autumn leaves, soft morning light, photographic, shallow depth of field';

/** The server's default provider: the fake, with or without an image model. */
function aiDefaults(baseUrl: string, imageModel: string | undefined): Config['aiDefaults'] {
  return { provider: 'openai_compatible', baseUrl, model: 'test-model', imageModel, apiKey: undefined };
}

/** An app, an organization in it, and its Admin's session. */
async function setUp(config: Partial<Config>) {
  const app = await buildTestApp({ config });
  const organization = await createTestOrganization(app);
  const admin = await signInAs(app, organization.admin);
  const imagesUrl = `/api/v1/workspaces/${organization.workspaceId}/images`;
  const generate = (payload: object, headers: Headers = admin) =>
    app.inject({ method: 'POST', url: `${imagesUrl}/generate`, headers, payload });
  const storedImages = () =>
    app.services.database.db
      .select()
      .from(images)
      .where(eq(images.organizationId, organization.organizationId));
  return { app, organization, admin, imagesUrl, generate, storedImages };
}

describe('generating an image into the library', () => {
  let fake: FakeOpenAi;
  let app: TestApp;
  let organization: TestOrganization;
  let admin: Headers;
  let imagesUrl: string;
  let generate: Awaited<ReturnType<typeof setUp>>['generate'];
  let storedImages: Awaited<ReturnType<typeof setUp>>['storedImages'];

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    ({ app, organization, admin, imagesUrl, generate, storedImages } = await setUp({
      aiDefaults: aiDefaults(fake.baseUrl, 'test-image-model'),
    }));
  });
  beforeEach(() => fake.reset());
  afterAll(async () => {
    await app.close();
    await fake.close();
  });

  const imageRequests = () => fake.seen.filter((request) => request.path === '/v1/images/generations');
  const download = (url: string) => app.inject({ method: 'GET', url: new URL(url).pathname });

  it('stores the image like an upload, described by its prompt, and records the usage', async () => {
    const response = await generate({ prompt, size: '1536x1024' });
    expect(response.statusCode, response.body).toBe(200);
    const image = response.json();
    expect(image).toMatchObject({
      id: expect.stringMatching(/^img_[0-9a-f]{20}$/),
      name: 'A red fox asleep in autumn leaves, soft morning light…',
      description: prompt,
      filename: 'a-red-fox-asleep-in-autumn-leaves-soft-morning-light.png',
      width: 1536,
      height: 1024,
      extension: 'png',
      animated: false,
      organization_id: organization.organizationId,
      workspace_id: organization.workspaceId,
    });

    // The provider got the prompt as it was typed, at the size asked for, from the image model.
    expect(imageRequests()).toHaveLength(1);
    expect(imageRequests()[0]?.body).toMatchObject({
      model: 'test-image-model',
      prompt,
      size: '1536x1024',
      n: 1,
    });

    const original = await download(image.public_url);
    expect(original.statusCode).toBe(200);
    expect(original.headers['content-type']).toBe('image/png');
    expect(Number(original.headers['content-length'])).toBe(image.file_size);
    const thumbnail = await sharp((await download(image.thumbnail_url)).rawPayload).metadata();
    expect([thumbnail.format, thumbnail.width, thumbnail.height]).toEqual(['webp', 400, 267]);

    const listed = (await app.inject({ method: 'GET', url: imagesUrl, headers: admin })).json();
    expect(listed.results[0]).toEqual(image);

    const usage = await app.services.database.db
      .select()
      .from(aiUsage)
      .where(
        and(eq(aiUsage.organizationId, organization.organizationId), eq(aiUsage.feature, 'image_generation')),
      );
    expect(usage).toEqual([
      expect.objectContaining({
        userId: organization.admin.id,
        feature: 'image_generation',
        model: 'test-image-model',
      }),
    ]);
  });

  it('makes a square image by default and takes the name it is given', async () => {
    const response = await generate({ prompt: 'Three lemons on a blue plate', name: 'Lemons' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      name: 'Lemons',
      filename: 'lemons.png',
      width: 1024,
      height: 1024,
    });
    expect(imageRequests()[0]?.body?.size).toBe('1024x1024');
  });

  it('makes an image for a field in the field’s proportion: the nearest size, its middle cropped', async () => {
    const wide = await generate({ prompt: 'A beach at dawn', aspect_ratio: { width: 600, height: 200 } });
    expect(wide.statusCode, wide.body).toBe(200);
    expect(imageRequests()[0]?.body?.size).toBe('1536x1024');
    expect(wide.json()).toMatchObject({ width: 1536, height: 512, extension: 'png' });
    const stored = await download(wide.json().public_url);
    expect(await sharp(stored.rawPayload).metadata()).toMatchObject({ width: 1536, height: 512 });

    const tall = await generate({ prompt: 'A lighthouse', aspect_ratio: { width: 3, height: 4 } });
    expect(imageRequests()[1]?.body?.size).toBe('1024x1536');
    expect(tall.json()).toMatchObject({ width: 1024, height: 1365 });

    const square = await generate({ prompt: 'A shell', aspect_ratio: { width: 300, height: 300 } });
    expect(imageRequests()[2]?.body?.size).toBe('1024x1024');
    expect(square.json()).toMatchObject({ width: 1024, height: 1024 });

    // The proportion decides the size, whatever size says.
    const both = await generate({ prompt, size: '1024x1024', aspect_ratio: { width: 2, height: 1 } });
    expect(imageRequests()[3]?.body?.size).toBe('1536x1024');
    expect(both.json()).toMatchObject({ width: 1536, height: 768 });
    const zero = await generate({ prompt, aspect_ratio: { width: 0, height: 1 } });
    expect(zero.statusCode).toBe(422);
    expect(imageRequests()).toHaveLength(4);
  });

  it('tells a rate limit in Letterset’s words, never the provider’s', async () => {
    const limited = {
      kind: 'error' as const,
      status: 429,
      message: 'Rate limit reached for gpt-x in organization org-123 on requests per min. Limit: 3',
    };
    fake.script(limited, limited, limited);
    const response = await generate({ prompt });
    expect(response.statusCode).toBe(502);
    expect(response.json()).toEqual({
      code: 'upstream_failed',
      message: 'The AI provider is limiting requests (HTTP 429); try again in 1 second.',
    });
  });

  it('answers 502 with the provider’s refusal of the API key in plain words, and stores nothing', async () => {
    const before = (await storedImages()).length;
    fake.script({ kind: 'error', status: 401 });
    const response = await generate({ prompt });
    expect(response.statusCode).toBe(502);
    expect(response.json()).toEqual({
      code: 'upstream_failed',
      message: 'The AI provider refused the API key (HTTP 401). An Admin can change it in Settings › AI.',
    });
    expect((await storedImages()).length).toBe(before);
  });

  it('refuses bad requests before calling the provider', async () => {
    const blank = await generate({ prompt: '   ' });
    expect(blank.statusCode).toBe(422);
    expect(blank.json().errors).toEqual({ prompt: ["can't be blank"] });
    const tooLong = await generate({ prompt: 'x'.repeat(4001) });
    expect(tooLong.statusCode).toBe(422);
    expect(tooLong.json().errors).toEqual({ prompt: ['must be at most 4000 characters'] });
    const badSize = await generate({ prompt, size: '512x512' });
    expect(badSize.statusCode).toBe(422);
    expect(Object.keys(badSize.json().errors)).toEqual(['size']);
    expect(imageRequests()).toEqual([]);
  });

  it('is refused to a Viewer', async () => {
    const viewer = await signInAs(app, await createTestUser(app, organization, { role: 'Viewer' }));
    const response = await generate({ prompt }, viewer);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({
      code: 'permission_denied',
      message: 'You need the create_library_images permission to do this',
    });
    expect(imageRequests()).toEqual([]);
  });
});

describe('generating an image without what it needs', () => {
  // No server default: each organization brings its own provider (Settings › AI), or none.
  let app: TestApp;
  let fake: FakeOpenAi;
  let notAnImage: Awaited<ReturnType<typeof startFakeServer>>;

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    // A server that answers in OpenAI's format with bytes that are no picture.
    notAnImage = await startFakeServer(() =>
      json(200, {
        created: 1,
        data: [{ b64_json: Buffer.from('<html>not a picture</html>').toString('base64') }],
      }),
    );
    // The fakes listen on loopback, which an Admin's base URL may reach only when the operator allows it.
    app = await buildTestApp({
      config: { outboundFetch: { allowPrivateNetwork: true, timeoutMs: 10_000, maxBytes: 1024 * 1024 } },
    });
  });
  beforeEach(() => fake.reset());
  afterAll(async () => {
    await app.close();
    await fake.close();
    await notAnImage.close();
  });

  /** An organization whose Admin set up the given provider, and a call to generate in it. */
  async function organizationWith(provider: { baseUrl: string; imageModel: string | null } | null) {
    const organization = await createTestOrganization(app);
    if (provider) {
      await app.services.database.db.insert(organizationAiSettings).values({
        organizationId: organization.organizationId,
        provider: 'openai_compatible',
        baseUrl: provider.baseUrl,
        model: 'test-model',
        imageModel: provider.imageModel,
      });
    }
    const admin = await signInAs(app, organization.admin);
    return {
      generate: () =>
        app.inject({
          method: 'POST',
          url: `/api/v1/workspaces/${organization.workspaceId}/images/generate`,
          headers: admin,
          payload: { prompt },
        }),
      storedImages: () =>
        app.services.database.db
          .select()
          .from(images)
          .where(eq(images.organizationId, organization.organizationId)),
    };
  }

  it('answers 422 when the organization has no AI provider', async () => {
    const { generate } = await organizationWith(null);
    const response = await generate();
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      code: 'validation_failed',
      message: aiNotConfiguredMessage,
      errors: { ai_provider: ['is not set up: an Admin can set one up in Settings › AI'] },
    });
  });

  it('answers 422 when the provider has no image model', async () => {
    const { generate } = await organizationWith({ baseUrl: fake.baseUrl, imageModel: null });
    const response = await generate();
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      code: 'validation_failed',
      message: 'No image model is set: an Admin can choose one in Settings › AI',
      errors: { image_model: ['is not set: an Admin can choose an image model in Settings › AI'] },
    });
    expect(fake.seen).toEqual([]);
  });

  it('answers 502 when the model’s answer is not an image, and stores nothing', async () => {
    const { generate, storedImages } = await organizationWith({
      baseUrl: `${notAnImage.url}/v1`,
      imageModel: 'test-image-model',
    });
    const response = await generate();
    expect(response.statusCode).toBe(502);
    expect(response.json().message).toMatch(/^The AI provider’s answer is not an image Letterset can read/);
    expect(await storedImages()).toEqual([]);
  });

  it('uses the organization’s own provider when it has one', async () => {
    const { generate } = await organizationWith({ baseUrl: fake.baseUrl, imageModel: 'org-image-model' });
    const response = await generate();
    expect(response.statusCode, response.body).toBe(200);
    expect(fake.seen[0]?.body).toMatchObject({ model: 'org-image-model', prompt });
  });
});

describe('the name of a generated image', () => {
  it.each([
    ['Three lemons', 'Three lemons'],
    ['  A  cat\non a\tmat  ', 'A cat on a mat'],
    [`${'x'.repeat(70)} more`, `${'x'.repeat(59)}…`],
    [
      'one two three four five six seven eight nine ten eleven twelve thirteen',
      'one two three four five six seven eight nine ten eleven…',
    ],
    ['\n\t', 'Generated image'],
  ])('of %j is %j', (input, name) => {
    expect(nameFromPrompt(input)).toBe(name);
  });
});
