import { access, constants } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import type { FileStorage } from '../../storage/file-storage.ts';

/** A failure that will not go away by trying again: the export fails with this message at once. */
export class ExportFailure extends Error {
  /** What went wrong per locale, when the failure is one locale's and not the export's as a whole. */
  readonly localeErrors: Record<string, string[]> | null;

  constructor(message: string, localeErrors: Record<string, string[]> | null = null) {
    super(message);
    this.name = 'ExportFailure';
    this.localeErrors = localeErrors;
  }
}

/** Without these, Chromium reaches for update and sync services a closed network refuses (stack notes). */
const chromiumFlags = [
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** Emails are 600 px wide; a little room around them. */
const pageWidthPx = 800;
/** PDF pages end at 200 inches (19,200 CSS px); a longer email is cut there. */
const maxPageHeightPx = 19_000;

/**
 * Runs in the page: puts a band naming the locale above the email, and answers the page's height.
 * (Browser code, kept as text: the server is not compiled against the DOM.)
 */
const addLocaleBand = `function (heading, subheading) {
  const band = document.createElement('div');
  band.setAttribute('style', 'font: 12px/1.5 Helvetica, Arial, sans-serif; color: #1f2933; background: #f3f4f6; padding: 8px 16px; border-bottom: 1px solid #d0d5db; text-align: left; direction: ltr;');
  const title = document.createElement('strong');
  title.textContent = heading;
  const detail = document.createElement('div');
  detail.textContent = subheading;
  band.append(title, detail);
  document.body.prepend(band);
  return Math.ceil(Math.max(document.documentElement.scrollHeight, document.body.scrollHeight));
}`;

export interface PdfPage {
  html: string;
  /** Shown in a band above the email: which locale this page is. */
  heading: string;
  subheading: string;
}

/**
 * Prints emails to PDF pages with Chromium (headless, through playwright-core), one page per
 * email, as tall as the email. Files of this server's storage are served from storage directly,
 * so library images show whether or not the public URL is reachable from here.
 */
export class PdfPrinter {
  private browser: Browser | null = null;
  private tab: Page | null = null;
  private readonly pages: Uint8Array[] = [];
  private readonly options: { chromiumPath: string; storage: FileStorage; timeoutMs?: number };

  constructor(options: { chromiumPath: string; storage: FileStorage; timeoutMs?: number }) {
    this.options = options;
  }

  private async launch(): Promise<Browser> {
    if (this.browser) return this.browser;
    const path = this.options.chromiumPath;
    try {
      await access(path, constants.X_OK);
    } catch {
      throw new ExportFailure(
        `PDF exports need Chromium, and there is none at ${path}: install Debian's chromium package, or set CHROMIUM_PATH`,
      );
    }
    // Loaded here, not with the server: it takes about 1 s to load and only PDF exports use it.
    const { chromium } = await import('playwright-core');
    try {
      this.browser = await chromium.launch({ executablePath: path, headless: true, args: chromiumFlags });
    } catch (error) {
      const reason = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
      throw new ExportFailure(`Chromium at ${path} could not be started for the PDF: ${reason}`);
    }
    return this.browser;
  }

  /** One tab prints every page: files of this server's storage are answered from storage. */
  private async openTab(): Promise<Page> {
    if (this.tab) return this.tab;
    const browser = await this.launch();
    const tab = await browser.newPage({ viewport: { width: pageWidthPx, height: 800 } });
    const storage = this.options.storage;
    const probe = 'images/probe';
    const storageBase = storage.publicUrl(probe).slice(0, -probe.length);
    const basePath = new URL(storageBase).pathname;
    await tab.route(`${storageBase}**`, async (route) => {
      const key = decodeURIComponent(new URL(route.request().url()).pathname).slice(basePath.length);
      const file = await storage.get(key).catch(() => null);
      if (!file) return route.fulfill({ status: 404, body: '' });
      return route.fulfill({
        status: 200,
        body: Buffer.concat(await file.body.toArray()),
        contentType: file.contentType,
      });
    });
    await tab.emulateMedia({ media: 'screen' });
    this.tab = tab;
    return tab;
  }

  async addPage(page: PdfPage): Promise<void> {
    const tab = await this.openTab();
    await tab.setContent(page.html, { waitUntil: 'load', timeout: this.options.timeoutMs ?? 30_000 });
    const height = await tab.evaluate<number>(
      `(${addLocaleBand})(${JSON.stringify(page.heading)}, ${JSON.stringify(page.subheading)})`,
    );
    this.pages.push(
      await tab.pdf({
        width: `${pageWidthPx}px`,
        height: `${Math.min(height + 2, maxPageHeightPx)}px`,
        printBackground: true,
        pageRanges: '1',
        margin: { top: '0', right: '0', bottom: '0', left: '0' },
      }),
    );
  }

  /** One PDF of every page printed, in order. */
  async document(title: string): Promise<Buffer> {
    // Like playwright-core, loaded by the first PDF rather than by every start.
    const { PDFDocument } = await import('pdf-lib');
    const merged = await PDFDocument.create();
    merged.setTitle(title);
    merged.setCreator('Letterset');
    for (const bytes of this.pages) {
      const single = await PDFDocument.load(bytes);
      for (const copied of await merged.copyPages(single, single.getPageIndices())) merged.addPage(copied);
    }
    return Buffer.from(await merged.save());
  }

  async close(): Promise<void> {
    const browser = this.browser;
    this.browser = null;
    this.tab = null;
    await browser?.close();
  }
}
