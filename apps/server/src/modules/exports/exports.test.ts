import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productionConnectorEndpoints } from '../../config.ts';
import { exports } from '../../db/schema.ts';
import {
  apiKeyHeadersFor,
  createTestOrganization,
  signInAs,
  signInMemberWith,
  type TestOrganization,
} from '../../test/factories.ts';
import { type FakeIterable, startFakeIterable } from '../../test/fakes/fake-iterable.ts';
import { buildTestApp, createTestDatabase, type TestApp } from '../../test/harness.ts';
import { solidImage } from '../../test/images.ts';
import { runExport } from './export-runner.ts';

type Headers = Record<string, string>;
type Method = 'GET' | 'POST' | 'PATCH';

const chromiumPath = '/usr/bin/chromium';
const hasChromium = existsSync(chromiumPath);
const hasPdfToText = (() => {
  try {
    execFileSync('pdftotext', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe('exports', () => {
  let app: TestApp;
  let organization: TestOrganization;
  let admin: Headers;
  let base: string;
  let teamId: number;
  let projectId: number;
  let starter: { id: number; container: number; components: Record<string, number> };
  let image: { id: string; public_url: string };
  let iterable: FakeIterable;
  const iterableKey = 'itbl_export_key_0123456789abcdef';

  const call = (method: Method, url: string, headers: Headers = admin, payload?: object) =>
    app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

  /** Values in both locales: English and German text, the same library picture. */
  const bilingual = (english: Record<string, string>, german: Record<string, string>) => ({
    null_branch: {
      'en-US': Object.fromEntries(Object.entries(english).map(([key, value]) => [key, { value }])),
      'de-DE': Object.fromEntries(Object.entries(german).map(([key, value]) => [key, { value }])),
    },
  });

  const heroInstance = (overrides: { button_url?: string } = {}) => ({
    id: randomUUID(),
    component_id: starter.components.hero as number,
    field_values: bilingual(
      {
        headline: 'Spring is here',
        image_url: image.public_url,
        image_alt: 'Flowers',
        button_url: overrides.button_url ?? 'https://example.com/spring',
      },
      {
        headline: 'Der Frühling ist da',
        image_url: image.public_url,
        image_alt: 'Blumen',
        button_url: overrides.button_url ?? 'https://example.com/spring',
      },
    ),
  });

  async function createEmail(instances: object[] = [heroInstance()], extra: object = {}) {
    const created = await call('POST', `${base}/emails`, admin, {
      name: 'Spring sale',
      email_design_system_id: starter.id,
      project_id: projectId,
      locales: ['en-US', 'de-DE'],
    });
    expect(created.statusCode, created.body).toBe(200);
    const email = created.json();
    const updated = await call('PATCH', `${base}/emails/${email.id}`, admin, {
      email_content: {
        ...email.email_content,
        subject: { branch_content: { null_branch: { 'en-US': 'Spring sale', 'de-DE': 'Frühlingsangebot' } } },
        preheader: {
          branch_content: { null_branch: { 'en-US': 'Ten days only', 'de-DE': 'Nur zehn Tage' } },
        },
        component_instances: instances,
      },
      ...extra,
    });
    expect(updated.statusCode, updated.body).toBe(200);
    return updated.json() as { id: number; email_content: Record<string, unknown> };
  }

  const startExport = (payload: object, headers: Headers = admin) =>
    call('POST', `${base}/exports`, headers, payload);

  async function waitForExport(id: number) {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const response = await call('GET', `${base}/exports/${id}`);
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json();
      if (body.status !== 'in_progress' || Date.now() > deadline) return body;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async function download(url: string, headers: Headers = admin) {
    const response = await app.inject({ method: 'GET', url: new URL(url).pathname, headers });
    return response;
  }

  const memberWith = (permissions: string[]) =>
    signInMemberWith(app, organization, { adminHeaders: admin, teamId, permissions });

  beforeAll(async () => {
    iterable = await startFakeIterable();
    iterable.addKey(iterableKey, 'us');
    app = await buildTestApp({
      config: {
        runJobWorkers: true,
        chromiumPath,
        connectorEndpoints: {
          iterableUs: iterable.urls.us,
          iterableEu: iterable.urls.eu,
          // No Marketing Cloud here: the connectors' own tests cover it.
          salesforceAuth: productionConnectorEndpoints.salesforceAuth,
          privateOrigins: [iterable.urls.us, iterable.urls.eu],
        },
      },
    });
    organization = await createTestOrganization(app);
    admin = await signInAs(app, organization.admin);
    base = `/api/v1/workspaces/${organization.workspaceId}`;
    const systems = (await call('GET', `${base}/email_design_systems`)).json();
    const id = systems.results.find((system: { name: string }) => system.name === 'Letterset Starter').id;
    const components = (await call('GET', `${base}/email_design_systems/${id}/components?per=100`)).json()
      .results as { name: string; id: number; container: boolean }[];
    starter = {
      id,
      container: components.find((component) => component.container)?.id ?? 0,
      components: Object.fromEntries(components.map((component) => [component.name, component.id])),
    };
    teamId = (
      await call('POST', '/api/v1/teams', admin, {
        name: 'Newsletter team',
        workspace_id: organization.workspaceId,
        badge_color: 'blue',
      })
    ).json().id;
    await call('POST', `/api/v1/teams/${teamId}/users`, admin, { user_id: organization.admin.id });
    projectId = (
      await call('POST', `${base}/projects`, admin, { name: 'Newsletters', team_id: teamId })
    ).json().id;
    const form = new FormData();
    form.append('name', 'Flowers');
    form.append(
      'file',
      new Blob([new Uint8Array(await solidImage(16, 8).png().toBuffer())], { type: 'image/png' }),
      'flowers.png',
    );
    image = (
      await app.inject({ method: 'POST', url: `${base}/images`, headers: admin, payload: form })
    ).json();
  });
  afterAll(async () => {
    await app.close();
    await iterable.close();
  });

  describe('pre-send checks', () => {
    it('answers every locale’s findings: warnings for the starter’s missing alt text, nothing blocking', async () => {
      const email = await createEmail();
      const response = await call('GET', `${base}/emails/${email.id}/checks`);
      expect(response.statusCode, response.body).toBe(200);
      const result = response.json();
      expect(result).toMatchObject({ ready: true, blocking_count: 0 });
      // The container's logo has alt text; the hero has its own. Nothing else shows an image.
      expect(result.problems).toEqual([]);

      const german = (await call('GET', `${base}/emails/${email.id}/checks?locale=de-DE`)).json();
      expect(german.ready).toBe(true);
    });

    it('finds a broken link and untranslated text per locale, and 422s a locale the email lacks', async () => {
      const broken = heroInstance({ button_url: 'javascript:alert(1)' });
      (broken.field_values.null_branch['de-DE'] as Record<string, { value: string }>).headline = {
        value: 'Spring is here',
      };
      const email = await createEmail([broken]);
      const result = (await call('GET', `${base}/emails/${email.id}/checks`)).json();
      expect(result.ready).toBe(false);
      expect(
        result.problems.map((problem: { code: string; locale: string; severity: string }) => [
          problem.code,
          problem.locale,
          problem.severity,
        ]),
      ).toEqual([
        ['unsupported_link', 'en-US', 'blocking'],
        ['unsupported_link', 'de-DE', 'blocking'],
        ['untranslated_value', 'de-DE', 'warning'],
      ]);
      const unknownLocale = await call('GET', `${base}/emails/${email.id}/checks?locale=fr-FR`);
      expect(unknownLocale.statusCode).toBe(422);
      expect(unknownLocale.json().errors).toEqual({ locale: ['is not a locale of this email'] });
    });

    it('refuses an export with blocking problems, listing them by locale, and records nothing', async () => {
      const email = await createEmail([heroInstance({ button_url: '' })]);
      const before = await app.services.database.db.select().from(exports);
      const response = await startExport({
        email_id: email.id,
        export_type: 'html',
        options: { locales: ['de-DE'] },
      });
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({
        code: 'validation_failed',
        message: 'The email is not ready to export: fix the blocking problems first',
        errors: { 'checks.de-DE': ["Hero: Button link can't be blank", 'A link has no target'] },
      });
      expect(await app.services.database.db.select().from(exports)).toHaveLength(before.length);
    });
  });

  describe('html export', () => {
    it('zips a folder per locale: inlined HTML pointing at its images, plain text, the images', async () => {
      const email = await createEmail();
      const started = await startExport({
        email_id: email.id,
        export_type: 'html',
        options: { locales: ['en-US', 'de-DE'], image_mode: 'include_in_zip' },
      });
      expect(started.statusCode, started.body).toBe(200);
      expect(started.json()).toMatchObject({
        status: 'in_progress',
        export_type: 'html',
        email_id: email.id,
        email: { id: email.id, name: 'Spring sale', status: 'draft' },
        dynamic_content_profile_id: null,
        options: { locales: ['en-US', 'de-DE'], image_mode: 'include_in_zip' },
        metadata: { conditional_ids: [], personalization_tag_ids: [], image_ids: [image.id] },
        progress: { locales_total: 2 },
        export_errors: {},
        created_by: { id: organization.admin.id, first_name: 'Ada' },
        download_zip_url: null,
      });

      const finished = await waitForExport(started.json().id);
      expect(finished).toMatchObject({
        status: 'completed',
        progress: { locales_done: 2, locales_total: 2 },
      });
      expect(finished.download_zip_url).toBe(`http://localhost:3000${base}/exports/${finished.id}/download`);
      expect(finished.download_json_url).toBeNull();

      const zip = await download(finished.download_zip_url);
      expect(zip.statusCode).toBe(200);
      expect(zip.headers['content-type']).toBe('application/zip');
      expect(zip.headers['content-disposition']).toBe(
        `attachment; filename="spring-sale-export-${finished.id}.zip"`,
      );
      const files = unzipSync(new Uint8Array(zip.rawPayload));
      const imageFile = `${image.id}.png`;
      expect(Object.keys(files).sort()).toEqual([
        `de-DE/images/${imageFile}`,
        'de-DE/index.html',
        'de-DE/plain_text.txt',
        `en-US/images/${imageFile}`,
        'en-US/index.html',
        'en-US/plain_text.txt',
      ]);
      const germanHtml = strFromU8(files['de-DE/index.html'] as Uint8Array);
      expect(germanHtml).toContain('Der Frühling ist da');
      expect(germanHtml).toContain(`src="images/${imageFile}"`);
      expect(germanHtml).not.toContain(image.public_url);
      // CSS inlined: the design system's classes became style attributes.
      expect(germanHtml).toMatch(/<h1[^>]*style="[^"]*font-size: ?32px/);
      expect(strFromU8(files['de-DE/plain_text.txt'] as Uint8Array)).toContain('Der Frühling ist da\n');
      const stored = await app.services.storage.get(image.public_url.split('/files/')[1] as string);
      expect(stored?.size).toBe((files[`en-US/images/${imageFile}`] as Uint8Array).length);
    });

    it('keeps the zip private: not under /files/, and 404 to another organization', async () => {
      const email = await createEmail();
      const id = (
        await startExport({ email_id: email.id, export_type: 'html', options: { locales: ['en-US'] } })
      ).json().id;
      await waitForExport(id);
      const [row] = (await app.services.database.db.select().from(exports)).filter(
        (candidate) => candidate.id === id,
      );
      expect(row?.fileKey).toMatch(/^exports\//);
      expect((await app.inject({ method: 'GET', url: `/files/${row?.fileKey}` })).statusCode).toBe(404);
      expect((await app.inject({ method: 'GET', url: `${base}/exports/${id}/download` })).statusCode).toBe(
        401,
      );

      const outsider = await createTestOrganization(app);
      const foreign = await apiKeyHeadersFor(app, outsider, outsider.admin);
      for (const url of [
        `${base}/exports/${id}`,
        `${base}/exports/${id}/download`,
        `${base}/exports/${id}/export_data`,
        `/api/v1/workspaces/${outsider.workspaceId}/exports/${id}`,
        `/api/v1/workspaces/${outsider.workspaceId}/exports/${id}/download`,
        `/api/v1/workspaces/${outsider.workspaceId}/emails/${email.id}/checks`,
      ]) {
        expect((await app.inject({ method: 'GET', url, headers: foreign })).statusCode, url).toBe(404);
      }
      const foreignList = await app.inject({
        method: 'GET',
        url: `/api/v1/workspaces/${outsider.workspaceId}/exports`,
        headers: foreign,
      });
      expect(foreignList.json().results).toEqual([]);
      const foreignCreate = await app.inject({
        method: 'POST',
        url: `/api/v1/workspaces/${outsider.workspaceId}/exports`,
        headers: foreign,
        payload: { email_id: email.id, export_type: 'json', options: { locales: ['en-US'] } },
      });
      expect(foreignCreate.statusCode).toBe(404);
    });
  });

  describe('images in exports', () => {
    /** The starter's default picture of a component's image field, as the organization's design system has it. */
    async function starterPictureOf(component: string): Promise<string> {
      const components = (
        await call('GET', `${base}/email_design_systems/${starter.id}/components?per=100`)
      ).json().results as {
        name: string;
        field_definitions: { liquid_variable: string; default_value?: unknown }[];
      }[];
      const field = components
        .find((candidate) => candidate.name === component)
        ?.field_definitions.find((definition) => definition.liquid_variable === 'image_url');
      return String(field?.default_value);
    }

    const imageInstance = (url: string, alt: string) => ({
      id: randomUUID(),
      component_id: starter.components.image as number,
      field_values: bilingual(
        { image_url: url, image_alt: alt, link_url: '' },
        { image_url: url, image_alt: alt, link_url: '' },
      ),
    });

    /** Every picture address an HTML document shows: src, background, and CSS url(). */
    const picturesIn = (html: string) => [
      ...[...html.matchAll(/\s(?:src|background)="([^"]+)"/g)].map((match) => match[1] as string),
      ...[...html.matchAll(/url\((?:&quot;|['"])?([^)'"&]+)/g)].map((match) => match[1] as string),
    ];

    it('packs every stored picture the HTML shows, starter and library, once, under the path the HTML names', async () => {
      const starterPicture = await starterPictureOf('image');
      expect(starterPicture).toMatch(/^http:\/\/localhost:3000\/files\/starter-images\/image\.png$/);
      const external = 'https://pictures.example.net/banner.png';
      const email = await createEmail([
        { id: randomUUID(), component_id: starter.components.header as number, field_values: {} },
        heroInstance(),
        imageInstance(starterPicture, 'A placeholder'),
        imageInstance(image.public_url, 'Flowers again'),
        imageInstance(external, 'A banner from elsewhere'),
        {
          id: randomUUID(),
          component_id: starter.components.social_links as number,
          field_values: bilingual(
            { facebook_url: 'https://facebook.com/letterset' },
            { facebook_url: 'https://facebook.com/letterset' },
          ),
        },
      ]);
      const started = await startExport({
        email_id: email.id,
        export_type: 'html',
        options: { locales: ['en-US', 'de-DE'], image_mode: 'include_in_zip' },
      });
      expect(started.statusCode, started.body).toBe(200);
      // The picture from elsewhere cannot go in the zip: a warning per locale says so.
      expect(
        started
          .json()
          .warnings.filter((warning: { code: string }) => warning.code === 'image_not_packed')
          .map((warning: { locale: string; message: string }) => [warning.locale, warning.message]),
      ).toEqual(
        ['en-US', 'de-DE'].map((locale) => [
          locale,
          `An image Letterset does not store stays at its address instead of going in the zip: ${external}`,
        ]),
      );
      expect(started.json().metadata.image_ids).toEqual([image.id]);
      const finished = await waitForExport(started.json().id);
      expect(finished.status, JSON.stringify(finished.export_errors)).toBe('completed');
      const files = unzipSync(new Uint8Array((await download(finished.download_zip_url)).rawPayload));

      for (const locale of ['en-US', 'de-DE']) {
        const html = strFromU8(files[`${locale}/index.html`] as Uint8Array);
        // No address of this server is left: the email opens from the zip alone.
        expect(html).not.toContain('http://localhost:3000');
        const pictures = new Set(picturesIn(html));
        expect(pictures).toContain(external);
        const packed = [...pictures].filter((picture) => picture !== external);
        // The logo, the hero's and image's library picture, the starter placeholder, the social icons.
        expect(packed.sort()).toEqual(
          [
            `images/${image.id}.png`,
            'images/starter-image.png',
            'images/starter-logo.png',
            'images/starter-social-dark-f.png',
            'images/starter-social-dark-ig.png',
            'images/starter-social-dark-in.png',
          ].sort(),
        );
        for (const picture of packed) expect(files[`${locale}/${picture}`], picture).toBeDefined();
        // Each picture once, and nothing else in the folder.
        expect(
          Object.keys(files)
            .filter((name) => name.startsWith(`${locale}/images/`))
            .sort(),
        ).toEqual(packed.map((picture) => `${locale}/${picture}`).sort());
      }
      const starterBytes = await app.services.storage.get('starter-images/image.png');
      expect(starterBytes?.size).toBe((files['en-US/images/starter-image.png'] as Uint8Array).length);
    });

    it('by public URL, points every stored picture at the public base, never at an old internal address', async () => {
      const publicBase = 'https://cdn.example.com/letterset';
      const cdnApp = await buildTestApp({
        config: {
          runJobWorkers: true,
          publicApiUrl: 'https://letterset.example.com',
          storage: {
            kind: 'local',
            dir: await mkdtemp(path.join(tmpdir(), 'letterset-cdn-')),
            publicBaseUrl: publicBase,
          },
        },
      });
      try {
        // An organization made while the server answered at an internal address: its starter's
        // pictures were published there.
        const internal = 'http://10.0.0.5:3000/files';
        const org = await createTestOrganization({
          services: {
            database: cdnApp.services.database,
            storage: {
              put: (key, body, options) => cdnApp.services.storage.put(key, body, options),
              get: (key) => cdnApp.services.storage.get(key),
              delete: (key) => cdnApp.services.storage.delete(key),
              publicUrl: (key) => `${internal}/${key}`,
            },
          },
        });
        const headers = await signInAs(cdnApp, org.admin);
        const workspace = `/api/v1/workspaces/${org.workspaceId}`;
        const inject = (method: Method, url: string, payload?: object) =>
          cdnApp.inject({ method, url, headers, ...(payload ? { payload } : {}) });
        const systems = (await inject('GET', `${workspace}/email_design_systems`)).json();
        const systemId = systems.results.find(
          (system: { name: string }) => system.name === 'Letterset Starter',
        ).id;
        const components = (
          await inject('GET', `${workspace}/email_design_systems/${systemId}/components?per=100`)
        ).json().results as {
          name: string;
          id: number;
          field_definitions: { liquid_variable: string; default_value?: unknown }[];
        }[];
        const imageComponent = components.find((component) => component.name === 'image');
        const starterPicture = String(
          imageComponent?.field_definitions.find((field) => field.liquid_variable === 'image_url')
            ?.default_value,
        );
        expect(starterPicture).toBe(`${internal}/starter-images/image.png`);
        const team = (
          await inject('POST', '/api/v1/teams', {
            name: 'Team',
            workspace_id: org.workspaceId,
            badge_color: 'red',
          })
        ).json();
        await inject('POST', `/api/v1/teams/${team.id}/users`, { user_id: org.admin.id });
        const project = (
          await inject('POST', `${workspace}/projects`, { name: 'P', team_id: team.id })
        ).json();
        const form = new FormData();
        form.append('name', 'Flowers');
        form.append(
          'file',
          new Blob([new Uint8Array(await solidImage(16, 8).png().toBuffer())], { type: 'image/png' }),
          'flowers.png',
        );
        const picture = (
          await cdnApp.inject({ method: 'POST', url: `${workspace}/images`, headers, payload: form })
        ).json();
        expect(picture.public_url).toBe(`${publicBase}/images/${org.organizationId}/${picture.id}.png`);
        const created = (
          await inject('POST', `${workspace}/emails`, {
            name: 'CDN',
            email_design_system_id: systemId,
            project_id: project.id,
          })
        ).json();
        const instance = (url: string) => ({
          id: randomUUID(),
          component_id: imageComponent?.id,
          field_values: {
            null_branch: { 'en-US': { image_url: { value: url }, image_alt: { value: 'Picture' } } },
          },
        });
        const patched = await inject('PATCH', `${workspace}/emails/${created.id}`, {
          email_content: {
            ...created.email_content,
            component_instances: [
              instance(starterPicture),
              instance(picture.public_url),
              // The same library picture by the address it had on the internal server.
              instance(`${internal}/images/${org.organizationId}/${picture.id}.png`),
            ],
          },
        });
        expect(patched.statusCode, patched.body).toBe(200);
        const started = await inject('POST', `${workspace}/exports`, {
          email_id: created.id,
          export_type: 'json',
          options: { locales: ['en-US'], image_mode: 'use_cdn' },
        });
        expect(started.statusCode, started.body).toBe(200);
        let finished = started.json();
        for (let tries = 0; finished.status === 'in_progress' && tries < 300; tries += 1) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          finished = (await inject('GET', `${workspace}/exports/${finished.id}`)).json();
        }
        expect(finished.status, JSON.stringify(finished.export_errors)).toBe('completed');
        const html = (await inject('GET', `${workspace}/exports/${finished.id}/export_data`)).json()
          .outputs[0].html as string;
        expect(html).not.toContain(internal);
        expect(html).not.toContain('localhost');
        expect(new Set(picturesIn(html))).toEqual(
          new Set([
            `${publicBase}/starter-images/image.png`,
            `${publicBase}/images/${org.organizationId}/${picture.id}.png`,
          ]),
        );
        // The public base serves the starter's picture: it is in this storage.
        expect(await cdnApp.services.storage.get('starter-images/image.png')).not.toBeNull();
      } finally {
        await cdnApp.close();
      }
    });
  });

  describe('json export', () => {
    it('answers export data with absolute library image URLs, and downloads as JSON', async () => {
      const email = await createEmail();
      const started = await startExport({
        email_id: email.id,
        export_type: 'json',
        options: {
          locales: ['de-DE', 'en-US'],
          per_locale_options: { 'de-DE': { resource_name: 'Frühling DE' } },
        },
      });
      expect(started.statusCode, started.body).toBe(200);
      const notYet = await call('GET', `${base}/exports/${started.json().id}/export_data`);
      expect([200, 422]).toContain(notYet.statusCode);
      const finished = await waitForExport(started.json().id);
      expect(finished.status).toBe('completed');
      const data = (await call('GET', `${base}/exports/${finished.id}/export_data`)).json();
      expect(data.email_name).toBe('Spring sale');
      expect(data.email_id).toBe(email.id);
      expect(
        data.outputs.map((output: { locale: string; name: string }) => [output.locale, output.name]),
      ).toEqual([
        ['de-DE', 'Frühling DE'],
        ['en-US', 'Spring sale (en-US)'],
      ]);
      expect(data.outputs[0]).toMatchObject({
        email_id: email.id,
        subject: 'Frühlingsangebot',
        preheader: 'Nur zehn Tage',
      });
      expect(Object.keys(data.outputs[0]).sort()).toEqual([
        'email_id',
        'html',
        'locale',
        'name',
        'plain_text',
        'preheader',
        'subject',
      ]);
      expect(data.outputs[1].html).toContain(`src="${image.public_url}"`);
      expect(data.outputs[1].plain_text).toContain('Find out more [https://example.com/spring]');

      const file = await download(finished.download_json_url);
      expect(file.headers['content-type']).toBe('application/json');
      expect(file.json()).toEqual(data);
    });

    it('compiles dynamic content for the chosen profile, and resolves defaults without one', async () => {
      const profile = (
        await call('POST', `${base}/dynamic_content_profiles`, admin, { name: 'Platform' })
      ).json();
      const tag = (
        await call('POST', `${base}/personalization_tags`, admin, {
          label: 'First name',
          default_value: 'friend',
          example_value: 'Ada',
          dynamic_content_profile_values: { [profile.id]: '{{ first_name }}' },
        })
      ).json();
      const conditional = (
        await call('POST', `${base}/conditionals`, admin, {
          label: 'Members',
          branches: [
            { key: 'member', label: 'Member' },
            { key: 'guest', label: 'Guest' },
          ],
          default_value: {
            closing: '<!-- end -->',
            branch_values: { member: '<!-- member -->', guest: '<!-- guest -->' },
          },
          dynamic_content_profile_values: {
            [profile.id]: {
              closing: '{% endif %}',
              branch_values: { member: '{% if member %}', guest: '{% else %}' },
            },
          },
        })
      ).json();
      const heading = (text: string) => ({ text: { value: text } });
      const email = await createEmail([
        {
          id: randomUUID(),
          component_id: starter.components.heading,
          conditional_id: conditional.id,
          field_values: {
            member: {
              'en-US': heading(`Welcome back {tag:${tag.id}}`),
              'de-DE': heading('Willkommen zurück'),
            },
            guest: { 'en-US': heading('Join us'), 'de-DE': heading('Mach mit') },
          },
        },
      ]);
      const exportWith = async (profileId: string | null) => {
        const started = await startExport({
          email_id: email.id,
          export_type: 'json',
          dynamic_content_profile_id: profileId,
          options: { locales: ['en-US'] },
        });
        expect(started.statusCode, started.body).toBe(200);
        expect(started.json().metadata).toMatchObject({
          conditional_ids: [conditional.id],
          personalization_tag_ids: [tag.id],
        });
        const finished = await waitForExport(started.json().id);
        return (await call('GET', `${base}/exports/${finished.id}/export_data`)).json().outputs[0]
          .html as string;
      };
      const compiled = await exportWith(profile.id);
      expect(compiled).toMatch(
        /\{% if member %\}[\s\S]*Welcome back \{\{ first_name \}\}[\s\S]*\{% else %\}[\s\S]*Join us[\s\S]*\{% endif %\}/,
      );
      // Without a profile: the default branch only (the last, guest), in no syntax.
      const defaults = await exportWith(null);
      expect(defaults).toContain('Join us');
      expect(defaults).not.toContain('Welcome back');
      expect(defaults).not.toContain('<!-- member -->');
      expect(defaults).not.toContain('<!-- guest -->');

      const unknownProfile = await startExport({
        email_id: email.id,
        export_type: 'json',
        dynamic_content_profile_id: 'no-such-profile',
        options: { locales: ['en-US'] },
      });
      expect(unknownProfile.statusCode).toBe(422);
      expect(unknownProfile.json().errors).toEqual({
        dynamic_content_profile_id: ['is not a dynamic content profile of this workspace'],
      });
    });
  });

  describe('dynamic content per audience', () => {
    /** A Hero for two audiences, "Gold members" and "Everyone else", in both locales. */
    const membershipHero = (conditionalId: number, goldButtonUrl = 'https://example.com/gold') => {
      const values = (headline: string, button_url: string) => ({
        headline: { value: headline },
        image_url: { value: image.public_url },
        image_alt: { value: 'Flowers' },
        button_url: { value: button_url },
      });
      return {
        id: randomUUID(),
        component_id: starter.components.hero as number,
        conditional_id: conditionalId,
        field_values: {
          gold: {
            'en-US': values('Gold members save 30%', goldButtonUrl),
            'de-DE': values('Goldmitglieder sparen 30%', goldButtonUrl),
          },
          else: {
            'en-US': values('Spring is here for everyone', 'https://example.com/spring'),
            'de-DE': values('Frühling für alle', 'https://example.com/spring'),
          },
        },
      };
    };
    /** Made with the preset picker, with an empty default syntax: the issue's reproduction. */
    async function membershipConditional() {
      const braze = (
        await call('POST', `${base}/dynamic_content_profiles`, admin, {
          name: 'Braze',
          template_engine_preset: 'liquid',
        })
      ).json();
      const plain = (
        await call('POST', `${base}/dynamic_content_profiles`, admin, { name: 'Plain ESP' })
      ).json();
      const created = await call('POST', `${base}/conditionals`, admin, {
        label: 'Membership',
        branches: [
          { key: 'gold', label: 'Gold members' },
          { key: 'else', label: 'Everyone else' },
        ],
        default_value: { closing: '', branch_values: { gold: '', else: '' } },
        dynamic_content_profile_values: {
          [braze.id]: {
            uses_ui_picker: true,
            ui_picker_state: {
              include_else_branch: true,
              branches: {
                gold: {
                  conditions: [{ attribute: 'tier', type: 'string', operator: 'equals', value: 'gold' }],
                },
              },
            },
          },
        },
      });
      expect(created.statusCode, created.body).toBe(200);
      return { conditional: created.json(), braze, plain };
    }

    async function zippedHtml(emailId: number, profileId: string | null) {
      const started = await startExport({
        email_id: emailId,
        export_type: 'html',
        dynamic_content_profile_id: profileId,
        options: { locales: ['en-US'] },
      });
      expect(started.statusCode, started.body).toBe(200);
      const finished = await waitForExport(started.json().id);
      expect(finished.status, JSON.stringify(finished.export_errors)).toBe('completed');
      const files = unzipSync(new Uint8Array((await download(finished.download_zip_url)).rawPayload));
      return strFromU8(files['en-US/index.html'] as Uint8Array);
    }

    it('exports one branch without a profile, every branch in a profile’s syntax, and refuses a profile without one', async () => {
      const { conditional, braze, plain } = await membershipConditional();
      const email = await createEmail([membershipHero(conditional.id)]);

      // "None: resolve to default values": the default branch (the last, Everyone else), nothing stacked.
      const resolved = await zippedHtml(email.id, null);
      expect(resolved).toContain('Spring is here for everyone');
      expect(resolved).not.toContain('Gold members save 30%');
      expect(resolved).not.toContain('{%');

      const compiled = await zippedHtml(email.id, braze.id);
      expect(compiled).toMatch(
        /\{% if tier == "gold" %\}[\s\S]*Gold members save 30%[\s\S]*\{% else %\}[\s\S]*Spring is here for everyone[\s\S]*\{% endif %\}/,
      );

      const before = await app.services.database.db.select().from(exports);
      const refused = await startExport({
        email_id: email.id,
        export_type: 'html',
        dynamic_content_profile_id: plain.id,
        options: { locales: ['en-US'] },
      });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().errors.checks).toEqual([
        expect.stringMatching(
          /conditional “Membership” has no syntax for the dynamic content profile “Plain ESP”/,
        ),
      ]);
      expect(await app.services.database.db.select().from(exports)).toHaveLength(before.length);
      const checks = (
        await call(
          'GET',
          `${base}/emails/${email.id}/checks?locale=en-US&dynamic_content_profile_id=${plain.id}`,
        )
      ).json();
      expect(checks.ready).toBe(false);
      expect(checks.problems).toContainEqual(
        expect.objectContaining({
          code: 'missing_conditional_syntax',
          severity: 'blocking',
          locale: null,
          conditional_id: conditional.id,
        }),
      );

      // The conditional's chosen default branch is what a profile-less export holds.
      const chosen = await call('PATCH', `${base}/conditionals/${conditional.id}`, admin, {
        default_branch_key: 'gold',
      });
      expect(chosen.statusCode, chosen.body).toBe(200);
      const gold = await zippedHtml(email.id, null);
      expect(gold).toContain('Gold members save 30%');
      expect(gold).not.toContain('Spring is here for everyone');
    });

    it('checks each audience: a broken link in one branch is told with that branch', async () => {
      const { conditional, braze } = await membershipConditional();
      const email = await createEmail([membershipHero(conditional.id, 'javascript:alert(1)')]);
      const links = (profileId?: string) =>
        call(
          'GET',
          `${base}/emails/${email.id}/checks${profileId ? `?dynamic_content_profile_id=${profileId}` : ''}`,
        )
          .then((response) => response.json())
          .then((result) =>
            result.problems
              .filter((problem: { code: string }) => problem.code === 'unsupported_link')
              .map((problem: { locale: string; branch: string; conditional_id?: number }) => [
                problem.locale,
                problem.branch,
                problem.conditional_id,
              ]),
          );
      // The file of an export without a profile holds Everyone else only; the Gold audience is checked all the same.
      expect(await links()).toEqual([
        ['en-US', 'gold', conditional.id],
        ['de-DE', 'gold', conditional.id],
      ]);
      expect(await links(braze.id)).toEqual([
        ['en-US', 'gold', conditional.id],
        ['de-DE', 'gold', conditional.id],
      ]);
      const refused = await startExport({
        email_id: email.id,
        export_type: 'html',
        options: { locales: ['en-US'] },
      });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().errors['checks.en-US']).toContain(
        'The link "javascript:alert(1)" is not an http(s) or mailto: link',
      );
    });
  });

  describe('pdf export', () => {
    it.skipIf(!hasChromium)(
      'prints one page per locale',
      async () => {
        const email = await createEmail();
        const started = await startExport({
          email_id: email.id,
          export_type: 'pdf',
          options: { locales: ['en-US', 'de-DE'] },
        });
        expect(started.statusCode, started.body).toBe(200);
        const finished = await waitForExport(started.json().id);
        expect(finished).toMatchObject({
          status: 'completed',
          export_errors: {},
          progress: { locales_done: 2 },
        });
        const file = await download(finished.download_pdf_url);
        expect(file.headers['content-type']).toBe('application/pdf');
        const bytes = file.rawPayload;
        expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
        expect((await PDFDocument.load(bytes)).getPageCount()).toBe(2);
        if (hasPdfToText) {
          const folder = await mkdtemp(path.join(tmpdir(), 'letterset-pdf-'));
          const pdfPath = path.join(folder, 'export.pdf');
          await writeFile(pdfPath, bytes);
          const pages = execFileSync('pdftotext', ['-layout', pdfPath, '-'], { encoding: 'utf8' }).split(
            '\f',
          );
          expect(pages[0]).toContain('en-US · Spring sale');
          expect(pages[0]).toContain('Spring is here');
          expect(pages[1]).toContain('de-DE · Frühlingsangebot');
          expect(pages[1]).toContain('Der Frühling ist da');
        }
      },
      60_000,
    );

    it('fails with a message saying so when Chromium is missing, and other exports still work', async () => {
      const database = await createTestDatabase();
      const noChromium = await buildTestApp({
        database,
        config: { runJobWorkers: false, chromiumPath: '/nonexistent/chromium' },
      });
      try {
        const org = await createTestOrganization(noChromium);
        const headers = await signInAs(noChromium, org.admin);
        const workspace = `/api/v1/workspaces/${org.workspaceId}`;
        const systems = (
          await noChromium.inject({ method: 'GET', url: `${workspace}/email_design_systems`, headers })
        ).json();
        const team = (
          await noChromium.inject({
            method: 'POST',
            url: '/api/v1/teams',
            headers,
            payload: { name: 'Team', workspace_id: org.workspaceId, badge_color: 'red' },
          })
        ).json();
        await noChromium.inject({
          method: 'POST',
          url: `/api/v1/teams/${team.id}/users`,
          headers,
          payload: { user_id: org.admin.id },
        });
        const project = (
          await noChromium.inject({
            method: 'POST',
            url: `${workspace}/projects`,
            headers,
            payload: { name: 'P', team_id: team.id },
          })
        ).json();
        const email = (
          await noChromium.inject({
            method: 'POST',
            url: `${workspace}/emails`,
            headers,
            payload: { name: 'Plain', email_design_system_id: systems.results[0].id, project_id: project.id },
          })
        ).json();
        const started = (
          await noChromium.inject({
            method: 'POST',
            url: `${workspace}/exports`,
            headers,
            payload: { email_id: email.id, export_type: 'pdf', options: { locales: ['en-US'] } },
          })
        ).json();
        expect(await runExport(noChromium.services, started.id, new AbortController().signal)).toBe('failed');
        const failed = (
          await noChromium.inject({ method: 'GET', url: `${workspace}/exports/${started.id}`, headers })
        ).json();
        expect(failed).toMatchObject({
          status: 'failed',
          download_pdf_url: null,
          export_errors: {
            base: [
              "PDF exports need Chromium, and there is none at /nonexistent/chromium: install Debian's chromium package, or set CHROMIUM_PATH",
            ],
          },
        });
        const download = await noChromium.inject({
          method: 'GET',
          url: `${workspace}/exports/${started.id}/download`,
          headers,
        });
        expect(download.statusCode).toBe(422);
        expect(download.json().errors).toEqual({ status: ['is failed: the export has no file'] });
      } finally {
        await noChromium.close();
      }
    });
  });

  describe('refusals', () => {
    it('needs create_exports to start one, and only workspace access to read them', async () => {
      const email = await createEmail();
      const withoutKey = await memberWith(['update_emails']);
      const refused = await startExport(
        { email_id: email.id, export_type: 'json', options: { locales: ['en-US'] } },
        withoutKey,
      );
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({
        code: 'permission_denied',
        message: 'You need the create_exports permission to do this',
      });
      const list = await call('GET', `${base}/exports?per=2`, withoutKey);
      expect(list.statusCode).toBe(200);
      expect(list.json().pagination).toMatchObject({ per: 2, page: 1 });
      expect(list.json().pagination.total).toBeGreaterThan(0);

      const exporter = await memberWith(['create_exports']);
      const accepted = await startExport(
        { email_id: email.id, export_type: 'json', options: { locales: ['en-US'] } },
        exporter,
      );
      expect(accepted.statusCode, accepted.body).toBe(200);
    });

    it('answers 422 naming the field for what the export cannot do', async () => {
      const email = await createEmail();
      const cases: [object, Record<string, string[]>][] = [
        [
          { export_type: 'connector', connector_id: 1, options: { locales: ['en-US'] } },
          { email_id: ['is draft: connector exports need a published email (file exports take any status)'] },
        ],
        [
          { export_type: 'json', connector_id: 1, options: { locales: ['en-US'] } },
          { connector_id: ['is only for connector exports'] },
        ],
        [
          { export_type: 'html', options: { locales: ['en-US', 'fr-FR', 'ja-JP'] } },
          { 'options.locales': ['fr-FR, ja-JP are not locales of this email'] },
        ],
        [
          { export_type: 'json', options: { locales: ['en-US'], image_mode: 'include_in_zip' } },
          {
            'options.image_mode': [
              'include_in_zip is for html exports (the images go in the zip); use use_cdn',
            ],
          },
        ],
        [
          {
            export_type: 'json',
            options: { locales: ['en-US'], per_locale_options: { 'de-DE': { resource_name: 'x' } } },
          },
          { 'options.per_locale_options': ['names locales the export does not include: de-DE'] },
        ],
        [{ export_type: 'zip', options: { locales: ['en-US'] } }, { export_type: expect.any(Array) }],
        [{ export_type: 'html', options: { locales: [] } }, { 'options.locales': expect.any(Array) }],
        [{ export_type: 'html' }, { options: expect.any(Array) }],
      ];
      for (const [payload, errors] of cases) {
        const response = await startExport({ email_id: email.id, ...payload });
        expect(response.statusCode, JSON.stringify(payload)).toBe(422);
        expect(response.json().errors, JSON.stringify(payload)).toEqual(errors);
      }
      expect(
        (await startExport({ email_id: 2_000_000_000, export_type: 'html', options: { locales: ['en-US'] } }))
          .statusCode,
      ).toBe(404);
    });

    it('keeps export data to json exports and to completed ones', async () => {
      const email = await createEmail();
      const html = (
        await startExport({ email_id: email.id, export_type: 'html', options: { locales: ['en-US'] } })
      ).json();
      const data = await call('GET', `${base}/exports/${html.id}/export_data`);
      expect(data.statusCode).toBe(422);
      expect(data.json().errors).toEqual({ export_type: ['is html: export data is kept for json exports'] });
      expect((await call('GET', `${base}/exports/999999`)).statusCode).toBe(404);
    });

    it('exports an email of any status, recording the status it was made from', async () => {
      const email = await createEmail();
      await call('POST', `${base}/emails/${email.id}/publish`, admin, { force: true });
      const started = await startExport({
        email_id: email.id,
        export_type: 'json',
        options: { locales: ['en-US'] },
      });
      expect(started.json().email.status).toBe('published');
      const listed = (await call('GET', `${base}/exports?email_id=${email.id}`)).json();
      expect(listed.results.map((entry: { id: number }) => entry.id)).toEqual([started.json().id]);
    });
  });

  describe('connector export', () => {
    const createConnector = async (apiKey: string) => {
      const response = await call('POST', `${base}/connectors`, admin, {
        name: `Iterable ${randomUUID()}`,
        integration_name: 'iterable',
        settings: { api_key: apiKey, region: 'us' },
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json() as { id: number };
    };
    const publishedEmail = async () => {
      const email = await createEmail();
      const published = await call('POST', `${base}/emails/${email.id}/publish`, admin, { force: true });
      expect(published.statusCode, published.body).toBe(200);
      return email;
    };

    it('pushes each locale to Iterable as a template, and updates the same ones when asked', async () => {
      const connector = await createConnector(iterableKey);
      const email = await publishedEmail();
      const before = iterable.templates(iterableKey).length;
      const started = await startExport({
        email_id: email.id,
        export_type: 'connector',
        connector_id: connector.id,
        options: { locales: ['en-US', 'de-DE'] },
      });
      expect(started.statusCode, started.body).toBe(200);
      const finished = await waitForExport(started.json().id);
      expect(finished).toMatchObject({
        status: 'completed',
        export_type: 'connector',
        connector_id: connector.id,
        integration_name: 'iterable',
        export_errors: {},
      });
      expect(finished.open_in_integration_url).toMatch(/^https:\/\//);
      const made = iterable.templates(iterableKey).slice(before);
      expect(made).toHaveLength(2);
      // The history names the platform, and per locale the template the export made there.
      expect(finished.platform).toBe('Iterable');
      const templateIdOf = (name: string) =>
        String(made.find((template) => [...template.content.values()][0]?.name === name)?.templateId);
      expect(finished.delivered_resources).toEqual({
        'en-US': {
          external_id: templateIdOf('Spring sale (en-US)'),
          resource_name: 'Spring sale (en-US)',
          updated: false,
          open_url: `https://app.iterable.com/templates/editor?templateId=${templateIdOf('Spring sale (en-US)')}`,
        },
        'de-DE': {
          external_id: templateIdOf('Spring sale (de-DE)'),
          resource_name: 'Spring sale (de-DE)',
          updated: false,
          open_url: `https://app.iterable.com/templates/editor?templateId=${templateIdOf('Spring sale (de-DE)')}`,
        },
      });
      const contentOf = (template: (typeof made)[number]) => [...template.content.values()];
      const german = made.find((template) => contentOf(template)[0]?.name === 'Spring sale (de-DE)');
      // One template per locale: its content is the template's only content.
      const germanContent = german ? contentOf(german) : [];
      expect(germanContent).toHaveLength(1);
      expect(germanContent[0]).toMatchObject({ subject: 'Frühlingsangebot', preheaderText: 'Nur zehn Tage' });
      expect(String(germanContent[0]?.html)).toContain('Der Frühling ist da');

      // Again, updating what the last export made: no new template, new content.
      const again = await startExport({
        email_id: email.id,
        export_type: 'connector',
        connector_id: connector.id,
        options: {
          locales: ['de-DE'],
          per_locale_options: { 'de-DE': { resource_name: 'Frühling', update_previous_export: true } },
        },
      });
      const updated = await waitForExport(again.json().id);
      expect(updated.status).toBe('completed');
      expect(updated.delivered_resources).toEqual({
        'de-DE': expect.objectContaining({
          external_id: finished.delivered_resources['de-DE'].external_id,
          resource_name: 'Frühling',
          updated: true,
        }),
      });
      const after = iterable.templates(iterableKey).slice(before);
      expect(after).toHaveLength(2);
      expect(after.map((template) => contentOf(template)[0]?.name)).toContain('Frühling');
    });

    it('fails with the platform’s refusal for each locale when the key is refused', async () => {
      const connector = await createConnector('itbl_unknown_key_00000000000000');
      const email = await publishedEmail();
      const started = await startExport({
        email_id: email.id,
        export_type: 'connector',
        connector_id: connector.id,
        options: { locales: ['en-US', 'de-DE'] },
      });
      const finished = await waitForExport(started.json().id);
      expect(finished.status).toBe('failed');
      expect(Object.keys(finished.export_errors).sort()).toEqual(['de-DE', 'en-US']);
      expect(finished.export_errors['en-US'][0]).toMatch(/key/i);
      expect(finished.delivered_resources).toEqual({});
      expect(finished.platform).toBe('Iterable');
    });

    it('refuses a missing connector, or one that is not the workspace’s', async () => {
      const email = await publishedEmail();
      const missing = await startExport({
        email_id: email.id,
        export_type: 'connector',
        options: { locales: ['en-US'] },
      });
      expect(missing.json().errors).toEqual({ connector_id: ['is required for connector exports'] });
      const unknown = await startExport({
        email_id: email.id,
        export_type: 'connector',
        connector_id: 2_000_000,
        options: { locales: ['en-US'] },
      });
      expect(unknown.statusCode).toBe(422);
      expect(unknown.json().errors).toEqual({ connector_id: ['is not a connector of this workspace'] });
    });
  });

  describe('the job', () => {
    it('starts over after an interruption, and an export whose job has died is failed when read', async () => {
      const email = await createEmail();
      const id = (
        await startExport({
          email_id: email.id,
          export_type: 'html',
          options: { locales: ['en-US', 'de-DE'] },
        })
      ).json().id;
      await waitForExport(id);
      // A second run of a finished export changes nothing.
      expect(await runExport(app.services, id, new AbortController().signal)).toBe('already_finished');

      const aborted = new AbortController();
      aborted.abort(new Error('shutting down'));
      const [row] = await app.services.database.db
        .insert(exports)
        .values({
          organizationId: organization.organizationId,
          workspaceId: organization.workspaceId,
          emailId: email.id,
          emailName: 'Spring sale',
          emailStatus: 'draft',
          exportType: 'json',
          options: { locales: ['en-US'] },
          metadata: { conditional_ids: [], personalization_tag_ids: [], image_ids: [] },
          localesTotal: 1,
          localesDone: 1,
          jobId: randomUUID(),
        })
        .returning();
      if (!row) throw new Error('no row');
      await expect(runExport(app.services, row.id, aborted.signal)).rejects.toThrow('shutting down');
      const interrupted = (await app.services.database.db.select().from(exports)).find(
        (candidate) => candidate.id === row.id,
      );
      expect(interrupted).toMatchObject({ status: 'in_progress', localesDone: 0, fileKey: null });

      // Its job id names no job: read, it is failed rather than left in progress.
      const read = (await call('GET', `${base}/exports/${row.id}`)).json();
      expect(read).toMatchObject({
        status: 'failed',
        export_errors: { base: ['The export job stopped; start the export again'] },
      });
      expect(await runExport(app.services, row.id, new AbortController().signal)).toBe('already_finished');
    });
  });
});
