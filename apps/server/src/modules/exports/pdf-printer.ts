import { access, constants } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { escapeHtml } from '@letterset/core';
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

export interface PdfPage {
  html: string;
  /** Shown in a band above the email: which locale this page is. */
  heading: string;
  subheading: string;
}

/**
 * Every email on a sheet of its own in one document: the band naming the locale, then the email in
 * a frame (its styles stay its own), loaded by `loadFrames`. Each sheet is a named page, sized once
 * the frames have loaded. The files of this server's storage that the emails show load first, once.
 */
function sheetsDocument(title: string, pages: readonly PdfPage[], preloaded: readonly string[]): string {
  const sheets = pages.map(
    (page, index) => `<section class="sheet" style="page: sheet-${index}">
<div class="band"><strong>${escapeHtml(page.heading)}</strong><div>${escapeHtml(page.subheading)}</div></div>
<iframe title="${escapeHtml(page.heading)}" data-email="${escapeHtml(page.html)}"></iframe>
</section>`,
  );
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>
html, body { margin: 0; padding: 0; background: #fff; }
.sheet { width: ${pageWidthPx}px; overflow: hidden; break-after: page; }
.band { font: 12px/1.5 Helvetica, Arial, sans-serif; color: #1f2933; background: #f3f4f6; padding: 8px 16px; border-bottom: 1px solid #d0d5db; text-align: left; direction: ltr; }
iframe { display: block; width: ${pageWidthPx}px; height: 0; border: 0; }
</style></head><body>
<div hidden>${preloaded.map((url) => `<img src="${escapeHtml(url)}" alt="">`).join('')}</div>
${sheets.join('\n')}</body></html>`;
}

/**
 * Runs in the page once its own files have loaded: loads the emails into their frames and answers
 * when all have loaded, or fails after `timeoutMs`. Loaded after the files, every frame finds them
 * in Chromium's cache: loaded together, each frame asked for each file again.
 */
const loadFrames = `function (timeoutMs) {
  const frames = [...document.querySelectorAll('iframe[data-email]')];
  const loaded = Promise.all(frames.map((frame) => new Promise((resolve) => {
    frame.addEventListener('load', resolve, { once: true });
    frame.srcdoc = frame.dataset.email;
  })));
  const late = new Promise((_, reject) =>
    setTimeout(() => reject(new Error('Timeout: the emails did not load within ' + timeoutMs + ' ms')), timeoutMs));
  return Promise.race([loaded, late]);
}`;

/**
 * Runs in the page once every frame has loaded: each frame as tall as its email, and each sheet a
 * page as tall as its band and email (at most `maxHeight`).
 * (Browser code, kept as text: the server is not compiled against the DOM.)
 */
const sizeSheets = `function (maxHeight) {
  const rules = [];
  document.querySelectorAll('.sheet').forEach((sheet, index) => {
    const frame = sheet.querySelector('iframe');
    const email = frame.contentDocument;
    const emailHeight = Math.ceil(Math.max(email.documentElement.scrollHeight, email.body ? email.body.scrollHeight : 0));
    frame.style.height = emailHeight + 'px';
    const height = Math.min(sheet.querySelector('.band').offsetHeight + emailHeight + 2, maxHeight);
    sheet.style.height = height + 'px';
    rules.push('@page sheet-' + index + ' { size: ${pageWidthPx}px ' + height + 'px; margin: 0; }');
  });
  const style = document.createElement('style');
  style.textContent = rules.join(' ');
  document.head.append(style);
}`;

/** The URLs of `html` under `base` (in attributes and CSS), as the browser will ask for them. */
function urlsUnder(base: string, html: string): string[] {
  const pattern = new RegExp(`${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[^"'()\\s<>]+`, 'g');
  return [...html.matchAll(pattern)].map((match) => match[0].replaceAll('&amp;', '&'));
}

/**
 * The files of this server's storage that the emails show, over loopback, for the printing tab:
 * they show whether or not the public URL is reachable from here, and Chromium caches each (keys
 * never change) instead of asking again for every locale, as it did when the tab's requests were
 * intercepted. Only `keys` are served: nothing else of the storage is reachable through it.
 */
async function serveStorage(
  storage: FileStorage,
  keys: ReadonlySet<string>,
): Promise<{ origin: string; close(): Promise<void> }> {
  const server = createServer(async (request, response) => {
    const key = new URL(request.url ?? '/', 'http://loopback').pathname.slice(1);
    const file = keys.has(key) ? await storage.get(key).catch(() => null) : null;
    if (!file) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, {
      'content-type': file.contentType,
      'content-length': file.size,
      'cache-control': 'max-age=31536000, immutable',
    });
    file.body.on('error', () => response.destroy()).pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * Prints emails to PDF pages with Chromium (headless, through playwright-core), one page per
 * email, as tall as the email. All the pages are printed together from one document: a document
 * per page cost a load, a layout and a print pass each, and merging their PDFs after.
 */
export class PdfPrinter {
  private browser: Browser | null = null;
  private tab: Promise<Page> | null = null;
  private storageServer: Promise<{ origin: string; close(): Promise<void> }> | null = null;
  private readonly pages: PdfPage[] = [];
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

  private openTab(): Promise<Page> {
    this.tab ??= this.launch().then(async (browser) => {
      const tab = await browser.newPage({ viewport: { width: pageWidthPx, height: 800 } });
      await tab.emulateMedia({ media: 'screen' });
      return tab;
    });
    return this.tab;
  }

  /**
   * Starts Chromium with the first page, and goes on without waiting for it: the other locales
   * render meanwhile. A Chromium that cannot start fails the document.
   */
  addPage(page: PdfPage): void {
    this.pages.push(page);
    this.openTab().catch(() => {});
  }

  /** One PDF of every page added, in order. */
  async document(title: string): Promise<Buffer> {
    const tab = await this.openTab();
    const probe = 'images/probe';
    const storageBase = this.options.storage.publicUrl(probe).slice(0, -probe.length);
    const storageKeys = new Set(
      this.pages.flatMap((page) =>
        urlsUnder(storageBase, page.html).map((url) => url.slice(storageBase.length)),
      ),
    );
    this.storageServer ??= serveStorage(this.options.storage, storageKeys);
    const { origin } = await this.storageServer;
    const pages = this.pages.map((page) => ({ ...page, html: page.html.replaceAll(storageBase, origin) }));
    const storageFiles = [...storageKeys].map((key) => `${origin}${key}`);
    // Each page has the time it had when pages were printed one by one.
    const timeout = (this.options.timeoutMs ?? 30_000) * Math.max(1, pages.length);
    await tab.setContent(sheetsDocument(title, pages, storageFiles), { waitUntil: 'load', timeout });
    await tab.evaluate(`(${loadFrames})(${timeout})`);
    await tab.evaluate(`(${sizeSheets})(${maxPageHeightPx})`);
    return Buffer.from(await tab.pdf({ preferCSSPageSize: true, printBackground: true }));
  }

  async close(): Promise<void> {
    // The tab being opened holds the browser once it has started.
    await this.tab?.catch(() => {});
    const browser = this.browser;
    const storageServer = this.storageServer;
    this.browser = null;
    this.tab = null;
    this.storageServer = null;
    await Promise.all([browser?.close(), storageServer?.then((server) => server.close())]);
  }
}
