import { randomBytes } from 'node:crypto';
import { strToU8, type Zippable, zipSync } from 'fflate';
import type { ExportType, exports, StoredExportOptions } from '../../db/schema.ts';
import type { Services } from '../../services.ts';
import type { FileStorage } from '../../storage/file-storage.ts';
import { type DeliveryOptions, deliverToConnector } from '../connectors/connector-delivery.ts';
import { readStarterImage } from '../organizations/starter-images.ts';
import type { ExportImage } from './export-images.ts';
import type { LocaleOutput } from './export-outputs.ts';
import { ExportFailure, PdfPrinter } from './pdf-printer.ts';

type ExportRow = typeof exports.$inferSelect;

/** What a finished export leaves behind. */
export interface WrittenExport {
  /** The file in storage (zip, JSON or PDF), for file exports. */
  fileKey: string | null;
  /** Where the result opens in the sending platform, for connector exports. */
  openInIntegrationUrl: string | null;
}

/**
 * Takes an export's per-locale outputs and makes the export's result of them. One writer per
 * export type; the export job is the same for all of them.
 */
export interface ExportWriter {
  /**
   * The writer counts the locales done itself (a connector's pushes are the slow part, not the
   * renders); otherwise the job counts each locale as it is added.
   */
  readonly countsLocales?: boolean;
  /** One locale's output, in the export's locale order; the slow part (a page, a push) happens here. */
  add(output: LocaleOutput): Promise<void>;
  /** Writes the result once every locale is in. */
  finish(): Promise<WrittenExport>;
  /** Lets go of what the writer holds (a browser); called whether or not it finished. */
  close(): Promise<void>;
}

export interface ExportToWrite {
  id: number;
  organizationId: number;
  emailId: number;
  emailName: string;
  exportType: ExportType;
  /** include_in_zip puts the images in the zip (the HTML already points at them there). */
  imageMode: 'use_cdn' | 'include_in_zip';
  connectorId: number | null;
  options: StoredExportOptions;
}

/** What the writers use of the server: the file storage, Chromium's path, a connector's platform. */
export type WriterServices = Pick<Services, 'storage' | 'config' | 'database' | 'secrets' | 'log'>;

/** How a writer reports back to the export's record as it goes. */
export interface WriterProgress {
  /** Records how many locales are done, for the writers that count them. */
  progress: (localesDone: number) => Promise<void>;
  /** Records what a connector export made or updated on the platform, per locale. */
  delivered: (resources: DeliveredResources) => Promise<void>;
}

export type DeliveredResources = ExportRow['deliveredResources'];

/** The export types' writers: a new type is one more case here. */
export function writerFor(
  services: WriterServices,
  record: ExportToWrite,
  reports: WriterProgress,
): ExportWriter {
  switch (record.exportType) {
    case 'html':
      return new ZipWriter(record, services.storage);
    case 'json':
      return new JsonWriter(record, services.storage);
    case 'pdf':
      return new PdfWriter(record, services);
    case 'connector':
      return new ConnectorWriter(record, services, reports);
  }
}

/** Private to the export: never under images/ (served publicly), and a new key per attempt. */
function exportFileKey(record: ExportToWrite, extension: string): string {
  return `exports/${record.organizationId}/${record.id}/${randomBytes(8).toString('hex')}.${extension}`;
}

export async function readStoredFile(storage: FileStorage, key: string): Promise<Buffer> {
  const file = await storage.get(key);
  if (!file) throw new Error(`The stored file ${key} is missing`);
  return Buffer.concat(await file.body.toArray());
}

/**
 * html: a folder per locale with index.html, plain_text.txt and (include_in_zip) images/, holding
 * every stored image the locale's HTML shows, once, under the name its HTML points at.
 */
class ZipWriter implements ExportWriter {
  private readonly files: Zippable = {};
  /** Each image is read from storage once, however many locales show it. */
  private readonly imageBytes = new Map<string, Promise<Uint8Array>>();
  private readonly record: ExportToWrite;
  private readonly storage: FileStorage;

  constructor(record: ExportToWrite, storage: FileStorage) {
    this.record = record;
    this.storage = storage;
  }

  private image(image: ExportImage): Promise<Uint8Array> {
    let bytes = this.imageBytes.get(image.storageKey);
    if (!bytes) {
      bytes =
        image.kind === 'starter'
          ? readStarterImage(image.file)
          : readStoredFile(this.storage, image.storageKey);
      this.imageBytes.set(image.storageKey, bytes);
    }
    return bytes;
  }

  async add(output: LocaleOutput): Promise<void> {
    this.files[`${output.locale}/index.html`] = strToU8(output.html);
    this.files[`${output.locale}/plain_text.txt`] = strToU8(output.plain_text);
    if (this.record.imageMode !== 'include_in_zip') return;
    for (const image of output.images) {
      // Images are compressed already: stored as they are.
      this.files[`${output.locale}/images/${image.fileName}`] = [await this.image(image), { level: 0 }];
    }
  }

  async finish(): Promise<WrittenExport> {
    const key = exportFileKey(this.record, 'zip');
    await this.storage.put(key, Buffer.from(zipSync(this.files, { level: 6 })), {
      contentType: 'application/zip',
    });
    return { fileKey: key, openInIntegrationUrl: null };
  }

  async close(): Promise<void> {}
}

/** json: the export data document (email name and id, one output per locale). */
class JsonWriter implements ExportWriter {
  private readonly outputs: LocaleOutput[] = [];
  private readonly record: ExportToWrite;
  private readonly storage: FileStorage;

  constructor(record: ExportToWrite, storage: FileStorage) {
    this.record = record;
    this.storage = storage;
  }

  async add(output: LocaleOutput): Promise<void> {
    this.outputs.push(output);
  }

  async finish(): Promise<WrittenExport> {
    const document = {
      email_name: this.record.emailName,
      email_id: this.record.emailId,
      outputs: this.outputs.map((output) => ({
        email_id: this.record.emailId,
        name: output.name,
        html: output.html,
        subject: output.subject,
        preheader: output.preheader,
        locale: output.locale,
        plain_text: output.plain_text,
      })),
    };
    const key = exportFileKey(this.record, 'json');
    await this.storage.put(key, Buffer.from(JSON.stringify(document)), { contentType: 'application/json' });
    return { fileKey: key, openInIntegrationUrl: null };
  }

  async close(): Promise<void> {}
}

/** pdf: one page per locale, printed by Chromium. */
class PdfWriter implements ExportWriter {
  private readonly printer: PdfPrinter;
  private readonly record: ExportToWrite;
  private readonly storage: FileStorage;

  constructor(record: ExportToWrite, services: Pick<Services, 'storage' | 'config'>) {
    this.record = record;
    this.storage = services.storage;
    this.printer = new PdfPrinter({ chromiumPath: services.config.chromiumPath, storage: services.storage });
  }

  async add(output: LocaleOutput): Promise<void> {
    this.printer.addPage({
      html: output.html,
      heading: `${output.locale} · ${output.subject || '(no subject)'}`,
      subheading: output.preheader,
    });
  }

  async finish(): Promise<WrittenExport> {
    const key = exportFileKey(this.record, 'pdf');
    await this.storage.put(key, await this.printer.document(this.record.emailName), {
      contentType: 'application/pdf',
    });
    return { fileKey: key, openInIntegrationUrl: null };
  }

  close(): Promise<void> {
    return this.printer.close();
  }
}

/**
 * connector: each locale pushed to the sending platform (see `deliverToConnector`), all at once
 * at the end, so a platform that refuses the account is asked once, not once per locale. Locales
 * the platform refused fail the export with its words for each; the others stay delivered, and an
 * export with update_previous_export updates them next time.
 */
class ConnectorWriter implements ExportWriter {
  readonly countsLocales = true;
  private readonly outputs: LocaleOutput[] = [];
  private readonly record: ExportToWrite;
  private readonly services: WriterServices;
  private readonly reports: WriterProgress;

  constructor(record: ExportToWrite, services: WriterServices, reports: WriterProgress) {
    this.record = record;
    this.services = services;
    this.reports = reports;
  }

  async add(output: LocaleOutput): Promise<void> {
    this.outputs.push(output);
  }

  async finish(): Promise<WrittenExport> {
    const { connectorId, options } = this.record;
    if (connectorId === null) throw new ExportFailure('The export names no connector');
    const perLocale: NonNullable<DeliveryOptions['perLocale']> = {};
    for (const output of this.outputs) {
      perLocale[output.locale] = {
        resourceName: output.name,
        updatePreviousExport: options.per_locale_options?.[output.locale]?.update_previous_export ?? false,
      };
    }
    let done = 0;
    const { deliveries, openInIntegrationUrl } = await deliverToConnector(this.services, {
      organizationId: this.record.organizationId,
      connectorId,
      emailId: this.record.emailId,
      emails: this.outputs.map((output) => ({
        locale: output.locale,
        name: this.record.emailName,
        subject: output.subject,
        preheader: output.preheader,
        html: output.html,
        plainText: output.plain_text,
      })),
      options: {
        ...(options.campaign_id ? { campaignId: options.campaign_id } : {}),
        ...(options.folder_id ? { folderId: options.folder_id } : {}),
        perLocale,
      },
      onLocaleDone: () => {
        done += 1;
        return this.reports.progress(done);
      },
    });
    // What the platform took is there whatever it refused: the history says where.
    const delivered: DeliveredResources = {};
    for (const delivery of deliveries)
      if (delivery.ok)
        delivered[delivery.locale] = {
          external_id: delivery.externalId,
          resource_name: delivery.resourceName,
          updated: delivery.updated,
          open_url: delivery.openUrl,
        };
    if (Object.keys(delivered).length > 0) await this.reports.delivered(delivered);
    const refusals = Object.fromEntries(
      deliveries.flatMap((delivery) => (delivery.ok ? [] : [[delivery.locale, [delivery.error]]])),
    );
    if (Object.keys(refusals).length > 0)
      throw new ExportFailure('The platform refused some locales', refusals);
    return { fileKey: null, openInIntegrationUrl };
  }

  async close(): Promise<void> {}
}
