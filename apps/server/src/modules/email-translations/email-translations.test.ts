import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createStarterProject,
  createTestOrganization,
  signInAs,
  signInMemberWith,
  type TestOrganization,
} from '../../test/factories.ts';
import {
  type FakeOpenAi,
  type FakeOpenAiReply,
  type OpenAiRequestBody,
  startFakeOpenAi,
} from '../../test/fakes/fake-openai.ts';
import { buildAiTestApp, buildTestApp, type TestApp } from '../../test/harness.ts';

type Headers = Record<string, string>;
type Method = 'GET' | 'POST' | 'PATCH';

/** The texts a translation request asked for, by name, and the locale it translates into. */
function askedFor(body: OpenAiRequestBody): { texts: Record<string, string>; target: string } {
  const system = String(body.messages?.find((message) => message.role === 'system')?.content ?? '');
  const target = /into .*\((\w\w-\w\w)\)\./.exec(system)?.[1] ?? '';
  // A repair turn lists problems; the texts are in the first user message.
  const first = body.messages?.find((message) => message.role === 'user');
  const asked = JSON.parse(String(first?.content ?? '{}')) as Record<string, { text: string }>;
  return { texts: Object.fromEntries(Object.entries(asked).map(([name, { text }]) => [name, text])), target };
}

/** A model that translates by prefixing the locale, keeping every placeholder where it was. */
const prefixingTranslator =
  (
    transform: (name: string, text: string, target: string) => string = (_, text, target) =>
      `[${target}] ${text}`,
  ) =>
  (body: OpenAiRequestBody): FakeOpenAiReply => {
    const { texts, target } = askedFor(body);
    return {
      kind: 'json',
      value: {
        translations: Object.fromEntries(
          Object.entries(texts).map(([name, text]) => [name, transform(name, text, target)]),
        ),
      },
    };
  };

describe('email translations with AI', () => {
  let app: TestApp;
  let fake: FakeOpenAi;
  let organization: TestOrganization;
  let admin: Headers;
  let base: string;
  let teamId: number;
  let projectId: number;
  let starter: { id: number; components: Record<string, number> };

  const call = (method: Method, url: string, payload?: object, headers: Headers = admin) =>
    app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

  /** An email with a heading that greets by name, rich text with a link, and a button. */
  async function createEmail(locales: string[] = ['en-US', 'fr-FR']) {
    const values = (entries: Record<string, string>) =>
      Object.fromEntries(Object.entries(entries).map(([name, value]) => [name, { value }]));
    const created = await call('POST', `${base}/emails`, {
      name: `Newsletter ${randomUUID().slice(0, 6)}`,
      email_design_system_id: starter.id,
      project_id: projectId,
      locales,
      default_locale: 'en-US',
    });
    const email = created.json();
    const content = {
      ...email.email_content,
      subject: { branch_content: { null_branch: { 'en-US': 'Hello {{ first_name }}' } } },
      preheader: { branch_content: { null_branch: { 'en-US': 'Our spring news' } } },
      component_instances: [
        {
          id: randomUUID(),
          component_id: starter.components.heading,
          field_values: { null_branch: { 'en-US': values({ text: 'Spring is here, {{ first_name }}' }) } },
        },
        {
          id: randomUUID(),
          component_id: starter.components.rich_text,
          field_values: {
            null_branch: {
              'en-US': values({
                body: '<p>Read <a href="https://example.com/news" class="es-link">the news</a> today.</p>',
              }),
            },
          },
        },
        {
          id: randomUUID(),
          component_id: starter.components.button,
          field_values: {
            null_branch: { 'en-US': values({ text: 'Shop now', url: 'https://example.com/shop' }) },
          },
        },
      ],
    };
    const saved = await call('PATCH', `${base}/emails/${email.id}`, {
      email_content: content,
      lock_version: email.lock_version,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    return saved.json();
  }

  async function waitForTranslation(emailId: number, id: number) {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const translation = (await call('GET', `${base}/emails/${emailId}/email_translations/${id}`)).json();
      if (translation.status !== 'in_progress' || Date.now() > deadline) return translation;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  const valuesIn = (
    email: {
      email_content: {
        component_instances: {
          field_values: Record<string, Record<string, Record<string, { value: unknown }>>>;
        }[];
      };
    },
    locale: string,
  ) =>
    email.email_content.component_instances.map((instance) =>
      Object.fromEntries(
        Object.entries(instance.field_values.null_branch?.[locale] ?? {}).map(([name, field]) => [
          name,
          field.value,
        ]),
      ),
    );

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    app = await buildAiTestApp(fake);
    organization = await createTestOrganization(app);
    admin = await signInAs(app, organization.admin);
    base = `/api/v1/workspaces/${organization.workspaceId}`;
    ({ starter, teamId, projectId } = await createStarterProject(app, organization, admin, {
      team: 'Locals',
      project: 'Global',
    }));
  });
  beforeEach(() => fake.reset());
  afterAll(async () => {
    await app.close();
    await fake.close();
  });

  it('translates every value into each locale, keeping Liquid, markup and links, one version per locale', async () => {
    fake.script(prefixingTranslator(), prefixingTranslator());
    const email = await createEmail();
    const started = await call('POST', `${base}/emails/${email.id}/email_translations`, {
      target_locales: ['fr-FR', 'de-DE'],
    });
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json()).toMatchObject({
      status: 'in_progress',
      source_locale: 'en-US',
      target_locales: ['fr-FR', 'de-DE'],
      locale_statuses: { 'fr-FR': { status: 'in_progress' }, 'de-DE': { status: 'in_progress' } },
    });

    const done = await waitForTranslation(email.id, started.json().id);
    expect(done.status).toBe('completed');
    const askedCount = Object.keys(askedFor(fake.seen[0]?.body ?? {}).texts).length;
    expect(askedCount).toBeGreaterThanOrEqual(5);
    expect(done.locale_statuses['fr-FR']).toEqual({
      status: 'completed',
      error: null,
      translated_values: askedCount,
      refused_values: [],
    });

    const translated = (await call('GET', `${base}/emails/${email.id}`)).json();
    expect(translated.locales).toEqual(['en-US', 'fr-FR', 'de-DE']);
    expect(translated.email_content.subject.branch_content.null_branch['fr-FR']).toBe(
      '[fr-FR] Hello {{ first_name }}',
    );
    // German was added by the translation: it started as a copy of English (the button's link
    // included, which is not text to translate), then each text was translated.
    expect(valuesIn(translated, 'de-DE')).toEqual([
      { text: '[de-DE] Spring is here, {{ first_name }}' },
      { body: '[de-DE] <p>Read <a href="https://example.com/news" class="es-link">the news</a> today.</p>' },
      { text: '[de-DE] Shop now', url: 'https://example.com/shop' },
    ]);
    const germanButton = translated.email_content.component_instances[2].field_values.null_branch['de-DE'];
    expect(germanButton.text.translation_status).toBe('translated');
    expect(germanButton.url.translation_status).toBe('copied');
    expect(translated.email_content.subject.translation_status.null_branch).toEqual({
      'fr-FR': 'translated',
      'de-DE': 'translated',
    });
    // The source locale is untouched.
    expect(valuesIn(translated, 'en-US')[2]).toEqual({ text: 'Shop now', url: 'https://example.com/shop' });
    // The model never saw the Liquid, the markup or the link: only placeholders.
    const asked = JSON.stringify(fake.seen.map((request) => request.body?.messages));
    expect(asked).toContain('Spring is here, ⟦1⟧');
    expect(asked).not.toContain('first_name');
    expect(asked).not.toContain('example.com/news');

    const versions = (await call('GET', `${base}/emails/${email.id}/versions`)).json().results;
    expect(versions.slice(0, 2).map((version: { ai_feature: string }) => version.ai_feature)).toEqual([
      'translation',
      'translation',
    ]);
  });

  it('translates again over a locale’s earlier translation', async () => {
    const email = await createEmail();
    for (const prefix of ['first', 'second', 'second']) {
      fake.script(prefixingTranslator((_, text) => `${prefix} ${text}`));
      const started = (
        await call('POST', `${base}/emails/${email.id}/email_translations`, { target_locales: ['fr-FR'] })
      ).json();
      const done = await waitForTranslation(email.id, started.id);
      expect(done.locale_statuses['fr-FR'], JSON.stringify(done)).toMatchObject({ status: 'completed' });
    }
    const translated = (await call('GET', `${base}/emails/${email.id}`)).json();
    expect(valuesIn(translated, 'fr-FR')[2]).toEqual({ text: 'second Shop now' });
    // The same translation a second time wrote no new version.
    const versions = (await call('GET', `${base}/emails/${email.id}/versions`)).json().results;
    expect(
      versions.filter((version: { ai_feature: string | null }) => version.ai_feature === 'translation'),
    ).toHaveLength(2);
  });

  it('refuses a translation that breaks a Liquid tag, after repairs, and writes the rest', async () => {
    const dropsTheName = prefixingTranslator(
      (_, text, target) => `[${target}] ${text.replace('⟦1⟧', 'friend')}`,
    );
    fake.script(dropsTheName, dropsTheName, dropsTheName);
    const email = await createEmail();
    const started = (
      await call('POST', `${base}/emails/${email.id}/email_translations`, { target_locales: ['fr-FR'] })
    ).json();
    const done = await waitForTranslation(email.id, started.id);
    expect(fake.seen).toHaveLength(3);
    expect(String(fake.seen[1]?.body?.messages?.at(-1)?.content)).toContain(
      'lost ⟦1⟧, which must stay exactly as given',
    );
    const locale = done.locale_statuses['fr-FR'];
    expect(locale.status).toBe('completed');
    // The subject, the heading and the rich text (whose ⟦1⟧ is its opening <p>) are refused.
    expect(locale.translated_values).toBe(Object.keys(askedFor(fake.seen[0]?.body ?? {}).texts).length - 3);
    expect(locale.refused_values).toHaveLength(3);
    // People read what was lost in words; only the model is told in placeholders.
    expect(locale.refused_values[0]).toEqual({
      key: 'subject.null_branch',
      reason: 'lost the Liquid value {{ first_name }}',
    });
    expect(locale.refused_values[2].reason).toBe('lost <p>');
    expect(JSON.stringify(locale.refused_values)).not.toContain('⟦');
    const translated = (await call('GET', `${base}/emails/${email.id}`)).json();
    expect(translated.email_content.subject.branch_content.null_branch['fr-FR']).toBeUndefined();
    expect(valuesIn(translated, 'fr-FR').slice(0, 2)).toEqual([{}, {}]);
    expect(valuesIn(translated, 'fr-FR')[2]).toEqual({ text: '[fr-FR] Shop now' });
  });

  it('fails one locale with the provider’s refusal in plain words while the other completes', async () => {
    const refusesGerman = (body: OpenAiRequestBody): FakeOpenAiReply =>
      askedFor(body).target === 'de-DE' ? { kind: 'error', status: 401 } : prefixingTranslator()(body);
    fake.script(refusesGerman, refusesGerman, refusesGerman);
    const email = await createEmail();
    const started = (
      await call('POST', `${base}/emails/${email.id}/email_translations`, {
        target_locales: ['fr-FR', 'de-DE'],
      })
    ).json();
    const done = await waitForTranslation(email.id, started.id);
    expect(done.status).toBe('failed');
    expect(done.locale_statuses['fr-FR'].status).toBe('completed');
    expect(done.locale_statuses['de-DE']).toMatchObject({
      status: 'failed',
      error: 'The AI provider refused the API key (HTTP 401). An Admin can change it in Settings › AI.',
    });
    const translated = (await call('GET', `${base}/emails/${email.id}`)).json();
    expect(translated.locales).toEqual(['en-US', 'fr-FR']);
  });

  it('tells a rate limit in Letterset’s words, never the provider’s', async () => {
    const limited = {
      kind: 'error' as const,
      status: 429,
      message: 'Rate limit reached for gpt-x in organization org-123 on requests per min. Limit: 3',
    };
    fake.script(limited, limited, limited);
    const email = await createEmail();
    const started = (
      await call('POST', `${base}/emails/${email.id}/email_translations`, { target_locales: ['fr-FR'] })
    ).json();
    const done = await waitForTranslation(email.id, started.id);
    expect(done.locale_statuses['fr-FR']).toMatchObject({
      status: 'failed',
      error: 'The AI provider is limiting requests (HTTP 429); try again in 1 second.',
    });
    expect(JSON.stringify(done)).not.toContain('org-123');
    fake.reset();
  });

  it('keeps what an editor saved while the model was translating', async () => {
    const slow = (body: OpenAiRequestBody) =>
      ({ ...prefixingTranslator()(body), delayMs: 500 }) as FakeOpenAiReply;
    fake.script(slow);
    const email = await createEmail();
    const started = (
      await call('POST', `${base}/emails/${email.id}/email_translations`, { target_locales: ['fr-FR'] })
    ).json();
    // Meanwhile an editor changes the English button.
    const current = (await call('GET', `${base}/emails/${email.id}`)).json();
    current.email_content.component_instances[2].field_values.null_branch['en-US'].text.value = 'Buy today';
    const edited = await call('PATCH', `${base}/emails/${email.id}`, {
      email_content: current.email_content,
      lock_version: current.lock_version,
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const done = await waitForTranslation(email.id, started.id);
    expect(done.status).toBe('completed');
    const after = (await call('GET', `${base}/emails/${email.id}`)).json();
    expect(valuesIn(after, 'en-US')[2]).toMatchObject({ text: 'Buy today' });
    expect(valuesIn(after, 'fr-FR')[2]).toEqual({ text: '[fr-FR] Shop now' });
    expect(after.lock_version).toBe(edited.json().lock_version + 1);
  });

  it('leaves fields hidden from AI alone', async () => {
    const profile = await call('POST', `${base}/email_design_systems/${starter.id}/brand_profiles`, {
      name: `No AI headings ${randomUUID().slice(0, 4)}`,
      component_overrides: [
        {
          component_id: starter.components.heading,
          hidden: false,
          field_overrides: [{ liquid_variable: 'text', hidden_from_ai: true }],
        },
      ],
    });
    expect(profile.statusCode, profile.body).toBe(200);
    const email = await createEmail();
    const branded = await call('PATCH', `${base}/emails/${email.id}`, {
      brand_profile_id: profile.json().id,
    });
    expect(branded.statusCode, branded.body).toBe(200);
    fake.script(prefixingTranslator());
    const started = (
      await call('POST', `${base}/emails/${email.id}/email_translations`, { target_locales: ['fr-FR'] })
    ).json();
    const done = await waitForTranslation(email.id, started.id);
    expect(done.locale_statuses['fr-FR']).toMatchObject({
      status: 'completed',
      translated_values: Object.keys(askedFor(fake.seen[0]?.body ?? {}).texts).length,
    });
    expect(JSON.stringify(fake.seen[0]?.body?.messages)).not.toContain('Spring is here');
    expect(valuesIn((await call('GET', `${base}/emails/${email.id}`)).json(), 'fr-FR')[0]).toEqual({});
  });

  it('refuses what cannot be translated, each with a clear 422 or 403', async () => {
    const email = await createEmail();
    const path = `${base}/emails/${email.id}/email_translations`;
    const source = await call('POST', path, { target_locales: ['en-US'] });
    expect(source.statusCode).toBe(422);
    expect(source.json().errors.target_locales[0]).toContain('it is the email’s default locale');
    const unknown = await call('POST', path, { target_locales: ['xx-XX'] });
    expect(unknown.statusCode).toBe(422);
    const unknownAgent = await call('POST', path, { target_locales: ['fr-FR'], ai_agent_id: 987_654 });
    expect(unknownAgent.json().errors).toEqual({ ai_agent_id: ['is not an AI agent of this workspace'] });

    const translator = await signInMemberWith(app, organization, {
      adminHeaders: admin,
      teamId,
      permissions: ['update_emails'],
    });
    const newLocale = await call('POST', path, { target_locales: ['it-IT'] }, translator);
    expect(newLocale.statusCode).toBe(403);
    expect(newLocale.json().message).toContain('add_remove_locales_from_emails');
    expect(fake.seen).toHaveLength(0);
  });

  it('refuses while the email is in review, and without a provider', async () => {
    // In en-US only: a review refuses an email whose French button has no link yet.
    const email = await createEmail(['en-US']);
    const group = (
      await call('POST', '/api/v1/review_groups', {
        name: `Reviewers ${randomUUID().slice(0, 4)}`,
        stages: [{ position: 1, approval_type: 'one_of', members: [{ user_id: organization.admin.id }] }],
      })
    ).json();
    const submitted = await call('POST', `${base}/emails/${email.id}/approval_workflow`, {
      review_group_id: group.id,
    });
    expect(submitted.statusCode, submitted.body).toBe(200);
    const inReview = await call('POST', `${base}/emails/${email.id}/email_translations`, {
      target_locales: ['fr-FR'],
    });
    expect(inReview.statusCode).toBe(422);
    expect(inReview.json().errors.status[0]).toContain('is in_review');

    const bare = await buildTestApp({ config: { aiDefaults: undefined } });
    try {
      const other = await createTestOrganization(bare);
      const headers = await signInAs(bare, other.admin);
      const systems = (
        await bare.inject({
          method: 'GET',
          url: `/api/v1/workspaces/${other.workspaceId}/email_design_systems`,
          headers,
        })
      ).json();
      const team = (
        await bare.inject({
          method: 'POST',
          url: '/api/v1/teams',
          headers,
          payload: { name: 'T', workspace_id: other.workspaceId, badge_color: 'blue' },
        })
      ).json();
      const project = (
        await bare.inject({
          method: 'POST',
          url: `/api/v1/workspaces/${other.workspaceId}/projects`,
          headers,
          payload: { name: 'P', team_id: team.id },
        })
      ).json();
      const bareEmail = (
        await bare.inject({
          method: 'POST',
          url: `/api/v1/workspaces/${other.workspaceId}/emails`,
          headers,
          payload: {
            name: 'E',
            email_design_system_id: systems.results[0].id,
            project_id: project.id,
            locales: ['en-US', 'fr-FR'],
          },
        })
      ).json();
      const refused = await bare.inject({
        method: 'POST',
        url: `/api/v1/workspaces/${other.workspaceId}/emails/${bareEmail.id}/email_translations`,
        headers,
        payload: { target_locales: ['fr-FR'] },
      });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().message).toBe(
        'No AI provider is set up for this organization: an Admin can set one up in Settings › AI',
      );
    } finally {
      await bare.close();
    }
  });
});
