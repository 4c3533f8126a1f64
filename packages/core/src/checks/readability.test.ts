import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EmailContent } from '../content/types.ts';
import { textDirectionOf } from '../locales.ts';
import { render } from '../render/render-email.ts';
import { definitionsFromImport, starterDesignSystem } from '../starter/index.ts';
import { blend, contrastRatio, hexOf, namedColors, parseCssColor, type Rgba } from './css-colors.ts';
import { runPreSendChecks } from './pre-send-checks.ts';
import { readabilityProblems, vagueLinkTexts } from './readability.ts';

const document = (body: string, attributes = 'lang="en-US" dir="ltr"') =>
  `<!DOCTYPE html><html ${attributes}><head><title>T</title><style>p { color: #fff; }</style></head><body>${body}</body></html>`;
const problemsOf = (html: string, locale = 'en-US') => readabilityProblems(html, locale);
const codesOf = (html: string, locale = 'en-US') => problemsOf(html, locale).map((problem) => problem.code);
const messagesOf = (html: string, code = 'low_contrast') =>
  problemsOf(html)
    .filter((problem) => problem.code === code)
    .map((problem) => problem.message);

const rgb = (r: number, g: number, b: number): Rgba => ({ r, g, b, a: 1 });
const opaque = fc.record({
  r: fc.integer({ min: 0, max: 255 }),
  g: fc.integer({ min: 0, max: 255 }),
  b: fc.integer({ min: 0, max: 255 }),
  a: fc.constant(1),
});

describe('colours and contrast', () => {
  it('reads every colour notation email HTML uses', () => {
    expect(parseCssColor('#1B5E20')).toEqual(rgb(0x1b, 0x5e, 0x20));
    expect(parseCssColor('#fff')).toEqual(rgb(255, 255, 255));
    expect(parseCssColor('#0008')).toEqual({ r: 0, g: 0, b: 0, a: 0x88 / 255 });
    expect(parseCssColor('#00000080')).toEqual({ r: 0, g: 0, b: 0, a: 128 / 255 });
    expect(parseCssColor('rgb(27, 94, 32)')).toEqual(rgb(27, 94, 32));
    expect(parseCssColor('rgba(0,0,0,.5)')).toEqual({ r: 0, g: 0, b: 0, a: 0.5 });
    expect(parseCssColor('rgb(100% 0% 0% / 25%)')).toEqual({ r: 255, g: 0, b: 0, a: 0.25 });
    expect(parseCssColor('hsl(0, 0%, 100%)')).toEqual(rgb(255, 255, 255));
    expect(parseCssColor('DarkGreen')).toEqual(rgb(0, 100, 0));
    expect(parseCssColor('transparent')?.a).toBe(0);
    // Legacy attributes may leave the # out; CSS may not.
    expect(parseCssColor('1B5E20', true)).toEqual(rgb(0x1b, 0x5e, 0x20));
    expect(parseCssColor('1B5E20')).toBeNull();
    for (const unknown of ['inherit', 'currentColor', 'var(--x)', 'blu', '#12345', 'rgb(1,2)']) {
      expect(parseCssColor(unknown)).toBeNull();
    }
  });

  it('knows the 148 named colours', () => {
    expect(namedColors.size).toBe(148);
    for (const hex of namedColors.values()) expect(hex).toMatch(/^#[0-9a-f]{6}$/);
  });

  it('gives 21:1 for black on white and 1:1 for a colour on itself', () => {
    expect(contrastRatio(rgb(0, 0, 0), rgb(255, 255, 255))).toBeCloseTo(21, 10);
    expect(contrastRatio(rgb(0x1b, 0x5e, 0x20), rgb(0x1b, 0x5e, 0x20))).toBe(1);
  });

  it('is symmetric and between 1 and 21 for any two colours', () => {
    fc.assert(
      fc.property(opaque, opaque, (first, second) => {
        const ratio = contrastRatio(first, second);
        expect(ratio).toBe(contrastRatio(second, first));
        expect(ratio).toBeGreaterThanOrEqual(1);
        expect(ratio).toBeLessThanOrEqual(21 + 1e-9);
      }),
    );
  });

  it('blends a translucent colour over what is behind it', () => {
    expect(hexOf(blend({ r: 0, g: 0, b: 0, a: 0.5 }, rgb(255, 255, 255)))).toBe('#808080');
  });
});

describe('low contrast', () => {
  it('names the text, both colours and the ratio (the dark headline on #1B5E20)', () => {
    const html = document(
      '<table bgcolor="#1B5E20"><tr><td><p style="color: #1B1B1B; font-size: 16px;">Spring sale</p></td></tr></table>',
    );
    expect(problemsOf(html)).toEqual([
      {
        code: 'low_contrast',
        severity: 'warning',
        component_instance_id: null,
        message: '"Spring sale" is #1B1B1B on #1B5E20: contrast 2.1:1, below 4.5:1 (WCAG AA)',
      },
    ]);
  });

  it('inherits the text colour and the background from ancestors', () => {
    const html = document(
      '<div style="background-color: #777777"><table><tr><td style="color: #888888"><span>Faint words</span></td></tr></table></div>',
    );
    expect(messagesOf(html)).toEqual([
      '"Faint words" is #888888 on #777777: contrast 1.2:1, below 4.5:1 (WCAG AA)',
    ]);
    // A nearer background wins over the outer one.
    const nearer = document(
      '<div style="background: #777777"><p style="background-color: #000; color: #888888">Readable</p></div>',
    );
    expect(messagesOf(nearer)).toEqual([]);
  });

  it('reads bgcolor, the background shorthand, <font color> and the body’s colours', () => {
    expect(
      messagesOf(
        document('<table><tr><td bgcolor="yellow"><font color="white">Pale</font></td></tr></table>'),
      ),
    ).toHaveLength(1);
    expect(
      messagesOf(
        document(
          '<td style="background: #fff url(x.png) no-repeat center;">Light <font color="#eee">grey</font></td>',
        ),
      ),
    ).toEqual(['"grey" is #EEEEEE on #FFFFFF: contrast 1.1:1, below 4.5:1 (WCAG AA)']);
    const body =
      '<!DOCTYPE html><html lang="en" dir="ltr"><body bgcolor="#000000" text="#222222"><p>Dark on dark</p></body></html>';
    expect(messagesOf(body)).toEqual([
      '"Dark on dark" is #222222 on #000000: contrast 1.3:1, below 4.5:1 (WCAG AA)',
    ]);
  });

  it('defaults to black on white, and browsers’ blue for links', () => {
    expect(messagesOf(document('<p>Plain</p>'))).toEqual([]);
    expect(
      messagesOf(
        document('<div style="background-color:#000080"><a href="https://example.com/a">Navy link</a></div>'),
      ),
    ).toEqual(['"Navy link" is #0000EE on #000080: contrast 1.7:1, below 4.5:1 (WCAG AA)']);
    expect(
      messagesOf(
        document(
          '<div style="background-color:#000080"><a href="https://example.com/a" style="color:#fff">White link</a></div>',
        ),
      ),
    ).toEqual([]);
  });

  it('blends translucent backgrounds over the parent and translucent text over its background', () => {
    // rgba(0,0,0,0.5) over white is #808080.
    expect(
      messagesOf(
        document('<div style="background-color: rgba(0, 0, 0, 0.5)"><p style="color:#999">Half</p></div>'),
      ),
    ).toEqual(['"Half" is #999999 on #808080: contrast 1.3:1, below 4.5:1 (WCAG AA)']);
    // #00000033 text over white is #CCCCCC.
    expect(messagesOf(document('<p style="color: #00000033">Ghost</p>'))).toEqual([
      '"Ghost" is #CCCCCC on #FFFFFF: contrast 1.6:1, below 4.5:1 (WCAG AA)',
    ]);
  });

  it('asks 3:1 of large text: 24px, or 18.66px (14pt) bold, inherited', () => {
    // #949494 on white is about 3.0:1: enough for large text, not for body text.
    const grey = (style: string, tag = 'p') =>
      messagesOf(document(`<${tag} style="color: #949494; ${style}">Sized</${tag}>`)).length;
    expect(contrastRatio(parseCssColor('#949494') as Rgba, rgb(255, 255, 255))).toBeGreaterThan(3);
    expect(grey('font-size: 16px')).toBe(1);
    expect(grey('font-size: 24px')).toBe(0);
    expect(grey('font-size: 18pt')).toBe(0);
    expect(grey('font-size: 19px')).toBe(1);
    expect(grey('font-size: 19px; font-weight: bold')).toBe(0);
    expect(grey('font-size: 14pt; font-weight: 700')).toBe(0);
    expect(grey('font-size: 14pt; font-weight: 600')).toBe(1);
    expect(grey('font: bold 20px/28px Arial, sans-serif')).toBe(0);
    expect(grey('font-size: 1.5em')).toBe(0);
    // Headings are bold and larger unless their style says otherwise.
    expect(grey('', 'h1')).toBe(0);
    expect(grey('font-size: 16px', 'h1')).toBe(1);
    // Size and weight are inherited.
    expect(
      messagesOf(
        document(
          '<div style="font-size: 20px; font-weight: bold"><span style="color: #949494">Big</span></div>',
        ),
      ),
    ).toEqual([]);
    expect(
      messagesOf(document('<h2 style="font-size: 20px; color: #fff; background: #eee;">Large text</h2>')),
    ).toEqual(['"Large text" is #FFFFFF on #EEEEEE: contrast 1.1:1, below 3:1 (WCAG AA for large text)']);
  });

  it('skips hidden text and text over an image whose colour is unknown', () => {
    const faint = 'color: #fafafa';
    for (const hidden of [
      `<div style="display: none; ${faint}">Preheader</div>`,
      `<div style="display:none;max-height:0;overflow:hidden;mso-hide:all"><span style="${faint}">Preheader</span></div>`,
      `<span style="mso-hide: all; ${faint}">Not in Outlook</span>`,
      `<span style="font-size: 0; ${faint}">Gap</span>`,
      `<span style="visibility: hidden; ${faint}">Hidden</span>`,
      `<span style="opacity: 0; ${faint}">Hidden</span>`,
      `<span hidden style="${faint}">Hidden</span>`,
      `<td background="hero.jpg"><p style="${faint}">Over a photo</p></td>`,
      `<td style="background-image: url('hero.jpg')"><p style="${faint}">Over a photo</p></td>`,
      `<td style="background: url(data:image/png;base64,AAA=) no-repeat"><p style="${faint}">Over a photo</p></td>`,
      `<p style="${faint}">{{ first_name }} %%FirstName%% *|FNAME|*</p>`,
      `<p style="${faint}">&nbsp; · |</p>`,
    ]) {
      expect(messagesOf(document(hidden)), hidden).toEqual([]);
    }
    // An image with a fall-back colour is checked against the colour.
    expect(
      messagesOf(
        document(`<td background="hero.jpg" bgcolor="#ffffff"><p style="${faint}">Over a photo</p></td>`),
      ),
    ).toHaveLength(1);
  });

  it('tells each text and background pair once, with the first text it is in', () => {
    const html = document(
      '<p style="color:#ddd">First faint</p><p style="color:#ddd">Second faint</p><p style="color:#ccc">Another grey</p>' +
        '<div style="background:#333"><p style="color:#ddd">Fine on dark</p><p style="color:#444">Dark on dark</p></div>',
    );
    expect(messagesOf(html)).toEqual([
      '"First faint" is #DDDDDD on #FFFFFF: contrast 1.3:1, below 4.5:1 (WCAG AA)',
      '"Another grey" is #CCCCCC on #FFFFFF: contrast 1.6:1, below 4.5:1 (WCAG AA)',
      '"Dark on dark" is #444444 on #333333: contrast 1.2:1, below 4.5:1 (WCAG AA)',
    ]);
  });

  it('shortens a long text to about 40 characters', () => {
    const [message] = messagesOf(
      document('<p style="color:#eee">This sentence is far longer than forty characters, by a lot.</p>'),
    );
    expect(message).toBe(
      '"This sentence is far longer than forty…" is #EEEEEE on #FFFFFF: contrast 1.1:1, below 4.5:1 (WCAG AA)',
    );
  });

  it('warns exactly once for any colour pair below 4.5:1 and never above it', () => {
    fc.assert(
      fc.property(opaque, opaque, fc.boolean(), (text, background, useAttribute) => {
        const backgroundMarkup = useAttribute
          ? `bgcolor="${hexOf(background)}"`
          : `style="background-color: rgb(${background.r}, ${background.g}, ${background.b})"`;
        const html = document(
          `<table><tr><td ${backgroundMarkup}><p style="font-size: 16px; color: ${hexOf(text)}">Some words</p>` +
            `<p style="font-size: 15px; color: ${hexOf(text)}">More words</p></td></tr></table>`,
        );
        const expected = contrastRatio(text, background) < 4.5 ? 1 : 0;
        expect(messagesOf(html)).toHaveLength(expected);
      }),
      { numRuns: 300 },
    );
  });
});

describe('language and direction', () => {
  it('warns when the document sets no lang, or one of another language than the locale', () => {
    expect(codesOf(document('<p>Hi</p>', 'dir="ltr"'))).toEqual(['missing_lang']);
    expect(codesOf(document('<p>Hi</p>', 'lang="" dir="ltr"'))).toEqual(['missing_lang']);
    expect(codesOf(document('<p>Hi</p>', 'lang="en" dir="ltr"'))).toEqual([]);
    const [mismatch] = problemsOf(document('<p>Hallo</p>', 'lang="en" dir="ltr"'), 'de-DE');
    expect(mismatch?.message).toMatch(/^The HTML says lang="en" but this is de-DE/);
    // On <body> it is declared too.
    expect(codesOf('<html><body lang="en-US" dir="ltr"><p>Hi</p></body></html>')).toEqual([]);
  });

  it('warns when a left-to-right document sets no dir; right-to-left ones have their own check', () => {
    expect(codesOf(document('<p>Hi</p>', 'lang="en-US"'))).toEqual(['missing_dir']);
    expect(codesOf('<html lang="en-US"><body dir="ltr"><p>Hi</p></body></html>')).toEqual([]);
    expect(textDirectionOf('he-IL')).toBe('rtl');
    expect(codesOf(document('<p>שלום</p>', 'lang="he-IL"'), 'he-IL')).toEqual([]);
  });

  it('leaves a fragment to the platform that wraps it in its document', () => {
    expect(codesOf('<table><tr><td>Hi</td></tr></table>')).toEqual([]);
    expect(codesOf('<body><table><tr><td>Hi</td></tr></table></body>')).toEqual([
      'missing_lang',
      'missing_dir',
    ]);
  });
});

describe('vague link text', () => {
  const linkCodes = (links: string) =>
    problemsOf(document(links)).filter((problem) => problem.code === 'vague_link_text');

  it('warns for links that say only "here" or "click here", in a few languages', () => {
    for (const text of [
      'here',
      'Click here!',
      ' CLICK   HERE ',
      'click',
      'this link',
      'Link',
      'hier',
      'Cliquez ici',
      'aquí',
    ]) {
      expect(
        linkCodes(`<p>For the sale <a href="https://example.com/sale">${text}</a>.</p>`),
        text,
      ).toHaveLength(1);
    }
    const [problem] = linkCodes(
      '<p><a href="https://example.com/sale"><span>Click</span> <b>here</b></a></p>',
    );
    expect(problem?.message).toBe(
      'The link "Click here" (https://example.com/sale) does not say where it leads: people who use screen readers ' +
        'often hear links out of their sentence, so name the destination',
    );
  });

  it('accepts links that name where they go, image links with alt text and a telling aria-label', () => {
    for (const link of [
      '<a href="https://example.com/sale">See the spring sale</a>',
      '<a href="https://example.com/a">Read more</a>',
      '<a href="https://example.com/a">Hereford shoes</a>',
      '<a href="https://example.com/a"><img src="x.png" alt="Our spring catalogue"></a>',
      '<a href="https://example.com/a" aria-label="The spring catalogue">here</a>',
      '<a name="top">here</a>',
      '<div style="display:none"><a href="https://example.com/a">here</a></div>',
    ]) {
      expect(linkCodes(link), link).toEqual([]);
    }
  });

  it('tells each text and target once', () => {
    const same = '<a href="https://example.com/a">here</a>';
    expect(linkCodes(`${same}${same}<a href="https://example.com/b">here</a>`)).toHaveLength(2);
  });

  it('keeps its list in normalized form', () => {
    for (const text of vagueLinkTexts) expect(text).toBe(text.toLowerCase().trim());
  });
});

describe('Letterset Starter', () => {
  const imported = starterDesignSystem({ imagesUrl: 'https://files.example.com/starter' });
  const starter = definitionsFromImport(imported);
  const emailIn = (locale: string): EmailContent => ({
    subject: { branch_content: { null_branch: { [locale]: 'Spring is here' } } },
    preheader: { branch_content: { null_branch: { [locale]: 'Ten new things for warmer days' } } },
    container_component_instance: {
      id: 'container',
      component_id: starter.containerComponentId,
      field_values: {},
    },
    component_instances: starter.components
      .filter((component) => !component.container)
      .map((component) => ({ id: `i-${component.name}`, component_id: component.id, field_values: {} })),
  });

  it('passes every readability check in every direction, as exported (CSS inlined)', () => {
    for (const locale of ['en-US', 'de-DE', 'ar-SA']) {
      const output = render({
        designSystem: starter.designSystem,
        components: starter.components,
        brandProfile: null,
        content: emailIn(locale),
        locale,
        mode: 'export',
        inlineCss: true,
        email: { id: 1, name: 'Starter', textDirection: textDirectionOf(locale) },
      });
      expect(output.diagnostics).toEqual([]);
      expect(readabilityProblems(output.html, locale), locale).toEqual([]);
    }
  });
});

describe('in the pre-send checks', () => {
  it('are warnings of the locale whose render has them, and never block', () => {
    const content: EmailContent = {
      subject: { branch_content: { null_branch: { 'en-US': 'Sale', 'de-DE': 'Angebot' } } },
      preheader: { branch_content: { null_branch: { 'en-US': 'Now', 'de-DE': 'Jetzt' } } },
      container_component_instance: { id: 'c', component_id: 1, field_values: {} },
      component_instances: [],
    };
    const result = runPreSendChecks({
      content,
      locales: ['en-US', 'de-DE'],
      defaultLocale: 'en-US',
      components: [],
      validation: { valid: true, validation_errors: {} },
      renders: [
        { locale: 'en-US', html: document('<p>Fine</p>'), diagnostics: [] },
        {
          locale: 'de-DE',
          html: document(
            '<p style="color:#eee">Blass</p><a href="https://example.com/">hier</a>',
            'lang="de-DE"',
          ),
          diagnostics: [],
        },
      ],
    });
    expect(result.ready).toBe(true);
    expect(result.problems.map((problem) => [problem.code, problem.severity, problem.locale])).toEqual([
      ['low_contrast', 'warning', 'de-DE'],
      ['vague_link_text', 'warning', 'de-DE'],
      ['missing_dir', 'warning', 'de-DE'],
    ]);
  });
});
