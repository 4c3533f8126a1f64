import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ComponentInstance, EmailContent } from '../content/types.ts';
import { definitionsFromImport, starterDesignSystem } from '../starter/index.ts';
import { inlineCss, inlineCssKeepingDocument, inlineCssWithJuice } from './inline-css.ts';
import { toPlainText, toPlainTextOfDocument } from './plain-text.ts';
import { render } from './render-email.ts';

/**
 * The fast inliner must give juice's answer, byte for byte, and the plain text made from its
 * parsed document must be the plain text of that answer. `viaFastPath` also proves the fast path
 * did the work (it did not fall back to juice), so a divergence cannot hide behind the fall-back.
 */
function expectSameAsJuice(html: string, { viaFastPath = true } = {}): string {
  const expected = inlineCssWithJuice(html);
  const { html: inlined, document } = inlineCssKeepingDocument(html);
  expect(inlined).toBe(expected);
  expect(document !== null).toBe(viaFastPath);
  if (document) expect(toPlainTextOfDocument(inlined, document)).toBe(toPlainText(expected));
  return inlined;
}

const page = (css: string, body: string) =>
  `<!DOCTYPE html><html><head><meta charset="utf-8"><title>T</title><style>${css}</style></head><body>${body}</body></html>`;

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
function starterEmail(instances: ComponentInstance[]): EmailContent {
  return {
    subject: { branch_content: { null_branch: { [locale]: 'Spring & "summer"' } } },
    preheader: { branch_content: { null_branch: { [locale]: 'Ten new things <for> warmer days' } } },
    container_component_instance: {
      id: 'container',
      component_id: starter.containerComponentId,
      field_values: {},
    },
    component_instances: instances,
  };
}
function renderStarterHtml(instances: ComponentInstance[]): string {
  const output = render({
    designSystem: starter.designSystem,
    components: starter.components,
    brandProfile: null,
    content: starterEmail(instances),
    locale,
    mode: 'export',
    email: { id: 1, name: 'Inlining test' },
  });
  expect(output.diagnostics).toEqual([]);
  return output.html;
}

describe('CSS inlining on the Letterset Starter design system', () => {
  it.each(starter.components.filter((component) => !component.container).map((component) => component.name))(
    'gives juice’s answer for the %s component with its defaults',
    (name) => {
      expectSameAsJuice(renderStarterHtml([instance(name)]));
    },
  );

  it('gives juice’s answer for a 20-component newsletter, and its plain text', () => {
    const html = renderStarterHtml([
      instance('header', { show_view_online: true }),
      instance('hero', { headline: 'Spring is here', subheadline: 'Ten new things & more' }),
      instance('heading', { text: 'New this week' }),
      instance('rich_text', {
        body: '<p>Hello! Our <strong>spring collection</strong> has <a href="https://example.com/s">landed</a>.</p><ul><li>Light</li><li>Bright</li></ul><p>Last paragraph</p>',
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
      instance('rich_text', { body: '<p>Five picnic spots.</p>' }),
      instance('button', { text: 'Read', url: 'https://example.com/j', style: 'secondary' }),
      instance('social_links'),
      instance('footer', { unsubscribe_url: 'https://example.com/unsubscribe?u=123' }),
    ]);
    const inlined = expectSameAsJuice(html);
    // The starter's rules did land in the elements, and its media queries stayed in <style>.
    expect(inlined).toMatch(/<body[^>]*style="[^"]*margin: 0;/);
    expect(inlined).toContain('@media only screen and (max-width: 620px)');
    expect(inlined).toContain('bgcolor=');
  });

  it('makes the same plain text through render() as from juice’s HTML', () => {
    const input = {
      designSystem: starter.designSystem,
      components: starter.components,
      brandProfile: null,
      content: starterEmail([
        instance('hero'),
        instance('rich_text'),
        instance('button'),
        instance('footer'),
      ]),
      locale,
      mode: 'export' as const,
    };
    const inlined = render({ ...input, inlineCss: true });
    const plain = render(input);
    expect(inlined.html).toBe(inlineCssWithJuice(plain.html));
    expect(inlined.plainText).toBe(toPlainText(inlineCssWithJuice(plain.html)));
    expect(inlined.plainText).not.toContain('Ten new things');
  });
});

describe('CSS inlining on tricky CSS', () => {
  it('ranks by specificity, then by order', () => {
    const inlined = expectSameAsJuice(
      page(
        '#x { color: green } .a { color: blue } p { color: red } .a.b { margin: 1px } .b { margin: 2px } .b { padding: 3px } .b { padding: 4px }',
        '<p class="a b" id="x">one</p><p class="b">two</p>',
      ),
    );
    expect(inlined).toContain('<p class="a b" id="x" style="padding: 4px; margin: 1px; color: green;">');
  });

  it('lets !important win over inline styles, and inline styles win over plain rules', () => {
    const inlined = expectSameAsJuice(
      page(
        'p { color: red; margin: 0 !important; font-size: 10px !important } #i { font-size: 12px !important }',
        '<p style="color: blue; margin: 5px">a</p><p id="i" style="font-size: 14px !important">b</p>',
      ),
    );
    expect(inlined).toContain('<p style="color: blue; margin: 0 !important; font-size: 10px !important;">');
    expect(inlined).toContain(
      '<p id="i" style="color: red; margin: 0 !important; font-size: 14px !important;">',
    );
  });

  it('keeps media queries, font faces and pseudo-class rules in <style>', () => {
    const inlined = expectSameAsJuice(
      page(
        '@font-face { font-family: X; src: url(x.woff) } a { color: red } a:hover { color: blue } a:visited { color: gray } p:first-child { margin: 0 } @media (max-width: 600px) { .m { display: none !important } } li::before { content: "x" }',
        '<div><p>a</p><p class="m">b <a href="#">link</a></p></div><ul><li>x</li></ul>',
      ),
    );
    expect(inlined).toContain('@media (max-width: 600px)');
    expect(inlined).toContain('a:hover');
    expect(inlined).toContain('<p style="margin: 0;">a</p>');
  });

  it('matches every combinator, attribute selectors and functional pseudo-classes', () => {
    expectSameAsJuice(
      page(
        '.a .b { color: red } .a > .c { color: blue } .b + .c { margin: 1px } .b ~ .d { padding: 1px } [data-x="1"] { border: 0 } [data-y] span { width: 1px } td:not(.skip) { height: 2px } :is(h1, h2) { font-weight: bold } :where(.w) { font-style: italic } p:last-child { margin-bottom: 0 } tr:nth-child(2n) td { background: #eee } :root { color-scheme: light } * { box-sizing: border-box } h1, .title { line-height: 1 } .x:empty { display: none }',
        '<div class="a"><span class="b">1</span><span class="c">2</span><i class="d">3</i></div><div data-x="1" data-y><span>4</span></div><table><tr><td>a</td><td class="skip">b</td></tr><tr><td>c</td></tr></table><h1 class="title w">T</h1><h2>U</h2><p>p1</p><p>p2</p><b class="x"></b>',
      ),
    );
  });

  it('writes table attributes from background, alignment and vertical alignment', () => {
    const inlined = expectSameAsJuice(
      page(
        'table { background-color: #fff !important } td { text-align: center; vertical-align: top } th { background-image: url("bg.png") } .g { background-image: linear-gradient(red, blue) }',
        '<table align="left"><tr><th>h</th><td align="right" style="text-align: left">c</td><td class="g">g</td></tr></table>',
      ),
    );
    expect(inlined).toContain('bgcolor="#fff"');
    expect(inlined).toContain('background="bg.png"');
  });

  it('keeps style attributes that are not CSS, quotes, entities and repeated declarations', () => {
    expectSameAsJuice(
      page(
        'p { font-family: "Helvetica Neue", Arial; margin: 0; margin: 1px } span { color: red }',
        '<p style="color: red;;; junk">&amp; &#8199; &quot;x&quot;</p><span style="  ">s</span><span style="color: blue; --brand: red">t</span><p title="a &amp; b">u</p>',
      ),
    );
  });

  it('handles style blocks anywhere, empty ones, uppercase markup and fragments', () => {
    expectSameAsJuice(
      '<STYLE>P { COLOR: RED }</STYLE><P CLASS="A">x</P><style></style><div><style>.a { margin: 0 }</style><p class="a">y</p></div><style>@media print { p { color: black } }</style>',
    );
    expectSameAsJuice('<p>no styles at all</p>');
    expectSameAsJuice(
      page(
        'svg { width: 10px } p { margin: 0 }',
        '<p a="" b=\'x"y\'>q</p><svg viewBox="0 0 1 1"><foreignObject><p>in</p></foreignObject><path d="M0"/></svg><math><mi>x</mi></math><br><input disabled><!-- c --><![CDATA[x]]>',
      ),
    );
    expectSameAsJuice(page('head, title, meta, style { display: block } * { margin: 0 }', '<p>z</p>'));
  });

  it('keeps template code ({{ }}, <% %>) as written', () => {
    expectSameAsJuice(
      page(
        'a { color: red }',
        '<p>Hi {{ first_name | default: "there" }}</p><a href="{{ url }}">x</a><% if (a) { %>y<% } %>',
      ),
      { viaFastPath: false },
    );
  });

  it('falls back to juice for what only juice does exactly, with the same answer', () => {
    expectSameAsJuice(page(':root { --c: red } p { color: var(--c) }', '<p>x</p>'), { viaFastPath: false });
    expectSameAsJuice(page('.a { color: red; & p { margin: 0 } }', '<div class="a"><p>x</p></div>'), {
      viaFastPath: false,
    });
    expectSameAsJuice(page('/* juice ignore */ p { color: red }', '<p>x</p>'), { viaFastPath: false });
    expectSameAsJuice(page('p:first { color: red }', '<p>x</p><p>y</p>'), { viaFastPath: false });
    expectSameAsJuice(
      '<style data-embed>p { color: red }</style><style>p { margin: 0 }</style><p data-juice-important="false">x</p>',
      { viaFastPath: false },
    );
    expect(inlineCss(page('p { color: var(--c, blue) }', '<p>x</p>'))).toContain('color: blue;');
  });

  it('gives juice’s answer for random style sheets and documents', () => {
    const selector = fc.constantFrom(
      'p',
      'td',
      'a',
      '.a',
      '.b',
      '#main',
      'div p',
      '.a > p',
      '.a + .b',
      'p:first-child',
      'td:last-child',
      '[data-x]',
      'a:hover',
      '.a.b',
      '*',
      'table td',
      'p::after',
      ':not(.a)',
    );
    const declaration = fc.constantFrom(
      'color: red',
      'color: blue !important',
      'margin: 0',
      'margin-top: 4px',
      'padding: 1px 2px',
      'text-align: center',
      'background-color: #eee',
      'font-family: "Georgia", serif',
      'display: none',
    );
    const rule = fc
      .tuple(
        fc.array(selector, { minLength: 1, maxLength: 2 }),
        fc.array(declaration, { minLength: 1, maxLength: 3 }),
      )
      .map(([selectors, declarations]) => `${selectors.join(', ')} { ${declarations.join('; ')} }`);
    const media = rule.map((inner) => `@media (max-width: 600px) { ${inner} }`);
    const element: fc.Arbitrary<string> = fc.letrec<{ node: string }>((tie) => ({
      node: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.constantFrom('text', 'a &amp; b', '<img src="x.png" alt="x">', '<br>'),
        fc
          .tuple(
            fc.constantFrom('p', 'div', 'td', 'a', 'span', 'table'),
            fc.constantFrom('', ' class="a"', ' class="b"', ' class="a b"', ' id="main"', ' data-x="1"'),
            fc.constantFrom('', ' style="color: green"', ' style="margin: 2px !important"', ' style="bogus"'),
            fc.array(tie('node'), { maxLength: 3 }),
          )
          .map(
            ([tag, attributes, style, children]) =>
              `<${tag}${attributes}${style}>${children.join('')}</${tag}>`,
          ),
      ),
    })).node;
    fc.assert(
      fc.property(
        fc.array(fc.oneof(rule, media), { maxLength: 6 }),
        fc.array(element, { maxLength: 4 }),
        (rules, body) => {
          expectSameAsJuice(page(rules.join('\n'), body.join('')));
        },
      ),
      { numRuns: 150 },
    );
  });
});
