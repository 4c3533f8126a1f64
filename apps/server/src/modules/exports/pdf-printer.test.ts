import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { LocalFileStorage } from '../../storage/local-file-storage.ts';
import { solidImage } from '../../test/images.ts';
import { PdfPrinter } from './pdf-printer.ts';

const chromiumPath = '/usr/bin/chromium';
const canPrint = (() => {
  if (!existsSync(chromiumPath)) return false;
  try {
    execFileSync('pdftotext', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

async function printerWithStorage(timeoutMs = 10_000) {
  const dir = await mkdtemp(path.join(tmpdir(), 'letterset-pdf-printer-'));
  return new PdfPrinter({
    chromiumPath,
    storage: new LocalFileStorage({ dir, publicBaseUrl: 'http://127.0.0.1:9/files' }),
    timeoutMs,
  });
}

/** The text of each page of a PDF, in order. */
async function pageTexts(pdf: Buffer): Promise<string[]> {
  const folder = await mkdtemp(path.join(tmpdir(), 'letterset-pdf-text-'));
  const file = path.join(folder, 'document.pdf');
  await writeFile(file, pdf);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' })
    .split('\f')
    .filter((text) => text.trim() !== '');
}

describe.skipIf(!canPrint)('PdfPrinter', () => {
  it('keeps pages in the order they were added, each as tall as its email', async () => {
    const printer = await printerWithStorage();
    try {
      // Long pages first: a printer that printed pages side by side would finish later ones first.
      const count = 9;
      for (let index = 0; index < count; index++) {
        const paragraphs = '<p>Lorem ipsum dolor sit amet.</p>'.repeat((count - index) * 40);
        printer.addPage({
          html: `<html><body><h1>Page ${index + 1} of the test</h1>${paragraphs}</body></html>`,
          heading: `Locale ${index + 1}`,
          subheading: `Preheader ${index + 1}`,
        });
      }
      const pdf = await printer.document('Ordered');
      const texts = await pageTexts(pdf);
      expect(texts).toHaveLength(count);
      const document = await PDFDocument.load(pdf);
      expect(document.getTitle()).toBe('Ordered');
      const heights = document.getPages().map((page) => page.getHeight());
      expect(heights).toEqual([...heights].sort((a, b) => b - a));
      expect(new Set(heights).size).toBe(count);
      for (const [index, text] of texts.entries()) {
        expect(text).toContain(`Locale ${index + 1}`);
        expect(text).toContain(`Page ${index + 1} of the test`);
      }
    } finally {
      await printer.close();
    }
  }, 60_000);

  it('shows the images of its storage on every page, read from storage once', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'letterset-pdf-printer-'));
    const storage = new LocalFileStorage({ dir, publicBaseUrl: 'http://127.0.0.1:9/files' });
    await storage.put('images/1/logo.png', await solidImage(40, 40).png().toBuffer());
    const reads: string[] = [];
    const read = storage.get.bind(storage);
    storage.get = (key) => {
      reads.push(key);
      return read(key);
    };
    const printer = new PdfPrinter({ chromiumPath, storage, timeoutMs: 10_000 });
    try {
      const logo = storage.publicUrl('images/1/logo.png');
      for (const locale of ['en-US', 'de-DE', 'fr-FR', 'es-ES']) {
        printer.addPage({
          html: `<html><body><img src="${logo}" width="40" height="40" alt="Logo"><p>${locale}</p></body></html>`,
          heading: locale,
          subheading: '',
        });
      }
      const pdf = await printer.document('Logos');
      expect(reads).toEqual(['images/1/logo.png']);
      const folder = await mkdtemp(path.join(tmpdir(), 'letterset-pdf-images-'));
      const file = path.join(folder, 'document.pdf');
      await writeFile(file, pdf);
      const imagePages = execFileSync('pdfimages', ['-list', file], { encoding: 'utf8' })
        .split('\n')
        .slice(2)
        .filter((line) => line.trim() !== '')
        .map((line) => Number(line.trim().split(/\s+/)[0]));
      expect(new Set(imagePages)).toEqual(new Set([1, 2, 3, 4]));
    } finally {
      await printer.close();
    }
  }, 60_000);

  it('fails when a page does not load in time', async () => {
    // No page loads within a millisecond.
    const printer = await printerWithStorage(1);
    try {
      printer.addPage({ html: '<p>First</p>', heading: 'First', subheading: '' });
      await expect(printer.document('Too slow')).rejects.toThrow(/Timeout/i);
    } finally {
      await printer.close();
    }
  }, 60_000);
});
