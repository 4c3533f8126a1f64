import { describe, expect, it } from 'vitest';
import { richTextContent, sanitizeRichText, sanitizeRichTextCached } from './rich-text.ts';

const customStyles = [
  { name: 'highlight', label: 'Highlight', style: 'color: #2f5bea; font-weight: bold;' },
  { name: 'small_print', label: 'Small print', style: 'font-size: 12px;' },
];

describe('sanitizeRichText', () => {
  it('keeps the allow-listed markup, normalising classes', () => {
    expect(
      sanitizeRichText(
        '<p>A <strong>bold</strong>, <em class="x">italic</em> and <a href="https://example.com/?a=1&amp;b=2" target="_blank" class="es-link">link</a>.<br>Next</p>' +
          '<ul><li>one</li></ul><ol class="es-ordered-list"><li class="es-list-item">two</li></ol>',
      ),
    ).toBe(
      '<p>A <strong class="es-bold">bold</strong>, <em class="es-italic">italic</em> and <a class="es-link" href="https://example.com/?a=1&amp;b=2">link</a>.<br>Next</p>' +
        '<ul class="es-bullet-list"><li class="es-list-item">one</li></ul><ol class="es-ordered-list"><li class="es-list-item">two</li></ol>',
    );
  });

  it('turns b and i into strong and em', () => {
    expect(sanitizeRichText('<b>B</b><i>I</i>')).toBe(
      '<strong class="es-bold">B</strong><em class="es-italic">I</em>',
    );
  });

  it('drops scripts and styles with their content', () => {
    expect(sanitizeRichText('<p>Hi<script>alert(1)</script><style>p{color:red}</style> there</p>')).toBe(
      '<p>Hi there</p>',
    );
    expect(sanitizeRichText('<iframe src="https://evil.example"><p>x</p></iframe>ok')).toBe('ok');
  });

  it('drops event handlers and every attribute not on the allow-list', () => {
    expect(
      sanitizeRichText(
        '<p onclick="steal()" style="color:red" id="x">Hi <strong onmouseover="x()">there</strong></p>',
      ),
    ).toBe('<p>Hi <strong class="es-bold">there</strong></p>');
  });

  it('unwraps links whose href is not http(s), mailto or tel', () => {
    expect(sanitizeRichText('<a href="javascript:alert(1)">click</a>')).toBe('click');
    expect(sanitizeRichText('<a href=" JaVaScRiPt:alert(1)">click</a>')).toBe('click');
    expect(sanitizeRichText('<a href="data:text/html,x">x</a><a>no href</a>')).toBe('xno href');
    expect(
      sanitizeRichText('<a href="mailto:hi@example.com">mail</a> <a href="tel:+15550100">call</a>'),
    ).toBe(
      '<a class="es-link" href="mailto:hi@example.com">mail</a> <a class="es-link" href="tel:+15550100">call</a>',
    );
  });

  it('unwraps unknown tags and spans but keeps their text', () => {
    expect(
      sanitizeRichText('<div><h1>Title</h1><span style="color:red">red</span><font>old</font></div>'),
    ).toBe('TitleredOld'.replace('Old', 'old'));
  });

  it('keeps allowed custom-style spans with their CSS inlined, and removes unlisted ones', () => {
    const html =
      '<p><span class="es-custom-style es-custom-style-highlight">hi</span>' +
      '<span class="es-custom-style es-custom-style-small_print">small</span>' +
      '<span class="es-custom-style es-custom-style-neon">neon</span>' +
      '<span data-custom-style="highlight" style="color: red">data</span></p>';
    expect(sanitizeRichText(html, { allowedCustomStyleNames: ['highlight', 'neon'], customStyles })).toBe(
      '<p><span class="es-custom-style es-custom-style-highlight" data-custom-style="highlight" style="color: #2f5bea; font-weight: bold;">hi</span>' +
        'small' +
        'neon' +
        '<span class="es-custom-style es-custom-style-highlight" data-custom-style="highlight" style="color: #2f5bea; font-weight: bold;">data</span></p>',
    );
  });

  it('puts a mark’s custom style on its tag', () => {
    expect(
      sanitizeRichText('<strong>big</strong> <a href="https://example.com">go</a>', {
        marks: {
          bold: { enabled: true, custom_style_name: 'highlight' },
          link: { enabled: true, custom_style_name: 'small_print' },
        },
        customStyles,
      }),
    ).toBe(
      '<strong class="es-bold" style="color: #2f5bea; font-weight: bold;">big</strong> <a class="es-link" href="https://example.com" style="font-size: 12px;">go</a>',
    );
  });

  it('unwraps marks the field does not enable; null marks turn all of them off', () => {
    const html = '<p><strong>b</strong><em>i</em><a href="https://example.com">l</a></p><ul><li>x</li></ul>';
    expect(sanitizeRichText(html, { marks: { bold: { enabled: true }, italic: { enabled: false } } })).toBe(
      '<p><strong class="es-bold">b</strong>il</p><li class="es-list-item">x</li>',
    );
    expect(sanitizeRichText(html, { marks: null })).toBe('<p>bil</p><li class="es-list-item">x</li>');
  });

  it('re-escapes text and keeps entities that matter', () => {
    expect(sanitizeRichText('<p>Fish &amp; chips &lt;3 &nbsp;"quoted"</p>')).toBe(
      '<p>Fish &amp; chips &lt;3 &nbsp;"quoted"</p>',
    );
    expect(sanitizeRichText('a < b')).toBe('a &lt; b');
  });

  it('closes what the input left open and ignores stray closing tags', () => {
    expect(sanitizeRichText('<p><strong>open')).toBe('<p><strong class="es-bold">open</strong></p>');
    // A stray </p> is an empty paragraph in HTML's own parsing rules.
    expect(sanitizeRichText('text</strong></p>')).toBe('text<p></p>');
  });

  it('passes Liquid and sending-platform code in text through as text', () => {
    expect(sanitizeRichText('<p>Hi {{ first_name }} %%=v(@x)=%%</p>')).toBe(
      '<p>Hi {{ first_name }} %%=v(@x)=%%</p>',
    );
  });
});

describe('richTextContent', () => {
  it('is the visible text, whitespace collapsed', () => {
    expect(richTextContent('<p>Hello <strong>there</strong></p><p>again&amp;</p><script>x</script>')).toBe(
      'Hello there again&',
    );
    expect(richTextContent('<p> </p><br>')).toBe('');
  });
});

describe('sanitizeRichTextCached', () => {
  const html =
    '<p><strong>Big</strong> <em>news</em> <span class="es-custom-style es-custom-style-highlight">here</span></p>';

  it('gives what sanitizeRichText gives, for every set of options', () => {
    const optionSets = [
      {},
      { marks: null },
      { marks: { bold: { enabled: true } } },
      { marks: { bold: { enabled: true, custom_style_name: 'highlight' } }, customStyles },
      { allowedCustomStyleNames: ['highlight'], customStyles },
    ];
    for (const options of optionSets) {
      for (let round = 0; round < 2; round += 1) {
        expect(sanitizeRichTextCached(html, options)).toBe(sanitizeRichText(html, options));
      }
    }
  });

  it('sees options edited in place between two calls', () => {
    const marks: NonNullable<Parameters<typeof sanitizeRichText>[1]>['marks'] = {
      bold: { enabled: true },
      italic: { enabled: true },
    };
    const styles = customStyles.map((style) => ({ ...style }));
    const options = { marks, allowedCustomStyleNames: ['highlight'], customStyles: styles };
    expect(sanitizeRichTextCached(html, options)).toContain('<em class="es-italic">news</em>');
    expect(sanitizeRichTextCached(html, options)).toContain('style="color: #2f5bea; font-weight: bold;"');

    marks.italic = { enabled: false };
    (styles[0] as { style: string }).style = 'color: #ff0000;';
    const edited = sanitizeRichTextCached(html, options);
    expect(edited).not.toContain('<em');
    expect(edited).toContain('style="color: #ff0000;"');
    expect(edited).toBe(sanitizeRichText(html, options));
  });

  it('tells all marks (undefined) from no marks (null)', () => {
    expect(sanitizeRichTextCached('<b>x</b>', {})).toBe('<strong class="es-bold">x</strong>');
    expect(sanitizeRichTextCached('<b>x</b>', { marks: null })).toBe('x');
  });
});
