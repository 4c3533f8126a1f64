import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { connectorDeliveries, connectors } from '../../db/schema.ts';
import { NotFoundError } from '../../http/errors.ts';
import { type IterableClient, iterableTemplateNameLimit } from '../../integrations/iterable.ts';
import { PlatformError, type PlatformHttpOptions } from '../../integrations/platform-http.ts';
import {
  type SalesforceMarketingCloudClient,
  salesforceAssetNameLimit,
  salesforceContentBuilderUrl,
} from '../../integrations/salesforce-marketing-cloud.ts';
import type { Services } from '../../services.ts';
import { clientFor } from './connector-platforms.ts';
import { storeRefreshToken } from './connectors.service.ts';

/**
 * Delivers a rendered email, one locale at a time, to a connector's platform: an Iterable base
 * template per locale (upserted by a `clientTemplateId` of ours, or written into a campaign's
 * template), or a Content Builder HTML email asset per locale. What was made is remembered per
 * connector, email and locale, so that `updatePreviousExport` updates it instead of making another.
 * The export job calls this; each locale's outcome is reported as it is known.
 */
export interface LocaleEmail {
  locale: string;
  /** The email's name: the platform resource is named `<name> (<locale>)` unless `resourceName` is given. */
  name: string;
  subject: string;
  preheader: string;
  html: string;
  plainText: string;
}

export interface DeliveryOptions {
  /**
   * Iterable: the campaign whose email template receives the content (a campaign owns a copy of a
   * template; each locale is written as that template's content for the locale, the first also as
   * its default content). Absent: base templates, one per locale.
   */
  campaignId?: string;
  /** Salesforce Marketing Cloud: the Content Builder category (folder) id; absent: the root folder. */
  folderId?: string;
  perLocale?: Record<string, { resourceName?: string; updatePreviousExport?: boolean }>;
}

export type LocaleDelivery =
  | {
      locale: string;
      ok: true;
      externalId: string;
      /** The name it has on the platform (the requested one, cut to the platform's limit). */
      resourceName: string;
      /** true: an existing template or asset was updated; false: this delivery created it. */
      updated: boolean;
      openUrl: string;
    }
  | { locale: string; ok: false; error: string };

/** Retry pacing and time limits of the platforms' HTTP calls; tests shorten them. */
export type DeliveryHttpOptions = Omit<PlatformHttpOptions, 'endpoints'>;

export interface DeliveryInput {
  organizationId: number;
  connectorId: number;
  emailId: number;
  emails: LocaleEmail[];
  options: DeliveryOptions;
  onLocaleDone?: (delivery: LocaleDelivery) => void | Promise<void>;
}

type PreviousDelivery = typeof connectorDeliveries.$inferSelect;

/** What a locale needs from the export: its content, its options and what the last export made. */
interface LocaleJob {
  email: LocaleEmail;
  index: number;
  resourceName: string;
  previous: PreviousDelivery | null;
}

const unexpectedFailure = 'Something went wrong on our side while sending this locale; it has been logged.';

export async function deliverToConnector(
  services: Pick<Services, 'database' | 'secrets' | 'config' | 'log'>,
  input: DeliveryInput,
  http?: DeliveryHttpOptions,
): Promise<{ deliveries: LocaleDelivery[]; openInIntegrationUrl: string | null }> {
  const [row] = await services.database.db
    .select()
    .from(connectors)
    .where(and(eq(connectors.id, input.connectorId), eq(connectors.organizationId, input.organizationId)));
  if (!row) throw new NotFoundError('The connector does not exist');
  const previous = await services.database.db
    .select()
    .from(connectorDeliveries)
    .where(and(eq(connectorDeliveries.connectorId, row.id), eq(connectorDeliveries.emailId, input.emailId)));
  const nameLimit = row.integrationName === 'iterable' ? iterableTemplateNameLimit : salesforceAssetNameLimit;
  const jobs: LocaleJob[] = input.emails.map((email, index) => {
    const options = input.options.perLocale?.[email.locale] ?? {};
    const resourceName = (options.resourceName?.trim() || `${email.name} (${email.locale})`).slice(
      0,
      nameLimit,
    );
    const last = previous.find((delivery) => delivery.locale === email.locale) ?? null;
    return { email, index, resourceName, previous: options.updatePreviousExport ? last : null };
  });

  const remember = async (job: LocaleJob, externalId: string, externalKey: string) => {
    const values = { externalId, externalKey, resourceName: job.resourceName };
    await services.database.db
      .insert(connectorDeliveries)
      .values({
        organizationId: row.organizationId,
        connectorId: row.id,
        emailId: input.emailId,
        locale: job.email.locale,
        ...values,
      })
      .onConflictDoUpdate({
        target: [connectorDeliveries.connectorId, connectorDeliveries.emailId, connectorDeliveries.locale],
        set: values,
      });
  };

  let deliverLocale: (job: LocaleJob) => Promise<DeliveredLocale>;
  // A problem with the account (credentials, campaign, folder) fails every locale with one message.
  let accountProblem: string | null = null;
  try {
    const platform = clientFor(row, {
      secrets: services.secrets,
      endpoints: services.config.connectorEndpoints,
      ...(http ? { http } : {}),
      onRefreshTokenRotated: (token) => storeRefreshToken(services, row.id, token),
    });
    deliverLocale =
      platform.integration === 'iterable'
        ? await iterableDelivery(platform.client, input.options, remember)
        : await salesforceDelivery(platform.client, input.options, remember);
  } catch (error) {
    if (!(error instanceof PlatformError)) throw error;
    accountProblem = error.message;
    deliverLocale = async () => {
      throw error;
    };
  }

  const deliveries: LocaleDelivery[] = [];
  for (const job of jobs) {
    const locale = job.email.locale;
    let delivery: LocaleDelivery;
    if (accountProblem !== null) delivery = { locale, ok: false, error: accountProblem };
    else {
      try {
        delivery = { locale, ok: true, resourceName: job.resourceName, ...(await deliverLocale(job)) };
      } catch (error) {
        if (error instanceof PlatformError) {
          if (error.scope === 'account') accountProblem = error.message;
          delivery = { locale, ok: false, error: error.message };
        } else {
          services.log.error({ err: error, connectorId: row.id, locale }, 'connector delivery failed');
          delivery = { locale, ok: false, error: unexpectedFailure };
        }
      }
    }
    deliveries.push(delivery);
    await input.onLocaleDone?.(delivery);
  }
  const firstDelivered = deliveries.find((delivery) => delivery.ok);
  return { deliveries, openInIntegrationUrl: firstDelivered?.ok ? firstDelivered.openUrl : null };
}

type Remember = (job: LocaleJob, externalId: string, externalKey: string) => Promise<void>;

/** What a platform's delivery of one locale answers. */
interface DeliveredLocale {
  externalId: string;
  updated: boolean;
  openUrl: string;
}

/** A fresh key of ours on the platform: unguessable, and within Content Builder's 36 characters. */
function newExternalKey(): string {
  return `letterset-${randomBytes(12).toString('hex')}`;
}

function iterableContent(job: LocaleJob) {
  return {
    name: job.resourceName,
    subject: job.email.subject,
    preheaderText: job.email.preheader,
    html: job.email.html,
    plainText: job.email.plainText,
  };
}

/** An id the platform numbers; anything else fails every locale with a message naming it. */
function numericId(value: string, what: string): number {
  if (!/^\d{1,18}$/.test(value))
    throw new PlatformError(`${what} must be a number (got “${value}”)`, { scope: 'account' });
  return Number(value);
}

async function iterableDelivery(client: IterableClient, options: DeliveryOptions, remember: Remember) {
  const campaign = options.campaignId?.trim();
  if (campaign) {
    const templateId = await client.campaignTemplateId(numericId(campaign, 'The Iterable campaign id'));
    if (templateId === null)
      throw new PlatformError(`Iterable has no email campaign ${campaign} in this project`, {
        scope: 'account',
      });
    return async (job: LocaleJob) => {
      const content = iterableContent(job);
      // The first locale is also the content of recipients whose locale has none.
      if (job.index === 0) await client.updateEmailTemplate(templateId, content);
      await client.updateEmailTemplate(templateId, { ...content, locale: job.email.locale });
      // The campaign's template exists already: its content for the locale is what changes.
      return { externalId: String(templateId), updated: true, openUrl: client.templateUrl(templateId) };
    };
  }
  return async (job: LocaleJob): Promise<DeliveredLocale> => {
    const clientTemplateId = job.previous?.externalKey ?? newExternalKey();
    const templateId = await client.upsertEmailTemplate(clientTemplateId, iterableContent(job));
    await remember(job, String(templateId), clientTemplateId);
    return {
      externalId: String(templateId),
      // Upserted by the previous export's key: the template it made, unless deleted since.
      updated: job.previous !== null && job.previous.externalId === String(templateId),
      openUrl: client.templateUrl(templateId),
    };
  };
}

async function salesforceDelivery(
  client: SalesforceMarketingCloudClient,
  options: DeliveryOptions,
  remember: Remember,
) {
  const folder = options.folderId?.trim();
  let categoryId: number | undefined;
  if (folder) {
    categoryId = numericId(folder, 'The Content Builder folder id');
    if ((await client.folderName(categoryId)) === null)
      throw new PlatformError(
        `Content Builder has no folder ${folder} that this account can see: check the folder id`,
        { scope: 'account' },
      );
  }
  return async (job: LocaleJob): Promise<DeliveredLocale> => {
    const content = {
      name: job.resourceName,
      subject: job.email.subject,
      preheader: job.email.preheader,
      html: job.email.html,
      plainText: job.email.plainText,
      ...(categoryId === undefined ? {} : { categoryId }),
    };
    const previous = job.previous;
    // An asset deleted in Content Builder since is made again.
    if (previous && (await client.updateEmailAsset(Number(previous.externalId), content))) {
      await remember(job, previous.externalId, previous.externalKey);
      return { externalId: previous.externalId, updated: true, openUrl: salesforceContentBuilderUrl };
    }
    const customerKey = newExternalKey();
    const assetId = String(await client.createEmailAsset(customerKey, content));
    await remember(job, assetId, customerKey);
    return { externalId: assetId, updated: false, openUrl: salesforceContentBuilderUrl };
  };
}
