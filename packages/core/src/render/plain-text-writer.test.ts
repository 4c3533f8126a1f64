import { type ChildNode, type Document, type Element, hasChildren } from 'domhandler';
import fc from 'fast-check';
import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import type { ComponentInstance } from '../content/types.ts';
import { definitionsFromImport, starterDesignSystem } from '../starter/index.ts';
import { inlineCssKeepingDocument } from './inline-css.ts';
import { htmlToTextUntidied, toPlainText, toPlainTextOfDocument } from './plain-text.ts';
import { plainTextOfDocument } from './plain-text-writer.ts';
import { render } from './render-email.ts';
import { serializeHtml } from './serialize-html.ts';

/**
 * The writer must give html-to-text's answer, byte for byte and before the lines are tidied, for
 * the document as `inline-css.ts` parses it (entities left as written) against the HTML that
 * document serializes to (what a rendering's `html` is). `viaWriter` also proves the writer did
 * the work (it did not hand the document to html-to-text), so a divergence cannot hide behind the
 * fall-back.
 */
function expectSameAsHtmlToText(html: string, { viaWriter = true } = {}): string | null {
  const document = parseDocument(html, { decodeEntities: false });
  return expectDocumentSameAsHtmlToText(document, { viaWriter });
}

function expectDocumentSameAsHtmlToText(document: Document, { viaWriter = true } = {}): string | null {
  const serialized = serializeHtml(document.children);
  const written = plainTextOfDocument(document);
  expect(written !== null).toBe(viaWriter);
  if (written !== null) expect(written).toBe(htmlToTextUntidied(serialized));
  expect(toPlainTextOfDocument(serialized, document)).toBe(toPlainText(serialized));
  return written;
}

/** The tidied text, after checking the writer against html-to-text. */
function plain(html: string): string {
  expectSameAsHtmlToText(html);
  return toPlainText(html);
}

describe('plain-text writer: blocks and whitespace', () => {
  it('separates paragraphs by a blank line and divs by a line break', () => {
    expect(plain('<p>one</p><p>two</p><div>three</div><div>four</div>')).toBe('one\n\ntwo\n\nthree\nfour');
    expect(plain('<div>a<div>b<p>c</p>d</div>e</div>')).toBe('a\nb\n\nc\n\nd\ne');
  });

  it('adds the line breaks of empty blocks, as html-to-text does', () => {
    expectSameAsHtmlToText('<p>a</p><p></p><p> </p><div></div><p>b</p>');
    expectSameAsHtmlToText('<div><p></p></div>x<table><tr><td></td></tr></table>y');
    expectSameAsHtmlToText('<p></p><div></div>first');
  });

  it('collapses runs of html whitespace, keeps &nbsp; and other spaces as parts of words', () => {
    expect(plain('<p>  a \t\n b\r\n\fc \u200b d  </p>')).toBe('a b c d');
    expect(plain('<p>a&nbsp;&nbsp;b&#8199;c\u3000d</p>')).toBe('a\u00a0\u00a0b\u2007c\u3000d');
    expectSameAsHtmlToText('<p> <span> a </span><b>b</b> <i> </i>c<span></span>d </p>');
    expectSameAsHtmlToText('x<span> </span><div> y</div> <span>z</span>');
  });

  it('formats headings: h1–h3 as written, h4–h6 uppercased', () => {
    expect(plain('<p>x</p><h1>Title one</h1><h2>Two</h2><h3>three</h3><p>y</p>')).toBe(
      'x\n\nTitle one\n\nTwo\n\nthree\n\ny',
    );
    expect(plain('<h4>four <a href="https://e.com/Path">link</a></h4><h5>straße</h5><h6>six</h6>')).toBe(
      'FOUR LINK [https://e.com/Path]\n\nSTRASSE\n\nSIX',
    );
  });

  it('formats tables, rows and cells as blocks, nested tables too', () => {
    expect(
      plain(
        '<table><tr><td>a</td><td>b</td></tr><tr><th>h</th></tr></table><table><tr><td><table><tr><td>in</td></tr></table>after</td></tr></table>',
      ),
    ).toBe('a\n\nb\n\nh\n\nin\n\nafter');
    expectSameAsHtmlToText(
      '<table role="presentation"><tbody><tr>\n<td>\n<table><tr><td> x </td><td></td></tr></table>\n</td>\n</tr></tbody><tfoot><tr><td colspan="2">f</td></tr></tfoot></table>',
    );
  });

  it('keeps <pre> as written, with line breaks and inline markup', () => {
    expect(
      plain('<p>a</p><pre>  one\n    two <b>bold</b>\n\n<a href="https://e.com">l</a><br>x</pre>b'),
    ).toBe('a\n\n  one\n    two bold\n\nlhttps://e.com\nx\n\nb');
    expectSameAsHtmlToText('<pre><p>para in pre</p><ul><li> item  one </li></ul><hr></pre>');
  });

  it('breaks lines at <br>, and between words at <wbr> when the next part does not fit', () => {
    expect(plain('a<br>b<br><br>c<br>')).toBe('a\nb\n\nc');
    expectSameAsHtmlToText(`<p>${'x'.repeat(70)}<wbr>${'y'.repeat(10)}</p><p>${'x'.repeat(5)}<wbr>yy</p>`);
    expectSameAsHtmlToText('<p><br></p><p>a<br> b <br>  </p><div><br><br>c</div>');
  });

  it('draws <hr> as 78 dashes, even where lines are shorter', () => {
    expect(plain('a<hr>b')).toBe(`a\n\n${'-'.repeat(78)}\n\nb`);
    expectSameAsHtmlToText('<ul><li><hr></li></ul><blockquote><hr></blockquote>');
  });

  it('quotes <blockquote> lines, nested ones twice', () => {
    expect(plain('<blockquote>one <p>two</p><blockquote>three</blockquote></blockquote>')).toBe(
      '> one\n>\n> two\n>\n> > three',
    );
    expectSameAsHtmlToText(`<blockquote><p></p>${'word '.repeat(40)}</blockquote>`);
  });

  it('writes an empty body, and text without any markup', () => {
    expect(expectSameAsHtmlToText('<html><head><title>T</title></head><body></body></html>')).toBe('');
    expect(expectSameAsHtmlToText('<body>   </body>')).toBe('');
    expect(expectSameAsHtmlToText('')).toBe('');
    expect(expectSameAsHtmlToText('just  some\ntext &amp; more')).toBe('just some text & more');
    // Output that is already plain text is kept as written (the templates' plaintext branches).
    const text = 'Hello\n\n\n\nShop now: https://e.com/?a=1&b=2   \n';
    expect(toPlainTextOfDocument(text, parseDocument(text, { decodeEntities: false }))).toBe(
      'Hello\n\nShop now: https://e.com/?a=1&b=2',
    );
  });

  it('reads only the outermost <body> elements when there are any, everything otherwise', () => {
    expect(plain('<html><head><title>Not this</title></head><body><p>this</p></body></html>')).toBe('this');
    expect(plain('<title>T</title><p>no body</p><style>p{}</style><script>x()</script>')).toBe(
      'T\n\nno body',
    );
    expectSameAsHtmlToText('<div>before</div><body>one<div><body>nested</body></div></body>after');
  });

  it('skips scripts, styles and comments', () => {
    expect(plain('<body><style>.a{}</style>a<!-- note --><script>var x = "<p>";</script>b</body>')).toBe(
      'ab',
    );
    expectSameAsHtmlToText('<body><!--[if mso]><table><tr><td>mso</td></tr></table><![endif]-->x</body>');
  });
});

describe('plain-text writer: links', () => {
  it('writes "text [url]", and the URL alone for a link without text', () => {
    expect(plain('<p>Read <a href="https://e.com/a">the story</a>.</p>')).toBe(
      'Read the story [https://e.com/a].',
    );
    expect(plain('<a href="https://e.com/i"><img src="x.png" alt="Logo"></a>')).toBe('https://e.com/i');
    // The URL takes the place of the text, without the space that followed it (html-to-text's way).
    expect(plain('<a href="https://e.com/i"> <span> </span> </a>next')).toBe('https://e.com/inext');
    expect(plain('<a href="https://e.com/i"><img src="x.png"></a> next')).toBe('https://e.com/i next');
  });

  it('writes a link whose text is its URL once, without the bracketed URL', () => {
    expect(plain('<p>Visit <a href="https://x.com">https://x.com</a> today</p>')).toBe(
      'Visit https://x.com today',
    );
    expect(plain('<a href="https://x.com/a?b=1&amp;c=2">https://x.com/a?b=1&amp;c=2</a>')).toBe(
      'https://x.com/a?b=1&c=2',
    );
    // The address of a mailto: link is compared without the mailto:.
    expect(plain('<a href="mailto:team@x.com">team@x.com</a>')).toBe('team@x.com');
    // Whitespace around the text does not count, nor do the elements the text is split over.
    expect(plain('<a href="https://x.com">\n  https://x.com  </a>.')).toBe('https://x.com .');
    expect(plain('<a href="https://x.com"><b>https://</b><span>x.com</span></a>')).toBe('https://x.com');
  });

  it('keeps the bracketed URL when the text differs from it in any way', () => {
    expect(plain('<a href="https://x.com/">https://x.com</a>')).toBe('https://x.com [https://x.com/]');
    expect(plain('<a href="https://x.com">https://x.com/</a>')).toBe('https://x.com/ [https://x.com]');
    expect(plain('<a href="https://X.com">https://x.com</a>')).toBe('https://x.com [https://X.com]');
    expect(plain('<a href="https://x.com">x.com</a>')).toBe('x.com [https://x.com]');
    expect(plain('<a href="https://x.com">Our site</a>')).toBe('Our site [https://x.com]');
    // Text that spells the mailto: out is not the address html-to-text compares with.
    expect(plain('<a href="mailto:team@x.com">mailto:team@x.com</a>')).toBe('mailto:team@x.com [team@x.com]');
    expect(plain('<a href="MAILTO:team@x.com">team@x.com</a>')).toBe('team@x.com [MAILTO:team@x.com]');
  });

  it('compares the text as html-to-text collects it: words joined without spaces, case before h4–h6 uppercase it', () => {
    // html-to-text's quirk: the words of the text are joined without the spaces between them.
    expect(plain('<a href="ab">a b</a>')).toBe('a b');
    // A link inside an h4 sees its words before the heading uppercases them; one around it, after.
    expect(plain('<h4><a href="https://x.com">https://x.com</a></h4>')).toBe('HTTPS://X.COM');
    expect(plain('<a href="https://x.com"><h4>https://x.com</h4></a>')).toBe(
      'HTTPS://X.COM\n\n[https://x.com]',
    );
    expect(plain('<a href="HTTPS://X.COM"><h4>https://x.com</h4></a>')).toBe('HTTPS://X.COM');
    // A nested link's URL is not part of the outer link's text; its words are.
    expectSameAsHtmlToText('<a href="https://x.com">https://<a href="x.com">x.com</a></a>');
    expectSameAsHtmlToText('<a href="https://x.comx.com">https://<a href="x.com">x.com</a>x.com</a>');
    // An image alt is not text; <pre> text goes around the word transforms.
    expect(plain('<a href="x"><img src="i.png" alt="x"></a>')).toBe('x');
    expectSameAsHtmlToText('<a href="https://x.com"><pre>https://x.com</pre></a>');
  });

  it('drops mailto:, and writes only the text of #fragment links and links without a URL', () => {
    expect(plain('<a href="mailto:team@e.com">Write to us</a>')).toBe('Write to us [team@e.com]');
    expect(plain('<a href="MAILTO:team@e.com">Caps</a>')).toBe('Caps [MAILTO:team@e.com]');
    expect(plain('<a href="mailto:">empty</a> <a href="#top">Top</a> <a href="">none</a> <a>bare</a>')).toBe(
      'empty Top none bare',
    );
  });

  it('decodes entities in URLs as an attribute, and splits URLs with spaces into words', () => {
    expect(plain('<a href="https://e.com/?a=1&amp;b=2&copy=3&lt">x</a>')).toBe(
      'x [https://e.com/?a=1&b=2&copy=3<]',
    );
    expect(plain('<a href="https://e.com/a b">x</a>')).toBe('x [https://e.com/a b]');
    expectSameAsHtmlToText(
      `<p>${'w '.repeat(37)}<a href="https://e.com/a%20${'b'.repeat(80)}">x</a> after</p>`,
    );
  });

  it('writes nested links and links around blocks as html-to-text does', () => {
    expectSameAsHtmlToText('<a href="https://outer.com">out <a href="https://inner.com">in</a> tail</a>');
    expectSameAsHtmlToText('<a href="https://e.com"><img src="x"><a href="https://f.com">f</a></a>');
    expectSameAsHtmlToText('<a href="https://e.com"><p>block</p><hr></a><a href="https://g.com"><hr></a>');
    expectSameAsHtmlToText('<a href="https://e.com"><pre>pre text</pre></a>');
  });
});

describe('plain-text writer: lists', () => {
  it('writes bullets, and nested lists indented under their item', () => {
    expect(plain('<p>x</p><ul><li>one</li><li>two<ul><li>a</li><li>b</li></ul></li></ul><p>y</p>')).toBe(
      'x\n\n * one\n * two\n   * a\n   * b\n\ny',
    );
  });

  it('numbers ordered lists from start, with each type of marker', () => {
    expect(plain('<ol><li>a</li><li>b</li></ol>')).toBe('1. a\n 2. b');
    expect(plain('<ol start="9"><li>a</li><li>b</li></ol>')).toBe('9.  a\n 10. b');
    expect(plain('<ol type="a" start="26"><li>z</li><li>aa</li></ol>')).toBe('z.  z\n aa. aa');
    expect(plain('<ol type="A"><li>x</li></ol>')).toBe('A. x');
    expect(plain('<ol type="i" start="3"><li>x</li><li>y</li></ol>')).toBe('iii. x\n iv.  y');
    expect(plain('<ol type="I" start="1994"><li>x</li></ol>')).toBe('MCMXCIV. x');
    for (const attributes of ['start="0"', 'start="-2"', 'start="abc"', 'start=""', 'type="i" start="0"']) {
      expectSameAsHtmlToText(`<ol ${attributes}><li>x</li><li>y</li></ol>`);
    }
    expectSameAsHtmlToText('<ol type="a" start="0"><li>x</li></ol><ol type="i" start="2.5"><li>y</li></ol>');
  });

  it('wraps long items under their text, not under the marker', () => {
    expectSameAsHtmlToText(
      `<ul><li>${'word '.repeat(40)}</li></ul><ol start="98"><li>${'n '.repeat(60)}</li></ol>`,
    );
  });

  it('writes text, comments, hidden items and other elements in a list as html-to-text does', () => {
    expectSameAsHtmlToText(
      '<ul> text <li>a</li><!-- c --><li style="display:none">h</li><p>p</p><li>b</li></ul>',
    );
    expectSameAsHtmlToText('<ul>&nbsp;<li>a</li> &#32; </ul><ul> </ul><ol><!-- only --></ol>x');
    expectSameAsHtmlToText(
      '<ul><li><ol><li>nested ordered</li></ol></li><li><div><ul><li>deep</li></ul></div></li></ul>',
    );
  });

  it('reads adjacent text nodes (a removed <style> between them) as the one text they serialize to', () => {
    const document = parseDocument('<ul>a<style>x</style>b<li>i</li></ul><p>&am<style>y</style>p; c</p>', {
      decodeEntities: false,
    });
    const styles: Element[] = [];
    const visit = (nodes: readonly ChildNode[]) => {
      for (const node of nodes) {
        if (node.type === 'style') styles.push(node as Element);
        if (hasChildren(node)) visit(node.children);
      }
    };
    visit(document.children);
    expect(styles).toHaveLength(2);
    for (const style of styles) {
      const siblings = style.parent?.children ?? [];
      siblings.splice(siblings.indexOf(style), 1);
    }
    const written = expectDocumentSameAsHtmlToText(document);
    expect(written).toContain('   ab\n * i');
    expect(written).toContain('& c');
  });
});

describe('plain-text writer: skipped and hidden elements', () => {
  it('leaves out images and elements hidden with display: none', () => {
    expect(
      plain(
        '<p>a<img src="x.png" alt="alt">b</p><div style="display:none">hidden</div><span style="color: red; display: none !important">h2</span><td style="mso-hide: all; display:none">h3</td>c',
      ),
    ).toBe('ab\n\nc');
  });

  it('matches display: none as html-to-text does: case-sensitively, after decoding entities', () => {
    expect(plain('<p style="DISPLAY:NONE">upper</p><p style="display:&#32;none">entity</p>')).toBe('upper');
    expect(plain('<p style="display:  none">two spaces</p><p style="display :none">x</p>')).toBe(
      'two spaces\n\nx',
    );
    expect(plain('<body style="display:none"><p>all hidden</p></body>')).toBe('');
  });
});

describe('plain-text writer: entities', () => {
  it('decodes text entities as html-to-text’s parser does', () => {
    expect(plain('<p>&amp; &lt;&gt; &quot;&#39;&#x27; &copy; &euro;&hellip;</p>')).toBe("& <> \"'' © €…");
    // Legacy entities without a semicolon, numeric references the parser replaces, and no entity.
    expect(plain('<p>&amp &ampx &notit; &notin; &noti &#0; &#128; &#x110000; &foo; &; &# &#x; a&b</p>')).toBe(
      '& &x ¬it; ∉ ¬i \ufffd € \ufffd &foo; &; &# &#x; a&b',
    );
    expectSameAsHtmlToText('<p>&&amp;&amp&amp;&#38;#38;&lt</p>end&amp');
    expectSameAsHtmlToText('<p>x&nbsp</p><p>&NotNestedLessLess; &nbsp;&nbsp; &zwnj;&zwj;&#8203;</p>');
  });

  it('leaves <textarea> and <xmp> text as written and decodes <title> text, as that parser does', () => {
    expect(
      plain('<body><textarea>a &amp; b</textarea><xmp>c &lt; d</xmp><title>e &amp; f</title></body>'),
    ).toBe('a &amp; bc &lt; de & f');
  });
});

describe('plain-text writer: wrapping at 78 columns', () => {
  const word = (length: number, letter = 'x') => letter.repeat(length);

  it('fills a line to exactly 78 characters, and moves the next word down', () => {
    const line78 = `${word(38)} ${word(39)}`;
    expect(line78).toHaveLength(78);
    expect(plain(`<p>${line78} next</p>`)).toBe(`${line78}\nnext`);
    expect(plain(`<p>${word(38)} ${word(40)}</p>`)).toBe(`${word(38)}\n${word(40)}`);
    expect(plain(`<p>${word(77)} a</p>`)).toBe(`${word(77)}\na`);
    expect(plain(`<p>${word(76)} a</p>`)).toBe(`${word(76)} a`);
  });

  it('keeps a word longer than a line whole, on its own line', () => {
    expect(plain(`<p>a ${word(78)} b</p>`)).toBe(`a\n${word(78)}\nb`);
    expect(plain(`<p>a ${word(120)} b</p>`)).toBe(`a\n${word(120)}\nb`);
    expectSameAsHtmlToText(`<p>${word(79)}<b>${word(5)}</b> c</p>`);
  });

  it('splits long words after the "u" of an "undefined" in their first 78 characters (html-to-text’s quirk)', () => {
    expect(plain(`<p>${word(20)}undefined${word(60)}</p>`)).toBe(`${word(20)}u\nndefined${word(60)}`);
    expectSameAsHtmlToText(`<p>${`undefined${word(30)}`.repeat(6)}</p><p>${word(90)}undefined</p>`);
  });

  it('wraps words that run across elements as one word', () => {
    expectSameAsHtmlToText(`<p>${word(70)} ab<b>cd</b><i>ef</i>gh<span>ijk</span>lmn</p>`);
    expectSameAsHtmlToText(`<p>${word(75)} <b>abcdef</b></p><p>${word(77)}<a href="https://e.com">x</a></p>`);
  });

  it('wraps links, with the URL moved to the next line when it does not fit', () => {
    expect(plain(`<p>${word(60)} <a href="https://example.com/long/path">link</a></p>`)).toBe(
      `${word(60)} link\n[https://example.com/long/path]`,
    );
  });

  it('narrows lines inside blockquotes and list items (never under 20 characters)', () => {
    expectSameAsHtmlToText(
      `<blockquote>${'abc '.repeat(30)}<blockquote>${'de '.repeat(40)}</blockquote></blockquote>`,
    );
    let deep = `${'w '.repeat(50)}`;
    for (let level = 0; level < 12; level += 1) deep = `<ul><li>${deep}</li></ul>`;
    expectSameAsHtmlToText(deep);
    let quotes = `${'q '.repeat(50)}`;
    for (let level = 0; level < 40; level += 1) quotes = `<blockquote>${quotes}</blockquote>`;
    expectSameAsHtmlToText(quotes);
  });
});

describe('plain-text writer: what html-to-text converts instead', () => {
  it('hands documents with SVG or MathML to html-to-text, with the same answer', () => {
    expectSameAsHtmlToText('<p>a</p><svg viewBox="0 0 1 1"><text>t</text><path d="M0"/></svg>', {
      viaWriter: false,
    });
    expectSameAsHtmlToText('<p>a</p><math><mi>x</mi></math>', { viaWriter: false });
    // Hidden or left outside the body, they do not matter.
    expectSameAsHtmlToText('<body><p>a</p><div style="display:none"><svg><path/></svg></div></body>');
  });
});

const locale = 'en-US';
const starter = definitionsFromImport(
  starterDesignSystem({ imagesUrl: 'https://files.example.com/starter' }),
);
const idOf = (name: string) => {
  const component = starter.components.find((candidate) => candidate.name === name);
  if (!component) throw new Error(`no ${name}`);
  return component.id;
};
let counter = 0;
function instance(name: string, values: Record<string, string | number | boolean> = {}): ComponentInstance {
  counter += 1;
  const fieldValues: Record<string, { value: string | number | boolean }> = {};
  for (const [key, value] of Object.entries(values)) fieldValues[key] = { value };
  return {
    id: `instance-${counter}`,
    component_id: idOf(name),
    field_values: { null_branch: { [locale]: fieldValues } },
  };
}
function renderStarter(instances: ComponentInstance[], inlineCss: boolean) {
  return render({
    designSystem: starter.designSystem,
    components: starter.components,
    brandProfile: null,
    content: {
      subject: { branch_content: { null_branch: { [locale]: 'Spring & "summer"' } } },
      preheader: { branch_content: { null_branch: { [locale]: 'Ten new things <for> warmer days' } } },
      container_component_instance: {
        id: 'container',
        component_id: starter.containerComponentId,
        field_values: {},
      },
      component_instances: instances,
    },
    locale,
    mode: 'export',
    inlineCss,
  });
}

describe('plain-text writer on the Letterset Starter design system', () => {
  /** The inlined email's plain text, written by the writer (not handed to html-to-text), and html-to-text's. */
  function expectStarterEmailSameAsHtmlToText(instances: ComponentInstance[]): string {
    const plainOutput = renderStarter(instances, false);
    expect(plainOutput.diagnostics).toEqual([]);
    const { html, document } = inlineCssKeepingDocument(plainOutput.html);
    if (!document) throw new Error('The inliner fell back to juice');
    const written = plainTextOfDocument(document);
    expect(written).not.toBeNull();
    expect(written).toBe(htmlToTextUntidied(html));
    const inlined = renderStarter(instances, true);
    expect(inlined.html).toBe(html);
    expect(inlined.plainText).toBe(toPlainText(html));
    return inlined.plainText;
  }

  it('writes every component with its defaults, in one email', () => {
    const text = expectStarterEmailSameAsHtmlToText(
      starter.components
        .filter((component) => !component.container)
        .map((component) => instance(component.name)),
    );
    expect(text).toContain('Find out more [https://example.com]');
    expect(text).not.toContain('Ten new things');
  });

  it.each(starter.components.filter((component) => !component.container).map((component) => component.name))(
    'writes the %s component with its defaults',
    (name) => {
      expectStarterEmailSameAsHtmlToText([instance(name)]);
    },
  );

  it('writes a 20-component newsletter with rich text, lists, entities and long links', () => {
    const text = expectStarterEmailSameAsHtmlToText([
      instance('header', { show_view_online: true }),
      instance('hero', { headline: 'Spring is here', subheadline: 'Ten new things & more <3' }),
      instance('heading', { text: 'New this week' }),
      instance('rich_text', {
        body: '<p>Hello! Our <strong>spring collection</strong> has <a href="https://example.com/s">landed</a>.</p><ul><li>Light &amp; airy</li><li>Bright<ul><li>nested</li></ul></li></ul><ol start="3"><li>third</li><li>fourth</li></ol><p>Last&nbsp;paragraph<br>with a break and a <a href="mailto:team@example.com">mail link</a></p><h2>Sub</h2><blockquote>quoted</blockquote>',
      }),
      instance('button', {
        text: 'Shop',
        url: 'https://example.com/spring?utm_source=email&utm_medium=news',
      }),
      instance('divider'),
      instance('image_text', { headline: 'Made to last', image_position: 'left' }),
      instance('image_text', { headline: 'Packed in paper', image_position: 'right' }),
      instance('spacer', { height: 16 }),
      ...['Shirt', 'Tote', 'Hat', 'Sandals'].map((name) =>
        instance('product_card', { name, price: '$59.00' }),
      ),
      instance('divider'),
      instance('heading', { text: 'From the journal' }),
      instance('image', { image_alt: 'A picnic', link_url: 'https://example.com/journal' }),
      instance('rich_text', {
        body: `<p>${'A fairly long sentence that will have to wrap somewhere. '.repeat(4)}https://example.com/${'very-long-path/'.repeat(8)}</p>`,
      }),
      instance('button', { text: 'Read', url: 'https://example.com/j', style: 'secondary' }),
      instance('social_links'),
      instance('footer', { unsubscribe_url: 'https://example.com/unsubscribe?u=123' }),
    ]);
    expect(text).toContain(' * Light & airy');
    expect(text).toContain('Shop [https://example.com/spring?utm_source=email&utm_medium=news]');
  });
});

describe('plain-text writer against html-to-text on generated emails', () => {
  const text = fc.constantFrom(
    'Hello',
    ' world ',
    'and  more\ttext\n',
    ' ',
    '\n  \n',
    '',
    'a&amp;b',
    '&nbsp;',
    ' &nbsp; ',
    '&lt;tag&gt;',
    '&copy 2024',
    '&#8199;&#8203;',
    '&notin;&noti',
    '\u200b',
    'word.',
    'undefined',
    'x'.repeat(40),
    'y'.repeat(79),
    `${'z'.repeat(30)}undefined${'z'.repeat(50)}`,
    'Ünïcödé straße',
    'https://example.com/a?b=1&amp;c=2',
    // Texts that are (or nearly are) one of the hrefs below, whole or split over elements.
    'https://example.com',
    ' https://example.com ',
    'https://example.com/',
    'HTTPS://EXAMPLE.COM',
    'https://',
    'example.com',
    'hi@example.com',
    'mailto:hi@example.com',
  );
  const href = fc.constantFrom(
    'https://example.com',
    'https://example.com/a?x=1&amp;y=2',
    'mailto:hi@example.com',
    '#top',
    '',
    'Hello',
    `https://example.com/${'p'.repeat(80)}`,
    'https://example.com/with space',
  );
  const style = fc.constantFrom(
    '',
    ' style="color: red"',
    ' style="display:none"',
    ' style="display: none !important"',
    ' style="DISPLAY: NONE"',
    ' style="mso-hide: all;display:none"',
  );
  const blockTag = fc.constantFrom(
    'p',
    'div',
    'table',
    'tr',
    'td',
    'th',
    'h1',
    'h2',
    'h3',
    'h4',
    'h6',
    'blockquote',
    'pre',
    'section',
    'center',
    'span',
    'strong',
    'em',
    'font',
    'li',
    'tbody',
  );
  const node: fc.Arbitrary<string> = fc.letrec<{ node: string }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      text,
      fc.constantFrom('<br>', '<hr>', '<wbr>', '<img src="x.png" alt="alt">', '<!-- c -->'),
      fc
        .tuple(blockTag, style, fc.array(tie('node'), { maxLength: 4 }))
        .map(([tag, attributes, children]) => `<${tag}${attributes}>${children.join('')}</${tag}>`),
      fc
        .tuple(href, style, fc.array(tie('node'), { maxLength: 3 }))
        .map(([url, attributes, children]) => `<a href="${url}"${attributes}>${children.join('')}</a>`),
      fc
        .tuple(
          fc.constantFrom('ul', 'ol', 'ol start="4"', 'ol type="a"', 'ol type="I" start="8"'),
          fc.array(
            fc.oneof(
              fc.array(tie('node'), { maxLength: 3 }).map((children) => `<li>${children.join('')}</li>`),
              fc.constantFrom(' ', 'stray', '<!-- c -->', '<li style="display:none">h</li>'),
            ),
            { maxLength: 4 },
          ),
        )
        .map(([tag, items]) => `<${tag}>${items.join('')}</${tag.split(' ')[0]}>`),
    ),
  })).node;

  it('writes what html-to-text writes for random email-like documents', () => {
    fc.assert(
      fc.property(fc.array(node, { maxLength: 6 }), fc.boolean(), (body, wholeDocument) => {
        const html = wholeDocument
          ? `<!DOCTYPE html><html><head><title>T</title><style>p { margin: 0 }</style></head><body>${body.join('')}</body></html>`
          : body.join('');
        expectSameAsHtmlToText(html);
      }),
      { numRuns: 400 },
    );
  });

  it('writes what html-to-text writes for unbalanced markup (tags the parser closes or opens itself)', () => {
    const token = fc.oneof(
      text,
      fc.constantFrom(
        '<p>',
        '</p>',
        '<li>',
        '</li>',
        '<ul>',
        '</ul>',
        '<ol>',
        '<td>',
        '<tr>',
        '</table>',
        '<table>',
        '<div>',
        '</div>',
        '<pre>',
        '</pre>',
        '<a href="https://e.com">',
        '<a href="https://example.com">',
        '</a>',
        '<h4>',
        '</h2>',
        '<br>',
        '</br>',
        '<body>',
        '<blockquote>',
        '<span style="display:none">',
        '</span>',
      ),
    );
    fc.assert(
      fc.property(fc.array(token, { maxLength: 20 }), (tokens) => {
        expectSameAsHtmlToText(tokens.join(''));
      }),
      { numRuns: 300 },
    );
  });
});
