import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStarterProject, createTestOrganization, signInAs } from '../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../test/harness.ts';

type Headers = Record<string, string>;
type FieldValues = Record<string, Record<string, Record<string, Record<string, unknown>>>>;

describe('adding a locale to an email', () => {
  let app: TestApp;
  let admin: Headers;
  let base: string;
  let projectId: number;
  let starter: { id: number; components: Record<string, number> };

  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
    app.inject({ method, url, headers: admin, ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    app = await buildTestApp();
    const organization = await createTestOrganization(app);
    admin = await signInAs(app, organization.admin);
    base = `/api/v1/workspaces/${organization.workspaceId}`;
    ({ starter, projectId } = await createStarterProject(app, organization, admin, {
      team: 'Translators',
      project: 'Localized',
    }));
  });
  afterAll(async () => {
    await app.close();
  });

  /** An email in en-US (and fr-FR) with a heading, an image and a button, the heading under two branches' worth of values. */
  async function createEmail() {
    const created = await call('POST', `${base}/emails`, {
      name: `Launch ${randomUUID().slice(0, 6)}`,
      email_design_system_id: starter.id,
      project_id: projectId,
      locales: ['en-US', 'fr-FR'],
      default_locale: 'en-US',
    });
    expect(created.statusCode, created.body).toBe(200);
    const email = created.json();
    const content = {
      ...email.email_content,
      subject: {
        branch_content: { null_branch: { 'en-US': 'Spring sale', 'fr-FR': 'Soldes de printemps' } },
      },
      preheader: { branch_content: { null_branch: { 'en-US': 'Ten days only' } } },
      component_instances: [
        {
          id: randomUUID(),
          component_id: starter.components.heading,
          field_values: {
            null_branch: {
              'en-US': { text: { value: 'Spring is here' } },
              'fr-FR': { text: { value: 'Le printemps est là' } },
            },
          },
        },
        {
          id: randomUUID(),
          component_id: starter.components.button,
          field_values: {
            null_branch: {
              'en-US': {
                text: { value: 'Shop now' },
                url: { value: 'https://example.com/shop', link_tracking_parameters: { utm_content: 'cta' } },
              },
            },
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

  const valuesOf = (email: { email_content: { component_instances: { field_values: FieldValues }[] } }) =>
    email.email_content.component_instances.map((instance) => instance.field_values.null_branch ?? {});

  it('copies every value, the subject and the preheader of the default locale, marked copied', async () => {
    const email = await createEmail();
    const patched = await call('PATCH', `${base}/emails/${email.id}`, {
      locales: ['en-US', 'fr-FR', 'de-DE'],
      lock_version: email.lock_version,
    });
    expect(patched.statusCode, patched.body).toBe(200);
    const after = patched.json();
    const [heading, button] = valuesOf(after);
    expect(heading?.['de-DE']).toEqual({ text: { value: 'Spring is here', translation_status: 'copied' } });
    // Not only texts: the link and its tracking parameters come along, so no field falls back to its default.
    expect(button?.['de-DE']).toEqual({
      text: { value: 'Shop now', translation_status: 'copied' },
      url: {
        value: 'https://example.com/shop',
        link_tracking_parameters: { utm_content: 'cta' },
        translation_status: 'copied',
      },
    });
    expect(after.email_content.subject.branch_content.null_branch['de-DE']).toBe('Spring sale');
    expect(after.email_content.preheader.branch_content.null_branch['de-DE']).toBe('Ten days only');
    expect(after.email_content.subject.translation_status).toEqual({ null_branch: { 'de-DE': 'copied' } });
    // The locales the email had are untouched.
    expect(heading?.['fr-FR']).toEqual({ text: { value: 'Le printemps est là' } });
  });

  it('copies from source_locale when the request names one', async () => {
    const email = await createEmail();
    const patched = await call('PATCH', `${base}/emails/${email.id}`, {
      locales: ['en-US', 'fr-FR', 'fr-CA'],
      source_locale: 'fr-FR',
    });
    expect(patched.statusCode, patched.body).toBe(200);
    const after = patched.json();
    expect(valuesOf(after)[0]?.['fr-CA']).toEqual({
      text: { value: 'Le printemps est là', translation_status: 'copied' },
    });
    expect(after.email_content.subject.branch_content.null_branch['fr-CA']).toBe('Soldes de printemps');
    // French has no button values: nothing to copy there.
    expect(valuesOf(after)[1]?.['fr-CA']).toBeUndefined();
  });

  it('keeps the values a request gives the new locale', async () => {
    const email = await createEmail();
    const content = structuredClone(email.email_content);
    content.component_instances[0].field_values.null_branch['it-IT'] = {
      text: { value: 'La primavera è qui', translation_status: 'edited' },
    };
    const patched = await call('PATCH', `${base}/emails/${email.id}`, {
      email_content: content,
      locales: ['en-US', 'fr-FR', 'it-IT'],
    });
    expect(patched.statusCode, patched.body).toBe(200);
    const [heading, button] = valuesOf(patched.json());
    expect(heading?.['it-IT']).toEqual({
      text: { value: 'La primavera è qui', translation_status: 'edited' },
    });
    expect(button?.['it-IT']?.url).toMatchObject({
      value: 'https://example.com/shop',
      translation_status: 'copied',
    });
  });

  it('marks a copied value edited when it is changed through the API', async () => {
    const email = await createEmail();
    const added = (
      await call('PATCH', `${base}/emails/${email.id}`, { locales: ['en-US', 'fr-FR', 'de-DE'] })
    ).json();
    const content = structuredClone(added.email_content);
    content.component_instances[0].field_values.null_branch['de-DE'].text.value = 'Der Frühling ist da';
    content.subject.branch_content.null_branch['de-DE'] = 'Frühlingsangebot';
    const patched = await call('PATCH', `${base}/emails/${email.id}`, { email_content: content });
    expect(patched.statusCode, patched.body).toBe(200);
    const after = patched.json();
    expect(valuesOf(after)[0]?.['de-DE']).toEqual({
      text: { value: 'Der Frühling ist da', translation_status: 'edited' },
    });
    expect(valuesOf(after)[1]?.['de-DE']?.text).toEqual({ value: 'Shop now', translation_status: 'copied' });
    expect(after.email_content.subject.translation_status).toEqual({ null_branch: { 'de-DE': 'edited' } });
  });

  it('drops a removed locale’s statuses with its texts', async () => {
    const email = await createEmail();
    await call('PATCH', `${base}/emails/${email.id}`, { locales: ['en-US', 'fr-FR', 'de-DE'] });
    const removed = await call('PATCH', `${base}/emails/${email.id}`, { locales: ['en-US', 'fr-FR'] });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json().email_content.subject).not.toHaveProperty('translation_status');
  });

  it('refuses a source_locale the email does not have, one without new locales, and an unknown status', async () => {
    const email = await createEmail();
    const foreign = await call('PATCH', `${base}/emails/${email.id}`, {
      locales: ['en-US', 'fr-FR', 'de-DE'],
      source_locale: 'it-IT',
    });
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().errors).toEqual({
      source_locale: ['must be a locale the email already has and keeps'],
    });
    const alone = await call('PATCH', `${base}/emails/${email.id}`, { source_locale: 'fr-FR' });
    expect(alone.statusCode).toBe(422);
    expect(alone.json().errors.source_locale).toEqual([
      'is only for adding locales: send it with the new locales',
    ]);

    const content = structuredClone(email.email_content);
    content.component_instances[0].field_values.null_branch['fr-FR'].text.translation_status = 'perfect';
    const badStatus = await call('PATCH', `${base}/emails/${email.id}`, { email_content: content });
    expect(badStatus.statusCode).toBe(422);
    expect(JSON.stringify(badStatus.json().errors)).toContain('translation_status');

    const orphan = structuredClone(email.email_content);
    orphan.preheader.translation_status = { null_branch: { 'fr-FR': 'translated' } };
    const orphanStatus = await call('PATCH', `${base}/emails/${email.id}`, { email_content: orphan });
    expect(orphanStatus.statusCode).toBe(422);
    expect(orphanStatus.json().errors).toEqual({
      'email_content.preheader.translation_status.null_branch.fr-FR': [
        'has no preheader text in this branch and locale to describe',
      ],
    });
    // Nothing was written.
    const unchanged = (await call('GET', `${base}/emails/${email.id}`)).json();
    expect(unchanged.locales).toEqual(['en-US', 'fr-FR']);
    expect(unchanged.lock_version).toBe(email.lock_version);
  });
});
