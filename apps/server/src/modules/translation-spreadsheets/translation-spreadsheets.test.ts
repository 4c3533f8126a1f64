import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createStarterProject,
  createTestOrganization,
  createTestUser,
  signInAs,
  type TestOrganization,
} from '../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../test/harness.ts';
import { xliffText } from './translation-xliff.ts';

type Headers = Record<string, string>;

const bom = '\uFEFF';
const headingId = '11111111-1111-4111-8111-111111111111';
const bodyId = '22222222-2222-4222-8222-222222222222';
const buttonId = '33333333-3333-4333-8333-333333333333';
const containerId = '44444444-4444-4444-8444-444444444444';

/** Rich text with what CSV and XML must both carry exactly: quotes, commas, markup, CR LF, non-ASCII. */
const richBody = '<p>Say "hi", friends &amp; family</p>\r\n<p>Ünïcödé 🌞</p>';

describe('translation spreadsheets', () => {
  let app: TestApp;
  let organization: TestOrganization;
  let admin: Headers;
  let base: string;
  let teamId: number;
  let projectId: number;
  let starter: { id: number; components: Record<string, number> };

  const url = (emailId: number, query = '') =>
    `${base}/emails/${emailId}/translation_spreadsheets${query ? `?${query}` : ''}`;
  const upload = (
    emailId: number,
    file: string | Uint8Array,
    options: { field?: string; query?: string; headers?: Headers; name?: string } = {},
  ) => {
    const form = new FormData();
    const bytes = typeof file === 'string' ? new TextEncoder().encode(file) : file;
    form.append(
      options.field ?? 'csv_file',
      new Blob([new Uint8Array(bytes)]),
      options.name ?? 'translations.csv',
    );
    return app.inject({
      method: 'POST',
      url: url(emailId, options.query),
      headers: options.headers ?? admin,
      payload: form,
    });
  };
  const getEmail = async (emailId: number) =>
    (await app.inject({ method: 'GET', url: `${base}/emails/${emailId}`, headers: admin })).json();
  const versionCount = async (emailId: number) =>
    (await app.inject({ method: 'GET', url: `${base}/emails/${emailId}/versions`, headers: admin })).json()
      .pagination.total;

  /** An email in en-US, fr-FR and de-DE: a heading, a rich text and a button, partly translated. */
  async function createEmail(name = 'Spring sale') {
    const created = await app.inject({
      method: 'POST',
      url: `${base}/emails`,
      headers: admin,
      payload: {
        name,
        email_design_system_id: starter.id,
        project_id: projectId,
        locales: ['en-US', 'fr-FR', 'de-DE'],
      },
    });
    const email = created.json();
    const content = {
      subject: {
        branch_content: { null_branch: { 'en-US': 'Summer, at last', 'fr-FR': 'Été 🌞', 'de-DE': '' } },
      },
      preheader: { branch_content: { null_branch: { 'en-US': 'Ten days only', 'fr-FR': '', 'de-DE': '' } } },
      container_component_instance: {
        id: containerId,
        component_id: starter.components.container,
        field_values: {},
      },
      component_instances: [
        {
          id: headingId,
          component_id: starter.components.heading,
          field_values: {
            null_branch: {
              'en-US': { text: { value: 'Hello, "world"' } },
              'fr-FR': { text: { value: 'Bonjour, « monde »' } },
            },
          },
        },
        {
          id: bodyId,
          name: 'Intro',
          component_id: starter.components.rich_text,
          field_values: { null_branch: { 'en-US': { body: { value: richBody } } } },
        },
        {
          id: buttonId,
          component_id: starter.components.button,
          field_values: {
            null_branch: {
              'en-US': { text: { value: 'Shop' }, url: { value: 'https://example.com/' } },
              'de-DE': { text: { value: 'Kaufen' }, url: { value: 'https://example.com/de' } },
            },
          },
        },
      ],
    };
    const patched = await app.inject({
      method: 'PATCH',
      url: `${base}/emails/${email.id}`,
      headers: admin,
      payload: { email_content: content, lock_version: email.lock_version },
    });
    if (patched.statusCode !== 200) throw new Error(`PATCH failed: ${patched.body}`);
    return patched.json() as { id: number; lock_version: number; email_content: typeof content };
  }

  beforeAll(async () => {
    app = await buildTestApp();
    organization = await createTestOrganization(app);
    admin = await signInAs(app, organization.admin);
    base = `/api/v1/workspaces/${organization.workspaceId}`;
    ({ starter, teamId, projectId } = await createStarterProject(app, organization, admin, {
      team: 'Localization team',
      project: 'Seasonal',
    }));
  });
  afterAll(() => app.close());

  describe('CSV export', () => {
    it('is UTF-8 with a BOM, CRLF and RFC 4180 quoting, one row per translatable value', async () => {
      const email = await createEmail();
      const response = await app.inject({ method: 'GET', url: url(email.id), headers: admin });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(response.headers['content-disposition']).toBe(
        `attachment; filename="Spring sale-translations.csv"; filename*=UTF-8''Spring%20sale-translations.csv`,
      );
      const bytes = response.rawPayload;
      expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      expect(bytes.toString('utf8')).toBe(
        [
          `${bom}key,component,field,en-US,fr-FR,de-DE`,
          'subject.null_branch,Subject,Subject,"Summer, at last",Été 🌞,',
          'preheader.null_branch,Preheader,Preheader,Ten days only,,',
          `${containerId}.logo_alt.null_branch,Email,Logo description,Letterset,,`,
          `${containerId}.footer_address.null_branch,Email,Footer address,"Letterset, 1 Example Street, Springfield",,`,
          `${headingId}.text.null_branch,Heading,Text,"Hello, ""world""","Bonjour, « monde »",`,
          `${bodyId}.body.null_branch,Intro,Text,"<p>Say ""hi"", friends &amp; family</p>\r\n<p>Ünïcödé 🌞</p>",,`,
          `${buttonId}.text.null_branch,Button,Text,Shop,,Kaufen`,
          '',
        ].join('\r\n'),
      );
    });

    it('names the file after the email, even when the name has quotes or letters a header cannot carry', async () => {
      const email = await createEmail('Soldes "été" 2026');
      const response = await app.inject({ method: 'GET', url: url(email.id), headers: admin });
      expect(response.headers['content-disposition']).toBe(
        `attachment; filename="Soldes __t__ 2026-translations.csv"; filename*=UTF-8''Soldes%20%22%C3%A9t%C3%A9%22%202026-translations.csv`,
      );
    });
  });

  describe('CSV import', () => {
    it('round trips: one changed cell changes exactly that value in that locale, as one new version', async () => {
      const email = await createEmail();
      const versionsBefore = await versionCount(email.id);
      const exported = (await app.inject({ method: 'GET', url: url(email.id), headers: admin })).body;
      const records = parse(exported, { bom: true }) as string[][];
      const heading = records.find((record) => record[0] === `${headingId}.text.null_branch`);
      if (!heading) throw new Error('no heading row');
      heading[5] = 'Hallo, „Welt“';
      const response = await upload(
        email.id,
        stringify(records, { bom: true, record_delimiter: 'windows', quoted_match: /[\r\n]/ }),
      );
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({
        changed: { 'fr-FR': 0, 'de-DE': 1 },
        // fr-FR: the subject and the heading, as exported; de-DE: the button.
        unchanged: { 'fr-FR': 2, 'de-DE': 1 },
        skipped: { 'fr-FR': 5, 'de-DE': 5 },
        lock_version: email.lock_version + 1,
      });

      const after = await getEmail(email.id);
      expect(after.lock_version).toBe(email.lock_version + 1);
      const expected = structuredClone(email.email_content);
      const headingValues = expected.component_instances[0]?.field_values.null_branch as unknown as Record<
        string,
        object
      >;
      // The text the translator wrote is marked translated; the cells as exported are left as they were.
      headingValues['de-DE'] = { text: { value: 'Hallo, „Welt“', translation_status: 'translated' } };
      expect(after.email_content).toEqual(expected);
      expect(await versionCount(email.id)).toBe(versionsBefore + 1);
    });

    it('writes no version when nothing changed', async () => {
      const email = await createEmail();
      const versionsBefore = await versionCount(email.id);
      const exported = (await app.inject({ method: 'GET', url: url(email.id), headers: admin })).rawPayload;
      const response = await upload(email.id, exported);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        changed: { 'fr-FR': 0, 'de-DE': 0 },
        lock_version: email.lock_version,
      });
      expect(await versionCount(email.id)).toBe(versionsBefore);
    });

    it('reads files saved without a BOM, with LF line ends, semicolons and lower-case locale columns', async () => {
      const email = await createEmail();
      const file = [
        'KEY;fr-fr',
        `${buttonId}.text.null_branch;Acheter`,
        `${bodyId}.body.null_branch;"<p>Salut;\n tout le monde</p>"`,
        '',
      ].join('\n');
      const response = await upload(email.id, file);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().changed).toEqual({ 'fr-FR': 2 });
      const after = await getEmail(email.id);
      expect(after.email_content.component_instances[1].field_values.null_branch['fr-FR']).toEqual({
        body: { value: '<p>Salut;\n tout le monde</p>', translation_status: 'translated' },
      });
    });

    it('writes onto the current content, under the row lock: an edit made after the download is kept', async () => {
      const email = await createEmail();
      const exported = (await app.inject({ method: 'GET', url: url(email.id), headers: admin })).body;
      const content = structuredClone(email.email_content);
      content.subject.branch_content.null_branch['en-US'] = 'Summer is here';
      const patched = await app.inject({
        method: 'PATCH',
        url: `${base}/emails/${email.id}`,
        headers: admin,
        payload: { email_content: content, lock_version: email.lock_version },
      });
      expect(patched.statusCode).toBe(200);
      const records = parse(exported, { bom: true }) as string[][];
      const preheader = records.find((record) => record[0] === 'preheader.null_branch');
      if (!preheader) throw new Error('no preheader row');
      preheader[5] = 'Nur zehn Tage';
      const response = await upload(email.id, stringify(records, { record_delimiter: 'windows' }));
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().lock_version).toBe(email.lock_version + 2);
      const after = await getEmail(email.id);
      expect(after.email_content.subject.branch_content.null_branch['en-US']).toBe('Summer is here');
      expect(after.email_content.preheader.branch_content.null_branch['de-DE']).toBe('Nur zehn Tage');
    });

    it('refuses the whole file, naming each row and column, and writes nothing', async () => {
      const email = await createEmail();
      const file = [
        'key,component,field,en-US,fr-FR,de-DE',
        `${headingId}.text.null_branch,Heading,Text,ignored,Titre,${'x'.repeat(101)}`,
        `${buttonId}.text.null_branch,Button,Label,ignored,   ,Kaufen jetzt`,
        `${headingId}.nothing.null_branch,,,,Rien,`,
        'not-a-key,,,,Rien,',
        `${headingId}.text.null_branch,,,,Encore,`,
        ',,,,orphan,',
        '',
      ].join('\r\n');
      const response = await upload(email.id, file);
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({
        code: 'validation_failed',
        message: 'The translations were not imported: nothing was changed',
        errors: {
          'row 6, column key': ['is also the key of row 2: each value has one row'],
          'row 7, column key': ["can't be blank"],
          'row 4, column key': [
            'is not a translatable value of this email: download the file again (a component, field or branch may have been removed)',
          ],
          'row 5, column key': [
            'is not a translatable value of this email: download the file again (a component, field or branch may have been removed)',
          ],
          'row 2, column de-DE': ['must be at most 100 characters'],
          'row 3, column fr-FR': ["can't be blank"],
        },
      });
      expect((await getEmail(email.id)).lock_version).toBe(email.lock_version);
    });

    it('refuses locale columns the email lacks, unknown columns and columns named twice', async () => {
      const email = await createEmail();
      const response = await upload(
        email.id,
        `key,es-ES,notes,fr-FR,FR-fr\r\n${headingId}.text.null_branch,Hola,,,\r\n`,
      );
      expect(response.statusCode).toBe(422);
      expect(response.json().errors).toEqual({
        'row 1, column es-ES': [
          'is not a locale of this email: add es-ES to the email first, or remove the column (its locales: en-US, fr-FR, de-DE)',
        ],
        'row 1, column notes': [
          'is not a column of a translation spreadsheet: the columns are key, component, field and locale codes of this email (en-US, fr-FR, de-DE)',
        ],
        'row 1, column FR-fr': ['is a column named twice'],
      });
    });

    it('refuses a file without a key column, malformed CSV, and a file that is not UTF-8', async () => {
      const email = await createEmail();
      const noKey = await upload(email.id, 'fr-FR,de-DE\r\nBonjour,Hallo\r\n');
      expect(noKey.statusCode).toBe(422);
      expect(noKey.json().errors).toEqual({
        'row 1': ['has no key column: the first row names the columns (key, component, field, locales)'],
      });

      const malformed = await upload(email.id, `key,fr-FR\r\n${headingId}.text.null_branch,"Bonjour\r\n`);
      expect(malformed.statusCode).toBe(422);
      expect(malformed.json().errors.csv_file[0]).toMatch(/^is not valid CSV: .*quote/i);

      const tooManyCells = await upload(email.id, `key,fr-FR\r\n${headingId}.text.null_branch,a,b\r\n`);
      expect(tooManyCells.statusCode).toBe(422);
      expect(tooManyCells.json().errors).toEqual({
        'row 2': ['has 3 cells, but the header names 2 columns'],
      });

      const latin1 = Buffer.from(`key,fr-FR\r\n${headingId}.text.null_branch,Ét\xe9\r\n`, 'latin1');
      const notUtf8 = await upload(email.id, latin1);
      expect(notUtf8.statusCode).toBe(422);
      expect(notUtf8.json().errors.csv_file).toEqual([
        'is not UTF-8 text: save the spreadsheet as “CSV UTF-8” (a file in another encoding would garble its letters)',
      ]);

      const empty = await upload(email.id, `${bom}\r\n`);
      expect(empty.statusCode).toBe(422);
      expect(Object.keys(empty.json().errors)).toEqual(['csv_file']);

      const missing = await app.inject({
        method: 'POST',
        url: url(email.id),
        headers: admin,
        payload: new FormData(),
      });
      expect(missing.statusCode).toBe(422);

      const wrongField = await upload(email.id, 'key\r\n', { field: 'xliff_file' });
      expect(wrongField.statusCode).toBe(422);
      expect(wrongField.json().errors.csv_file[0]).toContain('the file came as xliff_file');
      expect((await getEmail(email.id)).lock_version).toBe(email.lock_version);
    });

    it('is refused to a Viewer (403), who may still download', async () => {
      const email = await createEmail();
      const viewer = await createTestUser(app, organization, { role: 'Viewer' });
      await app.inject({
        method: 'POST',
        url: `/api/v1/teams/${teamId}/users`,
        headers: admin,
        payload: { user_id: viewer.id },
      });
      const viewerHeaders = await signInAs(app, viewer);
      expect(
        (await app.inject({ method: 'GET', url: url(email.id), headers: viewerHeaders })).statusCode,
      ).toBe(200);
      const response = await upload(email.id, 'key\r\n', { headers: viewerHeaders });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({
        code: 'permission_denied',
        message: 'You need the update_emails permission to do this',
      });
    });

    it('is refused while the email is in review (422)', async () => {
      const created = await createEmail();
      // A review refuses an email with a blocking pre-send problem: the French button gets its link.
      const buttonValues = created.email_content.component_instances[2]?.field_values.null_branch as Record<
        string,
        unknown
      >;
      buttonValues['fr-FR'] = { text: { value: 'Acheter' }, url: { value: 'https://example.com/fr' } };
      const linked = await app.inject({
        method: 'PATCH',
        url: `${base}/emails/${created.id}`,
        headers: admin,
        payload: { email_content: created.email_content, lock_version: created.lock_version },
      });
      expect(linked.statusCode, linked.body).toBe(200);
      const email = linked.json() as { id: number };
      const submitted = await app.inject({
        method: 'POST',
        url: `${base}/emails/${email.id}/approval_workflow`,
        headers: admin,
        payload: { stages: [{ approval_type: 'one_of', members: [{ user_id: organization.admin.id }] }] },
      });
      expect(submitted.statusCode, submitted.body).toBe(200);
      const exported = (await app.inject({ method: 'GET', url: url(email.id), headers: admin })).body;
      const response = await upload(email.id, exported.replace('Bonjour, « monde »', 'Salut'));
      expect(response.statusCode).toBe(422);
      expect(response.json().errors.status[0]).toMatch(/^is in_review: /);
    });
  });

  describe('XLIFF 2.0', () => {
    it('needs a target locale of the email other than the default one', async () => {
      const email = await createEmail();
      const answer = async (query: string) =>
        (await app.inject({ method: 'GET', url: url(email.id, query), headers: admin })).json();
      expect((await answer('format=xliff')).errors).toEqual({
        locale: ['is required with format=xliff: the locale to translate into'],
      });
      expect((await answer('format=xliff&locale=es-ES')).errors).toEqual({
        locale: ['is not a locale of this email'],
      });
      expect((await answer('format=xliff&locale=en-US')).errors).toEqual({
        locale: ['is the email’s default locale: choose a locale to translate into'],
      });
      expect(Object.keys((await answer('format=xliff&locale=xx-XX')).errors)).toEqual(['locale']);
    });

    it('writes one unit per value, with notes, the source and the target when there is one', async () => {
      const email = await createEmail();
      const response = await app.inject({
        method: 'GET',
        url: url(email.id, 'format=xliff&locale=fr-FR'),
        headers: admin,
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/xliff+xml; charset=utf-8');
      expect(response.headers['content-disposition']).toContain('filename="Spring sale-fr-FR.xlf"');
      const xliff = response.body;
      expect(
        xliff.startsWith(
          '<?xml version="1.0" encoding="UTF-8"?>\n<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en-US" trgLang="fr-FR">\n',
        ),
      ).toBe(true);
      expect(xliff).toContain(
        [
          `    <unit id="${bodyId}.body.null_branch" canResegment="no">`,
          '      <notes>',
          '        <note category="component">Intro</note>',
          '        <note category="field">Text</note>',
          '        <note category="format">html</note>',
          '      </notes>',
          '      <segment state="initial">',
          '        <source xml:space="preserve">&lt;p&gt;Say "hi", friends &amp;amp; family&lt;/p&gt;&#13;\n&lt;p&gt;Ünïcödé 🌞&lt;/p&gt;</source>',
          '      </segment>',
          '    </unit>',
        ].join('\n'),
      );
      expect(xliff).toContain('        <target xml:space="preserve">Bonjour, « monde »</target>');
      expect(xliff.match(/<unit /g)).toHaveLength(7);
    });

    it('round trips byte for byte, rich text and characters XML cannot hold included', async () => {
      const email = await createEmail();
      const download = async () =>
        (await app.inject({ method: 'GET', url: url(email.id, 'format=xliff&locale=de-DE'), headers: admin }))
          .body;
      const exported = await download();
      const unchanged = await upload(email.id, exported, {
        field: 'xliff_file',
        query: 'format=xliff',
        name: 'de.xlf',
      });
      expect(unchanged.statusCode, unchanged.body).toBe(200);
      expect(unchanged.json()).toEqual({
        changed: { 'de-DE': 0 },
        unchanged: { 'de-DE': 1 },
        skipped: { 'de-DE': 6 },
        lock_version: email.lock_version,
      });

      const tricky = '<p>Grüße &amp; „Tschüss“\r\n\tzweite Zeile\u0007 ]]> 🌞</p>\r\n';
      const source = `<source xml:space="preserve">${xliffText(richBody)}</source>`;
      expect(exported).toContain(source);
      const translated = exported.replace(
        `      <segment state="initial">\n        ${source}\n`,
        `      <segment state="translated">\n        ${source}\n        <target xml:space="preserve">${xliffText(tricky)}</target>\n`,
      );
      expect(translated).toContain('<cp hex="0007"/>');
      const imported = await upload(email.id, translated, { field: 'xliff_file', query: 'format=xliff' });
      expect(imported.statusCode, imported.body).toBe(200);
      expect(imported.json().changed).toEqual({ 'de-DE': 1 });
      const after = await getEmail(email.id);
      expect(after.email_content.component_instances[1].field_values.null_branch['de-DE'].body.value).toBe(
        tricky,
      );
      expect(await download()).toBe(translated);
    });

    it('reads a unit split into segments, and skips units without a target', async () => {
      const email = await createEmail();
      const xliff = `<?xml version="1.0" encoding="UTF-8"?>
<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en-US" trgLang="fr-FR">
  <file id="f1">
    <group id="g1">
      <unit id="preheader.null_branch">
        <segment><source>Ten days.</source><target>Dix jours.</target></segment>
        <ignorable><source> </source></ignorable>
        <segment><source>Only.</source><target>Seulement.</target></segment>
      </unit>
    </group>
    <unit id="${buttonId}.text.null_branch"><segment><source>Shop</source></segment></unit>
  </file>
</xliff>`;
      const response = await upload(email.id, xliff, { field: 'xliff_file', query: 'format=xliff' });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toMatchObject({ changed: { 'fr-FR': 1 }, skipped: { 'fr-FR': 1 } });
      expect((await getEmail(email.id)).email_content.preheader.branch_content.null_branch['fr-FR']).toBe(
        'Dix jours. Seulement.',
      );
    });

    it('refuses files that are not XLIFF 2.0 for a locale of the email, or that hold markup or a DTD', async () => {
      const email = await createEmail();
      const refusal = async (xliff: string) => {
        const response = await upload(email.id, xliff, { field: 'xliff_file', query: 'format=xliff' });
        expect(response.statusCode).toBe(422);
        return response.json().errors;
      };
      const document = (attributes: string, units = '') =>
        `<?xml version="1.0"?><xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" ${attributes}><file id="f">${units}</file></xliff>`;
      expect(await refusal(document('version="2.0" srcLang="en-US" trgLang="es-ES"'))).toEqual({
        trgLang: [
          'is not a locale of this email: add es-ES to the email first, or remove the column (its locales: en-US, fr-FR, de-DE)',
        ],
      });
      expect(await refusal(document('version="2.0" srcLang="en-US" trgLang="en-US"'))).toEqual({
        trgLang: ["is en-US, the email's default locale: its texts are the source"],
      });
      expect(await refusal(document('version="2.0" srcLang="fr-FR"'))).toEqual({
        srcLang: ["is fr-FR, but the email's default locale is en-US"],
        trgLang: ['is missing: it names the locale the file translates into'],
      });
      expect(
        (await refusal('<xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2"><file/></xliff>'))
          .xliff_file,
      ).toEqual([
        'is XLIFF in the namespace urn:oasis:names:tc:xliff:document:1.2: Letterset reads XLIFF 2.0 (urn:oasis:names:tc:xliff:document:2.0)',
      ]);
      expect((await refusal('<xliff><unit>')).xliff_file[0]).toMatch(/^is not well-formed XML: /);
      expect(
        (
          await refusal(
            `<!DOCTYPE x [<!ENTITY a "b">]>${document('version="2.0" srcLang="en-US" trgLang="fr-FR"')}`,
          )
        ).xliff_file,
      ).toEqual(['is not well-formed XML: declares a DOCTYPE, which XLIFF files do not have']);
      const withMarkup = await refusal(
        document(
          'version="2.0" srcLang="en-US" trgLang="fr-FR"',
          `\n<unit id="subject.null_branch"><segment><source>x</source><target>a<ph id="1"/>b</target></segment></unit>` +
            `\n<unit id="nope"><segment><source>x</source><target>y</target></segment></unit>` +
            `\n<unit id="subject.null_branch"><segment><source>x</source><target>z</target></segment></unit>`,
        ),
      );
      expect(withMarkup).toEqual({
        'unit subject.null_branch (line 2)': [
          'holds inline markup (<ph>) in its target: Letterset writes HTML as text to translate, so keep the tags as text',
        ],
      });
      const unknown = await refusal(
        document(
          'version="2.0" srcLang="en-US" trgLang="fr-FR"',
          `\n<unit id="nope"><segment><source>x</source><target>y</target></segment></unit>` +
            `\n<unit id="nope"><segment><source>x</source><target>z</target></segment></unit>`,
        ),
      );
      expect(unknown).toEqual({
        'unit nope (line 2)': [
          'is not a translatable value of this email: download the file again (a component, field or branch may have been removed)',
        ],
        'unit nope (line 3)': ['is also the id of the unit on line 2: each value has one unit'],
      });
      expect((await getEmail(email.id)).lock_version).toBe(email.lock_version);
    });
  });
});
