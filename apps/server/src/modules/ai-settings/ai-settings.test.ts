import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { organizationAiSettings } from '../../db/schema.ts';
import {
  createTestOrganization,
  signInAs,
  signInMemberWith,
  type TestOrganization,
} from '../../test/factories.ts';
import { type FakeOpenAi, startFakeOpenAi } from '../../test/fakes/fake-openai.ts';
import { buildTestApp, type TestApp } from '../../test/harness.ts';

type Headers = Record<string, string>;

describe('AI settings', () => {
  let app: TestApp;
  let fake: FakeOpenAi;
  let organization: TestOrganization;
  let admin: Headers;
  const logLines: string[] = [];
  const apiKey = 'sk-test-organization-key-7f3a9c';

  const call = (method: 'GET' | 'PATCH' | 'POST', url: string, payload?: object, headers: Headers = admin) =>
    app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    fake = await startFakeOpenAi({ apiKey });
    app = await buildTestApp({
      // Admins' URLs on loopback are allowed here only because the fake listens there.
      config: {
        logLevel: 'info',
        outboundFetch: { allowPrivateNetwork: true, timeoutMs: 5_000, maxBytes: 1024 * 1024 },
        aiDefaults: {
          provider: 'openai',
          baseUrl: undefined,
          model: 'gpt-4.1-mini',
          imageModel: undefined,
          apiKey: undefined,
        },
      },
      logStream: { write: (line) => logLines.push(line) },
    });
    organization = await createTestOrganization(app);
    admin = await signInAs(app, organization.admin);
  });
  beforeEach(() => fake.reset());
  afterAll(async () => {
    await app.close();
    await fake.close();
  });

  it('shows the server’s default until the organization sets its own', async () => {
    const settings = (await call('GET', '/api/v1/ai_settings')).json();
    expect(settings).toMatchObject({
      configured: true,
      source: 'environment',
      provider: null,
      api_key: null,
      environment_default: { provider: 'openai', model: 'gpt-4.1-mini', base_url: null },
    });
  });

  it('stores the key encrypted, answers it masked, and keeps it when the masked value comes back', async () => {
    const saved = await call('PATCH', '/api/v1/ai_settings', {
      provider: 'openai_compatible',
      base_url: `${fake.baseUrl}/`,
      model: 'llama3.1',
      api_key: apiKey,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({
      configured: true,
      source: 'organization',
      provider: 'openai_compatible',
      base_url: fake.baseUrl,
      model: 'llama3.1',
      api_key: '••••3a9c',
    });
    expect(saved.body).not.toContain(apiKey);
    const [row] = await app.services.database.db
      .select()
      .from(organizationAiSettings)
      .where(eq(organizationAiSettings.organizationId, organization.organizationId));
    expect(row?.sealedApiKey).toMatch(/^v1\./);
    expect(row?.sealedApiKey).not.toContain(apiKey);

    const again = await call('PATCH', '/api/v1/ai_settings', {
      api_key: saved.json().api_key,
      model: 'llama3.2',
    });
    expect(again.json()).toMatchObject({ api_key: '••••3a9c', model: 'llama3.2' });
    const test = (await call('POST', '/api/v1/ai_settings/test')).json();
    expect(test).toMatchObject({ ok: true, model: 'llama3.2' });
    expect(test.message).toContain('This is a reply from the fake model.');
    expect(fake.seen[0]?.headers.authorization).toBe(`Bearer ${apiKey}`);
    expect(logLines.join('\n')).not.toContain(apiKey);
  });

  it('tests the connection and says in plain words what the provider refused', async () => {
    await call('PATCH', '/api/v1/ai_settings', { api_key: 'sk-a-wrong-key-that-is-long' });
    const refused = (await call('POST', '/api/v1/ai_settings/test')).json();
    expect(refused).toMatchObject({
      ok: false,
      message: 'The AI provider refused the API key (HTTP 401). An Admin can change it in Settings › AI.',
    });
    await call('PATCH', '/api/v1/ai_settings', { api_key: apiKey });
    fake.script(
      { kind: 'error', status: 429, retryAfterSeconds: 0 },
      { kind: 'error', status: 429, retryAfterSeconds: 0 },
    );
    const limited = (await call('POST', '/api/v1/ai_settings/test')).json();
    expect(limited.ok).toBe(false);
    expect(limited.message).toMatch(/^The AI provider is limiting requests \(HTTP 429\)/);
  });

  it('refuses settings that cannot work, each on its field', async () => {
    const missing = await call('PATCH', '/api/v1/ai_settings', {
      provider: 'openai_compatible',
      base_url: null,
    });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors).toEqual({
      base_url: ['is needed for an OpenAI-compatible server (e.g. http://ollama.internal:11434/v1)'],
    });
    const noModel = await call('PATCH', '/api/v1/ai_settings', { provider: 'anthropic', model: null });
    expect(noModel.json().errors).toEqual({ model: ['is needed to use a provider'] });
    const ftp = await call('PATCH', '/api/v1/ai_settings', { base_url: 'ftp://models.example' });
    expect(ftp.json().errors).toEqual({ base_url: ['must be an http(s) URL'] });
  });

  it('never sends one provider’s key to another, and falls back to the server’s default without a provider', async () => {
    const switched = (
      await call('PATCH', '/api/v1/ai_settings', { provider: 'anthropic', model: 'claude-sonnet-4-5' })
    ).json();
    expect(switched).toMatchObject({ provider: 'anthropic', api_key: null });
    const cleared = (await call('PATCH', '/api/v1/ai_settings', { provider: null })).json();
    expect(cleared).toMatchObject({ source: 'environment', configured: true, provider: null });
  });

  it('lets only people who may update the organization change or read usage', async () => {
    const team = (
      await call('POST', '/api/v1/teams', {
        name: 'Writers',
        workspace_id: organization.workspaceId,
        badge_color: 'blue',
      })
    ).json();
    const editor = await signInMemberWith(app, organization, {
      adminHeaders: admin,
      teamId: team.id,
      permissions: ['update_emails'],
    });
    // Members learn whether AI works, not where it lives.
    expect((await call('GET', '/api/v1/ai_settings', undefined, editor)).json()).toEqual({
      configured: true,
      source: 'environment',
      provider: null,
      base_url: null,
      model: null,
      image_model: null,
      api_key: null,
      environment_default: null,
      updated_at: null,
    });
    expect((await call('PATCH', '/api/v1/ai_settings', { model: 'x' }, editor)).statusCode).toBe(403);
    expect((await call('POST', '/api/v1/ai_settings/test', undefined, editor)).statusCode).toBe(403);
    expect((await call('GET', '/api/v1/ai_usage', undefined, editor)).statusCode).toBe(403);
  });

  it('counts calls and tokens per feature and person, this organization only', async () => {
    const usage = (await call('GET', '/api/v1/ai_usage?days=7')).json();
    const tests = usage.results.find((row: { feature: string }) => row.feature === 'connection_test');
    expect(tests).toMatchObject({ user: { id: organization.admin.id } });
    // The refused and rate-limited tests used no tokens and are not counted as calls.
    expect(tests.calls).toBe(1);
    expect(tests.input_tokens).toBeGreaterThan(0);
    const other = await createTestOrganization(app, 'Other');
    const otherUsage = (
      await call('GET', '/api/v1/ai_usage', undefined, await signInAs(app, other.admin))
    ).json();
    expect(otherUsage).toMatchObject({
      totals: { calls: 0, input_tokens: 0, output_tokens: 0 },
      results: [],
    });
  });

  it('refuses a literal private address unless the server allows private network fetches', async () => {
    const strict = await buildTestApp({ config: { aiDefaults: undefined } });
    try {
      const strictOrganization = await createTestOrganization(strict);
      const headers = await signInAs(strict, strictOrganization.admin);
      const refused = await strict.inject({
        method: 'PATCH',
        url: '/api/v1/ai_settings',
        headers,
        payload: { provider: 'openai_compatible', base_url: 'http://169.254.169.254/v1', model: 'm' },
      });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().errors.base_url[0]).toContain('is a private or loopback address');
      const settings = (await strict.inject({ method: 'GET', url: '/api/v1/ai_settings', headers })).json();
      expect(settings).toMatchObject({ configured: false, source: 'none', environment_default: null });
    } finally {
      await strict.close();
    }
  });
});
