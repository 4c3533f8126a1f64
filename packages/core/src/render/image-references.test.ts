import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { imageUrlsIn, rewriteImageUrls } from './image-references.ts';

const stored = (name: string) => `https://letterset.example.com/files/images/1/${name}.png`;

describe('rewriteImageUrls', () => {
  it('rewrites src, srcset, background, poster and CSS url() in style attributes and style sheets', () => {
    const html = [
      '<style>.hero { background-image: url("https://a.test/bg.png"); }</style>',
      '<!--[if mso]><v:fill type="frame" src="https://a.test/bg.png" /><![endif]-->',
      '<td background="https://a.test/bg.png" style="background:#fff url(https://a.test/cell.png) no-repeat;">',
      '<img src="https://a.test/x.png" srcset="https://a.test/x.png 1x, https://a.test/x2.png 2x" alt="X">',
      "<video poster='https://a.test/poster.png'></video>",
      '<a href="https://a.test/x.png">full size</a>',
    ].join('\n');
    const rewritten = rewriteImageUrls(html, (url) => url.replace('https://a.test/', 'images/'));
    expect(rewritten).toBe(
      [
        '<style>.hero { background-image: url("images/bg.png"); }</style>',
        '<!--[if mso]><v:fill type="frame" src="images/bg.png" /><![endif]-->',
        '<td background="images/bg.png" style="background:#fff url(images/cell.png) no-repeat;">',
        '<img src="images/x.png" srcset="images/x.png 1x, images/x2.png 2x" alt="X">',
        "<video poster='images/poster.png'></video>",
        // A link to an image is not an image the email shows.
        '<a href="https://a.test/x.png">full size</a>',
      ].join('\n'),
    );
    expect(imageUrlsIn(html)).toEqual([
      'https://a.test/bg.png',
      'https://a.test/cell.png',
      'https://a.test/x.png',
      'https://a.test/x2.png',
      'https://a.test/poster.png',
    ]);
  });

  it('reads character references and writes the replacement encoded for its quotes', () => {
    const html = `<img src="https://a.test/x.png?a=1&amp;b=2"><div style="background-image:url(&quot;https://a.test/y.png&quot;)">`;
    expect(imageUrlsIn(html)).toEqual(['https://a.test/x.png?a=1&b=2', 'https://a.test/y.png']);
    expect(rewriteImageUrls(html, (url) => `${url}&c="3"`)).toBe(
      `<img src="https://a.test/x.png?a=1&amp;b=2&amp;c=&quot;3&quot;"><div style="background-image:url(&quot;https://a.test/y.png&amp;c=&quot;3&quot;&quot;)">`,
    );
  });

  it('leaves fonts and imported style sheets alone', () => {
    const html =
      '<style>@import url("https://fonts.test/css"); @font-face { font-family: X; src: url(https://fonts.test/x.woff2); } p { background: url(https://a.test/p.png) }</style>';
    expect(imageUrlsIn(html)).toEqual(['https://a.test/p.png']);
  });

  it('changes nothing in any text when the replacer keeps every URL', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        expect(rewriteImageUrls(text, () => undefined)).toBe(text);
      }),
    );
  });

  // Generated emails: image references to stored and external pictures among links, text and tags.
  const name = fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/);
  const url = fc.oneof(
    name.map((value) => ({ url: stored(value), stored: true })),
    name.map((value) => ({ url: `https://cdn.elsewhere.test/${value}.jpg`, stored: false })),
  );
  const fragment = fc.oneof(
    url.map((image) => ({ html: `<img src="${image.url}" alt="">`, images: [image] })),
    url.map((image) => ({ html: `<img alt='' src='${image.url}' width=600>`, images: [image] })),
    url.map((image) => ({ html: `<td background="${image.url}">`, images: [image] })),
    url.map((image) => ({
      html: `<div style="background-image: url('${image.url}'); color: #111">`,
      images: [image],
    })),
    fc
      .tuple(url, url)
      .map(([a, b]) => ({ html: `<img src="${a.url}" srcset="${a.url} 1x, ${b.url} 2x">`, images: [a, b] })),
    url.map((image) => ({ html: `<style>.x{background:url(${image.url})}</style>`, images: [image] })),
    // Not images: a link to a picture, and its address as text.
    url.map((image) => ({ html: `<a href="${image.url}">${image.url}</a>`, images: [] })),
    fc.stringMatching(/^[a-zA-Z0-9 .,!?]{0,20}$/).map((text) => ({ html: `<p>${text}</p>`, images: [] })),
  );

  it('rewrites every stored image URL wherever it is shown, once per image, and nothing else', () => {
    fc.assert(
      fc.property(fc.array(fragment, { maxLength: 12 }), (fragments) => {
        const html = fragments.map((part) => part.html).join('\n');
        const packed = new Map<string, string>();
        const rewritten = rewriteImageUrls(html, (value) => {
          if (!value.startsWith('https://letterset.example.com/files/')) return undefined;
          const relative = packed.get(value) ?? `images/${value.split('/').pop()}`;
          packed.set(value, relative);
          return relative;
        });
        const shown = fragments.flatMap((part) => part.images);
        const storedShown = new Set(shown.filter((image) => image.stored).map((image) => image.url));
        // Each stored image packed once, and none shown any more by its stored URL.
        expect(new Set(packed.keys())).toEqual(storedShown);
        const after = imageUrlsIn(rewritten);
        for (const value of after) expect(value.startsWith('https://letterset.example.com/')).toBe(false);
        // External pictures stay as they are.
        for (const image of shown) if (!image.stored) expect(after).toContain(image.url);
        // Nothing else changed: putting the stored URLs back gives the original, byte for byte.
        const back = new Map([...packed].map(([original, relative]) => [relative, original]));
        expect(rewriteImageUrls(rewritten, (value) => back.get(value))).toBe(html);
      }),
      { numRuns: 300 },
    );
  });
});
