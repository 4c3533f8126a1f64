import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectorDeliveries, emails } from '../../db/schema.ts';
import { restBaseUrlOf } from '../../integrations/salesforce-marketing-cloud.ts';
import { createTestOrganization, signInAs, type TestOrganization } from '../../test/factories.ts';
import { htmlOutage } from '../../test/fakes/fake-http.ts';
import { type FakeIterable, iterableRateLimited, startFakeIterable } from '../../test/fakes/fake-iterable.ts';
import {
  type FakeSalesforce,
  salesforceRateLimited,
  startFakeSalesforce,
} from '../../test/fakes/fake-salesforce.ts';
import { buildTestApp, type TestApp } from '../../test/harness.ts';
import { createRecordFixture } from '../../test/record-fixture.ts';
import {
  type DeliveryHttpOptions,
  type DeliveryOptions,
  deliverToConnector,
  type LocaleDelivery,
  type LocaleEmail,
} from './connector-delivery.ts';

const iterableKey = 'itbl_delivery_key_0123456789';

const localeEmail = (locale: string, overrides: Partial<LocaleEmail> = {}): LocaleEmail => ({
  locale,
  name: 'Spring sale',
  subject: `Subject ${locale}`,
  preheader: `Preheader ${locale}`,
  html: `<html><body><p>Hello ${locale} {{firstName}}</p></body></html>`,
  plainText: `Hello ${locale}`,
  ...overrides,
});

describe('deliverToConnector', () => {
  let app: TestApp;
  let iterable: FakeIterable;
  let salesforce: FakeSalesforce;
  let organization: TestOrganization;
  let admin: Record<string, string>;
  let emailId: number;
  let http: DeliveryHttpOptions;
  const pauses: number[] = [];

  beforeAll(async () => {
    iterable = await startFakeIterable();
    iterable.addKey(iterableKey, 'us');
    salesforce = await startFakeSalesforce();
    salesforce.addClient('client-cc', { secret: 'sfmc-secret' });
    salesforce.addClient('client-readonly', { secret: 'sfmc-secret', scopes: ['saved_content_read'] });
    salesforce.addClient('client-web', {
      secret: 'sfmc-secret',
      redirectUris: ['http://localhost:3000/connectors/oauth-callback'],
    });
    const connectorEndpoints = {
      iterableUs: iterable.urls.us,
      iterableEu: iterable.urls.eu,
      salesforceAuth: salesforce.url,
      privateOrigins: [iterable.urls.us, iterable.urls.eu, salesforce.url],
    };
    app = await buildTestApp({ config: { appUrl: 'http://localhost:3000', connectorEndpoints } });
    organization = await createTestOrganization(app);
    admin = await signInAs(app, organization.admin);
    emailId = (await createRecordFixture(app, organization)).emailId;
    http = {
      sleep: async (milliseconds) => void pauses.push(milliseconds),
      baseDelayMs: 100,
      timeoutMs: 5_000,
    };
  });
  afterAll(async () => {
    await app.close();
    await iterable.close();
    await salesforce.close();
  });

  const createConnector = async (integration: string, settings: Record<string, string>) => {
    const response = await app.inject({
      method: 'POST',
      url: `/api/v1/workspaces/${organization.workspaceId}/connectors`,
      headers: admin,
      payload: { name: `${integration} connector`, integration_name: integration, settings },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().id as number;
  };
  const deliver = (connectorId: number, emailsToSend: LocaleEmail[], options: DeliveryOptions = {}) => {
    const reported: LocaleDelivery[] = [];
    return deliverToConnector(
      app.services,
      {
        organizationId: organization.organizationId,
        connectorId,
        emailId,
        emails: emailsToSend,
        options,
        onLocaleDone: (delivery) => void reported.push(delivery),
      },
      http,
    ).then((result) => ({ ...result, reported }));
  };
  const deliveryRows = (connectorId: number) =>
    app.services.database.db
      .select()
      .from(connectorDeliveries)
      .where(and(eq(connectorDeliveries.connectorId, connectorId), eq(connectorDeliveries.emailId, emailId)));

  describe('to Iterable', () => {
    let connectorId: number;
    beforeAll(async () => {
      connectorId = await createConnector('iterable', { api_key: iterableKey, region: 'us' });
    });

    it('upserts one base template per locale with subject, preheader, HTML and plain text', async () => {
      const before = iterable.templates(iterableKey).length;
      const result = await deliver(connectorId, [localeEmail('en-US'), localeEmail('de-DE')], {
        perLocale: { 'de-DE': { resourceName: 'Frühlingsangebot' } },
      });
      expect(result.deliveries.map((delivery) => delivery.ok)).toEqual([true, true]);
      expect(result.reported).toEqual(result.deliveries);
      const created = iterable.templates(iterableKey).slice(before);
      expect(created).toHaveLength(2);
      expect(created[0]?.content.get('')).toEqual({
        name: 'Spring sale (en-US)',
        subject: 'Subject en-US',
        preheaderText: 'Preheader en-US',
        html: '<html><body><p>Hello en-US {{firstName}}</p></body></html>',
        plainText: 'Hello en-US',
      });
      expect(created[1]?.content.get('')?.name).toBe('Frühlingsangebot');
      const [first] = result.deliveries;
      expect(first).toEqual({
        locale: 'en-US',
        ok: true,
        externalId: String(created[0]?.templateId),
        resourceName: 'Spring sale (en-US)',
        updated: false,
        openUrl: `https://app.iterable.com/templates/editor?templateId=${created[0]?.templateId}`,
      });
      expect(result.openInIntegrationUrl).toBe(first?.ok ? first.openUrl : null);
      const rows = await deliveryRows(connectorId);
      expect(rows.map((row) => [row.locale, row.externalKey])).toEqual(
        expect.arrayContaining([
          ['en-US', created[0]?.clientTemplateId],
          ['de-DE', created[1]?.clientTemplateId],
        ]),
      );
      expect(created[0]?.clientTemplateId).toMatch(/^letterset-[0-9a-f]{24}$/);
    });

    it('updates the previous export’s template by its clientTemplateId, and makes a new one otherwise', async () => {
      const first = await deliver(connectorId, [localeEmail('fr-FR')]);
      const count = iterable.templates(iterableKey).length;
      const updated = await deliver(connectorId, [localeEmail('fr-FR', { subject: 'Nouveau sujet' })], {
        perLocale: { 'fr-FR': { updatePreviousExport: true } },
      });
      expect(iterable.templates(iterableKey)).toHaveLength(count);
      expect(first.deliveries[0]).toMatchObject({ ok: true, updated: false });
      expect(updated.deliveries[0]).toMatchObject({
        ok: true,
        externalId: (first.deliveries[0] as { externalId: string }).externalId,
        updated: true,
      });
      const template = iterable
        .templates(iterableKey)
        .find((t) => String(t.templateId) === (first.deliveries[0] as { externalId: string }).externalId);
      expect(template?.content.get('')?.subject).toBe('Nouveau sujet');
      const upserts = iterable.seen.us
        .filter((seen) => seen.path === '/api/templates/email/upsert')
        .slice(-2);
      expect(JSON.parse(upserts[1]?.body ?? '{}').clientTemplateId).toBe(
        JSON.parse(upserts[0]?.body ?? '{}').clientTemplateId,
      );

      const fresh = await deliver(connectorId, [localeEmail('fr-FR')]);
      expect(iterable.templates(iterableKey)).toHaveLength(count + 1);
      expect(fresh.deliveries[0]).toMatchObject({ ok: true });
      expect((fresh.deliveries[0] as { externalId: string }).externalId).not.toBe(
        (first.deliveries[0] as { externalId: string }).externalId,
      );
      // The newest export is the one the next update writes into.
      const [row] = (await deliveryRows(connectorId)).filter((candidate) => candidate.locale === 'fr-FR');
      expect(row?.externalId).toBe((fresh.deliveries[0] as { externalId: string }).externalId);
    });

    it('writes into a campaign’s template: every locale’s content, the first also as the default', async () => {
      const campaignTemplateId = iterable.addCampaignTemplate(iterableKey, 7_654_321);
      const result = await deliver(connectorId, [localeEmail('en-US'), localeEmail('es-ES')], {
        campaignId: '7654321',
      });
      expect(result.deliveries).toMatchObject([
        { ok: true, externalId: String(campaignTemplateId) },
        { ok: true, externalId: String(campaignTemplateId) },
      ]);
      const template = iterable.templates(iterableKey).find((t) => t.templateId === campaignTemplateId);
      expect(template?.content.get('')?.subject).toBe('Subject en-US');
      expect(template?.content.get('en-US')?.subject).toBe('Subject en-US');
      expect(template?.content.get('es-ES')?.html).toContain('Hello es-ES');

      const missing = await deliver(connectorId, [localeEmail('en-US'), localeEmail('es-ES')], {
        campaignId: '1',
      });
      expect(missing.deliveries).toEqual([
        { locale: 'en-US', ok: false, error: 'Iterable has no email campaign 1 in this project' },
        { locale: 'es-ES', ok: false, error: 'Iterable has no email campaign 1 in this project' },
      ]);
      expect(missing.openInIntegrationUrl).toBeNull();
      expect(
        (await deliver(connectorId, [localeEmail('en-US')], { campaignId: 'spring' })).deliveries[0],
      ).toMatchObject({
        ok: false,
        error: 'The Iterable campaign id must be a number (got “spring”)',
      });
    });

    it('waits as Retry-After says on 429, backs off on 5xx HTML pages, and reports what stays broken', async () => {
      pauses.length = 0;
      iterable.force('us', iterableRateLimited(7));
      iterable.force('us', htmlOutage(502));
      const recovered = await deliver(connectorId, [localeEmail('it-IT')]);
      expect(recovered.deliveries[0]).toMatchObject({ ok: true });
      expect(pauses[0]).toBe(7000);
      expect(pauses[1]).toBeGreaterThanOrEqual(100);
      expect(pauses[1]).toBeLessThanOrEqual(200);

      for (let attempt = 0; attempt < 4; attempt += 1) iterable.force('us', htmlOutage(502));
      const broken = await deliver(connectorId, [localeEmail('it-IT'), localeEmail('nl-NL')]);
      expect(broken.deliveries[0]).toEqual({
        locale: 'it-IT',
        ok: false,
        error: 'Iterable had a problem of its own (502: 502 Bad Gateway). Export again later.',
      });
      // One locale's failure does not stop the next.
      expect(broken.deliveries[1]).toMatchObject({ locale: 'nl-NL', ok: true });
    });

    it('gives up on a platform that does not answer in time', async () => {
      iterable.force('us', { ...iterableRateLimited(), status: 200, delayMs: 1_000 });
      const result = await deliverToConnector(
        app.services,
        {
          organizationId: organization.organizationId,
          connectorId,
          emailId,
          emails: [localeEmail('en-US')],
          options: {},
        },
        { ...http, timeoutMs: 200 },
      );
      expect(result.deliveries[0]).toEqual({
        locale: 'en-US',
        ok: false,
        error: 'The platform could not be reached: No complete answer within 0.2 s',
      });
    });

    it('finds the template by clientTemplateId when the answer does not name it', async () => {
      iterable.withholdIdsOnce();
      const result = await deliver(connectorId, [localeEmail('pt-BR')]);
      expect(result.deliveries[0]).toMatchObject({ ok: true });
      expect(iterable.seen.us.at(-1)?.path).toBe('/api/templates/getByClientTemplateId');
      const template = iterable.templates(iterableKey).at(-1);
      expect((result.deliveries[0] as { externalId: string }).externalId).toBe(String(template?.templateId));
    });

    it('fails every locale with one plain message when the key is refused, asking once', async () => {
      const wrong = await createConnector('iterable', { api_key: 'revoked-key', region: 'us' });
      const requests = iterable.seen.us.length;
      const result = await deliver(wrong, [localeEmail('en-US'), localeEmail('de-DE'), localeEmail('fr-FR')]);
      const message =
        'Iterable refused the API key. Check the key, and that its project is in the US data centre chosen for this connector.';
      expect(result.deliveries.map((delivery) => (delivery.ok ? 'ok' : delivery.error))).toEqual([
        message,
        message,
        message,
      ]);
      expect(iterable.seen.us.length - requests).toBe(1);
    });

    it('refuses a connector of another organization', async () => {
      const outsider = await createTestOrganization(app);
      await expect(
        deliverToConnector(
          app.services,
          {
            organizationId: outsider.organizationId,
            connectorId,
            emailId,
            emails: [localeEmail('en-US')],
            options: {},
          },
          http,
        ),
      ).rejects.toThrow('The connector does not exist');
    });
  });

  describe('to Salesforce Marketing Cloud', () => {
    let connectorId: number;
    let folderId: number;
    beforeAll(async () => {
      connectorId = await createConnector('salesforce_marketing_cloud', {
        subdomain: 'mc563885gzs27c5t9-63k636tzgm',
        client_id: 'client-cc',
        client_secret: 'sfmc-secret',
        account_id: '7281698',
      });
      folderId = 95_001;
      salesforce.categories.push({
        id: folderId,
        name: 'Exports',
        parentId: salesforce.rootCategoryId,
        categoryType: 'asset',
      });
    });

    it('creates an HTML email asset per locale in the folder, with subject, preheader and text views', async () => {
      const result = await deliver(connectorId, [localeEmail('en-US'), localeEmail('de-DE')], {
        folderId: String(folderId),
      });
      expect(result.deliveries.map((delivery) => delivery.ok)).toEqual([true, true]);
      const asset = salesforce.assets.find(
        (candidate) => String(candidate.id) === (result.deliveries[0] as { externalId: string }).externalId,
      );
      expect(asset).toMatchObject({
        name: 'Spring sale (en-US)',
        assetType: { id: 208, name: 'htmlemail' },
        category: { id: folderId, name: 'Exports' },
        accountId: '7281698',
        views: {
          html: { content: '<html><body><p>Hello en-US {{firstName}}</p></body></html>' },
          text: { content: 'Hello en-US' },
          subjectline: { content: 'Subject en-US' },
          preheader: { content: 'Preheader en-US' },
        },
      });
      expect(asset?.customerKey.length).toBeLessThanOrEqual(36);
      expect(result.openInIntegrationUrl).toBe('https://mc.exacttarget.com/cloud/#app/Content%20Builder');
      // One token for the whole export.
      expect(salesforce.seen.filter((seen) => seen.path === '/v2/token').length).toBe(1);
    });

    it('updates the previous export’s asset; a name already taken in the folder is explained', async () => {
      const first = await deliver(connectorId, [localeEmail('sv-SE')], { folderId: String(folderId) });
      const assetId = (first.deliveries[0] as { externalId: string }).externalId;
      const count = salesforce.assets.length;
      const updated = await deliver(connectorId, [localeEmail('sv-SE', { subject: 'Ny rubrik' })], {
        folderId: String(folderId),
        perLocale: { 'sv-SE': { updatePreviousExport: true } },
      });
      expect(first.deliveries[0]).toMatchObject({ ok: true, updated: false });
      expect(updated.deliveries[0]).toMatchObject({ ok: true, externalId: assetId, updated: true });
      expect(salesforce.assets).toHaveLength(count);
      expect(
        salesforce.assets.find((asset) => String(asset.id) === assetId)?.views.subjectline?.content,
      ).toBe('Ny rubrik');

      const duplicate = await deliver(connectorId, [localeEmail('sv-SE')], { folderId: String(folderId) });
      expect(duplicate.deliveries[0]).toMatchObject({ ok: false });
      expect((duplicate.deliveries[0] as { error: string }).error).toMatch(
        /^Marketing Cloud already has an email of that name in the folder: .*Spring sale \(sv-SE\) is already taken.* Choose another name, or update the previous export\.$/,
      );

      // An asset deleted in Content Builder since is made again.
      salesforce.assets.splice(
        salesforce.assets.findIndex((asset) => String(asset.id) === assetId),
        1,
      );
      const remade = await deliver(connectorId, [localeEmail('sv-SE')], {
        folderId: String(folderId),
        perLocale: { 'sv-SE': { updatePreviousExport: true, resourceName: 'Vårrea' } },
      });
      expect(remade.deliveries[0]).toMatchObject({ ok: true, updated: false, resourceName: 'Vårrea' });
      expect((remade.deliveries[0] as { externalId: string }).externalId).not.toBe(assetId);
      expect(salesforce.assets.at(-1)?.name).toBe('Vårrea');
    });

    it('gets a new token and tries once more when the token expired', async () => {
      salesforce.expireTokens();
      const tokens = salesforce.seen.filter((seen) => seen.path === '/v2/token').length;
      const result = await deliver(connectorId, [localeEmail('da-DK')]);
      expect(result.deliveries[0]).toMatchObject({ ok: true });
      expect(salesforce.seen.filter((seen) => seen.path === '/v2/token').length).toBe(tokens + 1);
      expect(salesforce.assets.at(-1)?.category.id).toBe(salesforce.rootCategoryId);
    });

    it('honours Retry-After on 429 and names a missing folder and missing permissions', async () => {
      pauses.length = 0;
      salesforce.force({ ...salesforceRateLimited(5), pathPrefix: '/asset' });
      expect((await deliver(connectorId, [localeEmail('fi-FI')])).deliveries[0]).toMatchObject({ ok: true });
      expect(pauses).toEqual([5000]);

      const noFolder = await deliver(connectorId, [localeEmail('fi-FI'), localeEmail('nb-NO')], {
        folderId: '424242',
      });
      expect(noFolder.deliveries).toEqual([
        {
          locale: 'fi-FI',
          ok: false,
          error: 'Content Builder has no folder 424242 that this account can see: check the folder id',
        },
        {
          locale: 'nb-NO',
          ok: false,
          error: 'Content Builder has no folder 424242 that this account can see: check the folder id',
        },
      ]);

      const readOnly = await createConnector('salesforce_marketing_cloud', {
        subdomain: 'mc563885gzs27c5t9-63k636tzgm',
        client_id: 'client-readonly',
        client_secret: 'sfmc-secret',
      });
      const refused = await deliver(readOnly, [localeEmail('fi-FI')]);
      expect((refused.deliveries[0] as { error: string }).error).toContain(
        'lacks Content Builder permissions',
      );
    });

    it('refreshes with the stored refresh token and stores the rotated one (authorization-code flow)', async () => {
      const webConnector = await createConnector('salesforce_marketing_cloud', {
        subdomain: 'mc563885gzs27c5t9-63k636tzgm',
        client_id: 'client-web',
        client_secret: 'sfmc-secret',
        auth_flow: 'authorization_code',
      });
      const notConnected = await deliver(webConnector, [localeEmail('en-US')]);
      expect((notConnected.deliveries[0] as { error: string }).error).toContain('click Connect');

      const connector = (
        await app.inject({
          method: 'GET',
          url: `/api/v1/workspaces/${organization.workspaceId}/connectors/${webConnector}`,
          headers: admin,
        })
      ).json();
      const back = new URL(
        (await fetch(connector.oauth_authorization_url, { redirect: 'manual' })).headers.get('location') ??
          '',
      );
      const completed = await app.inject({
        method: 'POST',
        url: '/api/v1/connectors/oauth_callback',
        headers: admin,
        payload: { code: back.searchParams.get('code'), state: back.searchParams.get('state') },
      });
      expect(completed.statusCode, completed.body).toBe(200);

      for (const locale of ['en-US', 'en-GB']) {
        salesforce.expireTokens();
        const result = await deliver(webConnector, [localeEmail(locale)]);
        expect(result.deliveries[0]).toMatchObject({ ok: true });
      }
      expect(salesforce.liveRefreshTokens()).toHaveLength(1);
    });
  });

  it('normalises the REST address from the token answer, with or without a scheme and slash', () => {
    expect(restBaseUrlOf('https://mc563885gzs27c5t9-63k636tzgm.rest.marketingcloudapis.com/', [])).toBe(
      'https://mc563885gzs27c5t9-63k636tzgm.rest.marketingcloudapis.com',
    );
    expect(restBaseUrlOf('mc563885gzs27c5t9-63k636tzgm.rest.marketingcloudapis.com', [])).toBe(
      'https://mc563885gzs27c5t9-63k636tzgm.rest.marketingcloudapis.com',
    );
    expect(() => restBaseUrlOf('https://evil.example.com/', [])).toThrow('outside its own hosts');
    expect(() => restBaseUrlOf('http://127.0.0.1:9/', [])).toThrow('outside its own hosts');
    expect(restBaseUrlOf('http://127.0.0.1:9/', ['http://127.0.0.1:9'])).toBe('http://127.0.0.1:9');
  });

  it('keeps deliveries per email: deleting the email forgets them', async () => {
    const connectorId = await createConnector('iterable', { api_key: iterableKey, region: 'us' });
    await deliver(connectorId, [localeEmail('en-US')]);
    expect(await deliveryRows(connectorId)).toHaveLength(1);
    await app.services.database.db.delete(emails).where(eq(emails.id, emailId));
    expect(await deliveryRows(connectorId)).toHaveLength(0);
  });
});
