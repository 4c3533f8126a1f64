import { describe, expect, it } from 'vitest';
import type { ComponentInstance, EmailContent } from '../content/types.ts';
import type { FieldDefinition } from '../fields/types.ts';
import type { BrandProfileDefinition, ComponentDefinition, DesignSystemDefinition } from './design-system.ts';
import { type RenderInput, renderHtml } from './render.ts';
import { render } from './render-email.ts';

const designSystem: DesignSystemDefinition = {
  id: 3,
  name: 'Test system',
  design_tokens: { colors: { primary: '#2f5bea', text: '#111111' }, fonts: { body: 'Arial, sans-serif' } },
  custom_styles: [{ name: 'highlight', label: 'Highlight', style: 'color: #2f5bea;' }],
};

const text = (
  liquid_variable: string,
  default_value: string,
  extra: Partial<FieldDefinition> = {},
): FieldDefinition => ({
  type: 'text',
  label: liquid_variable,
  liquid_variable,
  default_value,
  ...extra,
});

const container: ComponentDefinition = {
  id: 1,
  name: 'container',
  label: 'Email',
  container: true,
  template: '<main data-brand="{{ brand_color }}">{{children}}</main>',
  field_definitions: [
    { type: 'color', label: 'Brand', liquid_variable: 'brand_color', default_value: '#ff0000' },
    text('footer_address', '1 Example Street'),
  ],
};

function component(
  id: number,
  name: string,
  template: string,
  fields: FieldDefinition[] = [],
): ComponentDefinition {
  return { id, name, label: name, container: false, template, field_definitions: fields };
}

const paragraph = component(10, 'paragraph', '<p>{{ copy }}</p>', [text('copy', 'Default copy')]);

let instanceCounter = 0;
function instance(
  componentId: number,
  values: Record<string, unknown> = {},
  extra: Partial<ComponentInstance> = {},
) {
  instanceCounter += 1;
  const fieldValues: Record<string, { value: string | number | boolean | null }> = {};
  for (const [key, value] of Object.entries(values)) fieldValues[key] = { value: value as string };
  return {
    id: `instance-${instanceCounter}`,
    component_id: componentId,
    field_values: { null_branch: { 'en-US': fieldValues } },
    ...extra,
  } satisfies ComponentInstance;
}

function content(children: ComponentInstance[], containerValues: Record<string, unknown> = {}): EmailContent {
  return {
    subject: { branch_content: { null_branch: { 'en-US': 'Spring & summer', 'fr-FR': 'Printemps' } } },
    preheader: { branch_content: { null_branch: { 'en-US': 'Ten new things' } } },
    container_component_instance: { ...instance(1, containerValues), id: 'container-instance' },
    component_instances: children,
  };
}

function input(
  components: ComponentDefinition[],
  children: ComponentInstance[],
  overrides: Partial<RenderInput> = {},
) {
  return {
    designSystem,
    components: [container, ...components],
    brandProfile: null,
    content: content(children),
    locale: 'en-US',
    mode: 'export',
    ...overrides,
  } satisfies RenderInput;
}

describe('render: composition', () => {
  it('inserts the rendered children, in order, into {{children}} unescaped', () => {
    const output = render(
      input([paragraph], [instance(10, { copy: 'First' }), instance(10, { copy: 'Second' })]),
    );
    expect(output.html).toBe('<main data-brand="#ff0000"><p>First</p><p>Second</p></main>');
    expect(output.diagnostics).toEqual([]);
  });

  it('falls back to field defaults for missing and null values', () => {
    const output = render(input([paragraph], [instance(10), instance(10, { copy: null })]));
    expect(output.html).toBe('<main data-brand="#ff0000"><p>Default copy</p><p>Default copy</p></main>');
  });

  it('gives every component the container’s values as global_fields', () => {
    const footer = component(
      11,
      'footer',
      '<p>{{ global_fields.footer_address }} {{ global_fields.brand_color }}</p>',
    );
    const output = render({
      ...input([footer], [instance(11)]),
      content: content([instance(11)], { footer_address: '9 Rue de Rivoli' }),
    });
    expect(output.html).toBe('<main data-brand="#ff0000"><p>9 Rue de Rivoli #ff0000</p></main>');
  });

  it('keeps templates isolated: another component’s fields are not visible', () => {
    const peeking = component(12, 'peeking', '<p>[{{ copy }}]</p>');
    const output = render(input([paragraph, peeking], [instance(10, { copy: 'mine' }), instance(12)]));
    expect(output.html).toBe('<main data-brand="#ff0000"><p>mine</p><p>[]</p></main>');
  });

  it('skips instances hidden in the locale', () => {
    const output = render(
      input(
        [paragraph],
        [
          instance(10, { copy: 'shown' }),
          instance(10, { copy: 'hidden' }, { hidden_from_locales: { 'en-US': true } }),
        ],
      ),
    );
    expect(output.html).toBe('<main data-brand="#ff0000"><p>shown</p></main>');
  });

  it('reads values and subject of the requested locale', () => {
    const french: ComponentInstance = {
      id: 'fr',
      component_id: 10,
      field_values: {
        null_branch: { 'en-US': { copy: { value: 'Hello' } }, 'fr-FR': { copy: { value: 'Bonjour' } } },
      },
    };
    const output = render({ ...input([paragraph], [french]), locale: 'fr-FR' });
    expect(output.html).toContain('<p>Bonjour</p>');
    expect(output.subject).toBe('Printemps');
    expect(output.preheader).toBe('');
  });

  it('reads the selected branch of an instance with a conditional, else its first branch', () => {
    const tiered: ComponentInstance = {
      id: 'tiered',
      component_id: 10,
      conditional_id: 5,
      field_values: {
        gold: { 'en-US': { copy: { value: 'Gold copy' } } },
        silver: { 'en-US': { copy: { value: 'Silver copy' } } },
      },
    };
    expect(render(input([paragraph], [tiered])).html).toContain('Gold copy');
    expect(render(input([paragraph], [tiered], { branchSelection: { '5': 'silver' } })).html).toContain(
      'Silver copy',
    );
    expect(render(input([paragraph], [tiered], { branchSelection: { '5': 'bronze' } })).html).toContain(
      'Gold copy',
    );
  });
});

describe('render: render_context', () => {
  const printer = component(
    20,
    'printer',
    [
      'render_mode={{ render_context.render_mode }}',
      'output_format={{ render_context.output_format }}',
      'email.id={{ render_context.email.id }}',
      'email.name={{ render_context.email.name }}',
      'email.locale={{ render_context.email.locale }}',
      'email.text_direction={{ render_context.email.text_direction }}',
      'email.content.subject={{ render_context.email.content.subject }}',
      'email.content.preheader={{ render_context.email.content.preheader }}',
      'project.id={{ render_context.project.id }}',
      'project.name={{ render_context.project.name }}',
      'email_design_system.id={{ render_context.email_design_system.id }}',
      'email_design_system.name={{ render_context.email_design_system.name }}',
      'brand_profile={% if render_context.brand_profile == nil %}nil{% else %}{{ render_context.brand_profile.id }}/{{ render_context.brand_profile.name }}{% endif %}',
      'design_tokens.colors.primary={{ render_context.design_tokens.colors.primary }}',
      'component_instance.id={{ render_context.component_instance.id }}',
      'component_instance.name={{ render_context.component_instance.name }}',
      'component_instance.component_name={{ render_context.component_instance.component_name }}',
      'previous={% if render_context.previous_component_instance == nil %}nil{% else %}{{ render_context.previous_component_instance.component_name }}{% endif %}',
      'next={% if render_context.next_component_instance == nil %}nil{% else %}{{ render_context.next_component_instance.component_name }}{% endif %}',
      'connector.id={{ render_context.connector.id }}',
      'connector.name={{ render_context.connector.name }}',
      'connector.type={{ render_context.connector.type }}',
    ].join('\n'),
  );

  it('exposes every documented key', () => {
    const only = { ...instance(20), name: 'The printer' };
    const output = render({
      ...input([printer], [only]),
      components: [{ ...container, template: '{{children}}' }, printer],
      mode: 'render_api',
      email: { id: 42, name: 'Spring launch', textDirection: 'rtl' },
      project: { id: 7, name: 'Campaigns' },
      connector: { id: 8, name: 'Main platform', type: 'iterable' },
      brandProfile: {
        id: 5,
        name: 'Acme',
        design_tokens: { colors: { primary: '#00ff00' } },
        component_overrides: [],
      },
    });
    expect(output.html.split('\n')).toEqual([
      'render_mode=render_api',
      'output_format=html',
      'email.id=42',
      'email.name=Spring launch',
      'email.locale=en-US',
      'email.text_direction=rtl',
      'email.content.subject=Spring &amp; summer',
      'email.content.preheader=Ten new things',
      'project.id=7',
      'project.name=Campaigns',
      'email_design_system.id=3',
      'email_design_system.name=Test system',
      'brand_profile=5/Acme',
      'design_tokens.colors.primary=#00ff00',
      `component_instance.id=${only.id}`,
      'component_instance.name=The printer',
      'component_instance.component_name=printer',
      'previous=nil',
      'next=nil',
      'connector.id=8',
      'connector.name=Main platform',
      'connector.type=iterable',
    ]);
  });

  it('has nil brand profile, project and connector when absent, and ltr by default', () => {
    const output = render({
      ...input([printer], [instance(20)]),
      components: [{ ...container, template: '{{children}}' }, printer],
    });
    expect(output.html).toContain('brand_profile=nil');
    expect(output.html).toContain('project.id=\n');
    expect(output.html.endsWith('connector.type=')).toBe(true);
    expect(output.html).toContain('email.text_direction=ltr');
    expect(output.html).toContain('email.id=\n');
  });

  it('reads right to left in ar-SA and he-IL unless the caller says otherwise', () => {
    const base = {
      ...input([printer], [instance(20)]),
      components: [{ ...container, template: '{{children}}' }, printer],
    };
    expect(render({ ...base, locale: 'he-IL' }).html).toContain('email.text_direction=rtl');
    expect(render({ ...base, locale: 'ar-SA' }).html).toContain('email.text_direction=rtl');
    expect(render({ ...base, locale: 'fr-FR' }).html).toContain('email.text_direction=ltr');
    expect(
      render({ ...base, locale: 'he-IL', email: { id: 1, name: 'x', textDirection: 'ltr' } }).html,
    ).toContain('email.text_direction=ltr');
  });

  it('gives previous and next instances among those rendered', () => {
    const neighbours = component(
      21,
      'neighbours',
      '[{{ render_context.previous_component_instance.id | default: "start" }}<{{ render_context.component_instance.id }}>{{ render_context.next_component_instance.id | default: "end" }}]',
    );
    const output = render({
      ...input([neighbours, paragraph], []),
      components: [{ ...container, template: '{{children}}' }, neighbours, paragraph],
      content: content([
        { ...instance(21), id: 'a' },
        { ...instance(10), id: 'hidden', hidden_from_locales: { 'en-US': true } },
        { ...instance(21), id: 'b' },
        { ...instance(21), id: 'c' },
      ]),
    });
    expect(output.html).toBe('[start<a>b][a<b>c][b<c>end]');
  });

  it('lets a template react to the previous component', () => {
    const spaced = component(
      22,
      'spaced',
      '{% if render_context.previous_component_instance.component_name == "paragraph" %}tight{% else %}loose{% endif %}',
    );
    const output = render({
      ...input([paragraph, spaced], []),
      components: [{ ...container, template: '{{children}}' }, paragraph, spaced],
      content: content([instance(22), instance(10, { copy: 'x' }), instance(22)]),
    });
    expect(output.html).toBe('loose<p>x</p>tight');
  });

  it('gives the container its own instance and no neighbours', () => {
    const output = render({
      ...input([], []),
      components: [
        {
          ...container,
          template:
            '{{ render_context.component_instance.component_name }}|{{ render_context.previous_component_instance }}|{{ children }}',
        },
      ],
    });
    expect(output.html).toBe('container||');
  });
});

describe('render: escaping', () => {
  const card = component(
    30,
    'card',
    '<a href="{{ url }}" title="{{ title }}">{{ title }}</a>{{ body }}{{ snippet }}',
    [
      text('title', ''),
      { type: 'url', label: 'URL', liquid_variable: 'url', default_value: '' },
      {
        type: 'rich_text',
        label: 'Body',
        liquid_variable: 'body',
        default_value: '',
        custom_styles_names: ['highlight'],
      },
      { type: 'code', label: 'Snippet', liquid_variable: 'snippet', default_value: '' },
    ],
  );

  it('escapes plain values and inserts rich_text (sanitised) and code as HTML', () => {
    const output = render({
      ...input([card], []),
      components: [{ ...container, template: '{{children}}' }, card],
      content: content([
        instance(30, {
          title: 'Fish & "chips" <b>',
          url: 'https://example.com/?a=1&b=2',
          body: '<p onclick="x()">Rich <span class="es-custom-style es-custom-style-highlight">text</span><script>bad()</script></p>',
          snippet: '<table><tr><td>raw</td></tr></table>',
        }),
      ]),
    });
    expect(output.html).toBe(
      '<a href="https://example.com/?a=1&amp;b=2" title="Fish &amp; &#34;chips&#34; &lt;b&gt;">Fish &amp; &#34;chips&#34; &lt;b&gt;</a>' +
        '<p>Rich <span class="es-custom-style es-custom-style-highlight" data-custom-style="highlight" style="color: #2f5bea;">text</span></p>' +
        '<table><tr><td>raw</td></tr></table>',
    );
  });

  it('escapes after filters, so url_encode sees the raw value; | raw opts out', () => {
    const tracking = component(
      31,
      'tracking',
      '{{ campaign | url_encode }}|{{ campaign | raw }}|{{ campaign | upcase }}',
      [text('campaign', 'Spring & <Summer>')],
    );
    const output = render({
      ...input([tracking], []),
      components: [{ ...container, template: '{{children}}' }, tracking],
      content: content([instance(31)]),
    });
    expect(output.html).toBe('Spring+%26+%3CSummer%3E|Spring & <Summer>|SPRING &amp; &lt;SUMMER&gt;');
  });

  it('keeps captured markup as markup', () => {
    const captured = component(
      32,
      'captured',
      '{% capture link %}<a href="{{ url }}">go</a>{% endcapture %}{{ link }}',
      [{ type: 'url', label: 'URL', liquid_variable: 'url', default_value: 'https://example.com/?a=1&b=2' }],
    );
    const output = render({
      ...input([captured], []),
      components: [{ ...container, template: '{{children}}' }, captured],
      content: content([instance(32)]),
    });
    expect(output.html).toBe('<a href="https://example.com/?a=1&amp;b=2">go</a>');
  });

  it('passes {% raw %} sending-platform code through untouched', () => {
    const personal = component(
      33,
      'personal',
      '<p>{% raw %}Hello {{ first_name }}, %%=v(@x)=%% {% if vip %}VIP{% endif %}{% endraw %} {{ copy }}</p>',
      [text('copy', 'more')],
    );
    const output = render({
      ...input([personal], []),
      components: [{ ...container, template: '{{children}}' }, personal],
      content: content([instance(33)]),
    });
    expect(output.html).toBe('<p>Hello {{ first_name }}, %%=v(@x)=%% {% if vip %}VIP{% endif %} more</p>');
  });

  it('treats Liquid typed into a value as text, never as template code', () => {
    const output = render(
      input([paragraph], [instance(10, { copy: '{{ render_context.email.id }} {% if x %}' })]),
    );
    expect(output.html).toContain('<p>{{ render_context.email.id }} {% if x %}</p>');
  });
});

describe('render: brand profiles', () => {
  const hero = component(
    40,
    'hero',
    '<h1 style="color: {{ render_context.design_tokens.colors.primary }}">{{ headline }}</h1>',
    [text('headline', 'System headline')],
  );
  const banner = component(41, 'banner', '<div>banner</div>');
  const brand: BrandProfileDefinition = {
    id: 6,
    name: 'Acme',
    design_tokens: { colors: { primary: '#acacac' } },
    component_overrides: [
      {
        component_id: 40,
        hidden: false,
        field_overrides: [{ liquid_variable: 'headline', default_value: 'Acme headline', label: 'Title' }],
      },
      { component_id: 41, hidden: true, field_overrides: [] },
    ],
  };

  it('merges tokens, uses overridden defaults and skips hidden components with a warning', () => {
    const skipped = instance(41);
    const output = render({
      ...input([hero, banner], []),
      components: [{ ...container, template: '{{children}}' }, hero, banner],
      brandProfile: brand,
      strict: true,
      content: content([instance(40), skipped, instance(40, { headline: 'Typed' })]),
    });
    expect(output.html).toBe(
      '<h1 style="color: #acacac">Acme headline</h1><h1 style="color: #acacac">Typed</h1>',
    );
    expect(output.diagnostics).toEqual([
      {
        code: 'hidden_component_skipped',
        severity: 'warning',
        message: 'Component banner is hidden by brand profile Acme; its instance was skipped',
        componentInstanceId: skipped.id,
        componentName: 'banner',
      },
    ]);
  });

  it('uses the brand’s custom styles in rich text', () => {
    const rich = component(42, 'rich', '{{ body }}', [
      {
        type: 'rich_text',
        label: 'Body',
        liquid_variable: 'body',
        default_value: '<span class="es-custom-style es-custom-style-highlight">x</span>',
        custom_styles_names: ['highlight'],
      },
    ]);
    const output = render({
      ...input([rich], []),
      components: [{ ...container, template: '{{children}}' }, rich],
      brandProfile: {
        ...brand,
        custom_styles: [{ name: 'highlight', label: 'Highlight', style: 'color: #acacac;' }],
      },
      content: content([instance(42)]),
    });
    expect(output.html).toContain('style="color: #acacac;"');
  });
});

describe('render: problems are diagnostics', () => {
  const broken = component(50, 'broken', '<p>ok</p>\n<p>{{ copy | shout }}</p>', [text('copy', '')]);
  const runaway = component(51, 'runaway', '{% for i in (1..100000000) %}{{ i }}{% endfor %}');
  const slow = component(
    52,
    'slow',
    '{% for i in (1..2000) %}{% for j in (1..2000) %}{{ j }}{% endfor %}{% endfor %}',
  );

  it('reports an unknown filter with line and column and still renders the rest', () => {
    const bad = instance(50);
    const output = render(input([broken, paragraph], [bad, instance(10, { copy: 'fine' })]));
    expect(output.html).toBe('<main data-brand="#ff0000"><p>fine</p></main>');
    expect(output.diagnostics).toEqual([
      {
        code: 'liquid_unknown_filter',
        severity: 'warning',
        message: 'undefined filter: shout',
        line: 2,
        column: 4,
        componentInstanceId: bad.id,
        componentName: 'broken',
      },
    ]);
  });

  it('makes template problems errors in strict mode', () => {
    const output = render(input([broken], [instance(50)], { strict: true }));
    expect(output.diagnostics.map((diagnostic) => diagnostic.severity)).toEqual(['error']);
  });

  it('shows a placeholder comment in previews', () => {
    const output = render(input([broken], [instance(50)], { mode: 'editor_preview' }));
    expect(output.html).toBe(
      '<main data-brand="#ff0000"><!-- Component broken did not render: undefined filter: shout --></main>',
    );
  });

  it('stops a runaway range with the memory limit instead of hanging', () => {
    const output = render(input([runaway, paragraph], [instance(51), instance(10, { copy: 'after' })]));
    expect(output.html).toContain('<p>after</p>');
    expect(output.diagnostics).toMatchObject([
      { code: 'liquid_memory_limit_exceeded', componentName: 'runaway' },
    ]);
  });

  it('stops a long loop with the render time limit', () => {
    const started = performance.now();
    const output = render(input([slow], [instance(52)], { limits: { renderLimitMs: 50, memoryLimit: 1e9 } }));
    expect(performance.now() - started).toBeLessThan(2000);
    expect(output.diagnostics).toMatchObject([
      { code: 'liquid_render_limit_exceeded', componentName: 'slow' },
    ]);
  });

  it('reports instances of unknown components and containers placed as children', () => {
    const output = render(
      input(
        [paragraph],
        [
          { ...instance(99), id: 'ghost' },
          { ...instance(1), id: 'nested' },
        ],
        { strict: true },
      ),
    );
    expect(output.html).toBe('<main data-brand="#ff0000"></main>');
    expect(output.diagnostics).toEqual([
      {
        code: 'unknown_component',
        severity: 'error',
        message: 'No component with id 99 in this design system',
        componentInstanceId: 'ghost',
      },
      {
        code: 'container_used_as_child',
        severity: 'error',
        message: 'Component container is the container and cannot be placed inside the email',
        componentInstanceId: 'nested',
        componentName: 'container',
      },
    ]);
  });

  it('renders the children alone when the container is missing, not a container, or broken', () => {
    const children = [instance(10, { copy: 'x' })];
    const missing = render({ ...input([paragraph], children), components: [paragraph] });
    expect(missing.html).toBe('<p>x</p>');
    expect(missing.diagnostics).toMatchObject([
      { code: 'unknown_component', componentInstanceId: 'container-instance' },
    ]);

    const notContainer = render({
      ...input([paragraph], children),
      components: [{ ...container, container: false }, paragraph],
    });
    expect(notContainer.html).toBe('<p>x</p>');
    expect(notContainer.diagnostics).toMatchObject([
      { code: 'container_expected', componentName: 'container' },
    ]);

    const brokenContainer = render({
      ...input([paragraph], children),
      components: [{ ...container, template: '{{ children | nope }}' }, paragraph],
    });
    expect(brokenContainer.html).toBe('<p>x</p>');
    expect(brokenContainer.diagnostics).toMatchObject([
      { code: 'liquid_unknown_filter', componentName: 'container' },
    ]);
  });
});

describe('render: plain text and CSS', () => {
  it('fills plainText from the HTML', () => {
    const output = render(input([paragraph], [instance(10, { copy: 'Hello & welcome' })]));
    expect(output.plainText).toBe('Hello & welcome');
    expect(JSON.parse(JSON.stringify(output)).plainText).toBe('Hello & welcome');
  });

  it('renders with output_format plaintext and keeps plain output as written, unescaped', () => {
    const dual = component(
      60,
      'dual',
      '{% if render_context.output_format == "plaintext" %}{{ copy }}\n{{ url }}\n{% else %}<p>{{ copy }}</p>{% endif %}',
      [
        text('copy', 'Fish & chips'),
        { type: 'url', label: 'URL', liquid_variable: 'url', default_value: 'https://example.com/?a=1&b=2' },
      ],
    );
    const output = render({
      ...input([dual], []),
      components: [{ ...container, template: '{{children}}' }, dual],
      content: content([instance(60), instance(60)]),
      outputFormat: 'plaintext',
    });
    expect(output.html).toBe(
      'Fish & chips\nhttps://example.com/?a=1&b=2\nFish & chips\nhttps://example.com/?a=1&b=2\n',
    );
    expect(output.plainText).toBe(
      'Fish & chips\nhttps://example.com/?a=1&b=2\nFish & chips\nhttps://example.com/?a=1&b=2',
    );
  });

  it('leaves hidden elements out of plain text', () => {
    const output = render({
      ...input([paragraph], [instance(10, { copy: 'Body' })]),
      components: [
        { ...container, template: '<div style="display: none; max-height: 0;">Preheader</div>{{children}}' },
        paragraph,
      ],
    });
    expect(output.plainText).toBe('Body');
  });

  it('inlines CSS on request and keeps media queries', () => {
    const styled = {
      ...container,
      template:
        '<html><head><style>p { color: red; } @media (prefers-color-scheme: dark) { p { color: white !important; } }</style></head><body>{{children}}</body></html>',
    };
    const plain = render({
      ...input([paragraph], [instance(10, { copy: 'x' })]),
      components: [styled, paragraph],
    });
    expect(plain.html).toContain('<p>x</p>');
    const inlined = render({
      ...input([paragraph], [instance(10, { copy: 'x' })]),
      components: [styled, paragraph],
      inlineCss: true,
    });
    expect(inlined.html).toContain('<p style="color: red;">x</p>');
    expect(inlined.html).toContain('@media (prefers-color-scheme: dark)');
    expect(inlined.html).not.toContain('p { color: red; }');
  });

  it('renders the same HTML, subject and diagnostics without the finishing through renderHtml', () => {
    const styled = {
      ...container,
      template: '<html><head><style>p { color: red; }</style></head><body>{{children}}</body></html>',
    };
    const broken = component(70, 'broken', '<p>{{ copy | no_such_filter }}</p>', [text('copy', 'x')]);
    const preview = {
      ...input([paragraph, broken], [instance(10, { copy: 'Fish & chips' }), instance(70)]),
      components: [styled, paragraph, broken],
      mode: 'editor_preview',
    } satisfies RenderInput;
    const unfinished = renderHtml(preview);
    const { plainText: _plainText, ...finished } = render(preview);
    expect(unfinished).toEqual(finished);
    expect(unfinished.html).toContain('p { color: red; }');
    expect(unfinished.diagnostics).toHaveLength(1);
    expect('plainText' in unfinished).toBe(false);
  });
});

describe('render: what is remembered between renders', () => {
  const richField = (extra: Partial<FieldDefinition> = {}): FieldDefinition => ({
    type: 'rich_text',
    label: 'Body',
    liquid_variable: 'body',
    default_value: '',
    marks: { bold: { enabled: true }, italic: { enabled: true } },
    ...extra,
  });

  it('uses a component’s new template when it was edited in place between two renders', () => {
    const editable = component(60, 'editable', '<p>{{ copy }}</p>', [text('copy', 'x')]);
    const renderInput = input([editable], [instance(60, { copy: 'hello' })]);
    expect(render(renderInput).html).toBe('<main data-brand="#ff0000"><p>hello</p></main>');
    editable.template = '<h2>{{ copy | upcase }}</h2>';
    expect(render(renderInput).html).toBe('<main data-brand="#ff0000"><h2>HELLO</h2></main>');
  });

  it('uses a component’s new template when the edit came as a new definition', () => {
    const before = component(61, 'replaced', '<p>{{ copy }}</p>', [text('copy', 'x')]);
    const after = { ...before, template: '<div>{{ copy }}!</div>' };
    const children = [instance(61, { copy: 'hi' })];
    expect(render(input([before], children)).html).toBe('<main data-brand="#ff0000"><p>hi</p></main>');
    expect(render(input([after], children)).html).toBe('<main data-brand="#ff0000"><div>hi!</div></main>');
    expect(render(input([before], children)).html).toBe('<main data-brand="#ff0000"><p>hi</p></main>');
  });

  it('never gives one design system the template of another’s component with the same id', () => {
    const ours = component(62, 'banner', '<p class="ours">{{ copy }}</p>', [text('copy', 'x')]);
    const theirs = component(62, 'banner', '<p class="theirs">{{ copy }}</p>', [text('copy', 'x')]);
    const children = [instance(62, { copy: 'same' })];
    const otherSystem = { ...designSystem, id: 4, name: 'Other system' };
    for (let round = 0; round < 2; round += 1) {
      expect(render(input([ours], children)).html).toBe(
        '<main data-brand="#ff0000"><p class="ours">same</p></main>',
      );
      expect(render(input([theirs], children, { designSystem: otherSystem })).html).toBe(
        '<main data-brand="#ff0000"><p class="theirs">same</p></main>',
      );
    }
  });

  it('sanitises rich text again when the field’s marks or a custom style changed in place', () => {
    const field = richField({ custom_styles_names: ['highlight'] });
    const article = component(63, 'article', '{{ body }}', [field]);
    const styles = [{ name: 'highlight', label: 'Highlight', style: 'color: #2f5bea;' }];
    const renderInput = input(
      [article],
      [
        instance(63, {
          body: '<p><b>Bold</b> <i>it</i> <span class="es-custom-style es-custom-style-highlight">hi</span></p>',
        }),
      ],
    );
    renderInput.designSystem = { ...designSystem, custom_styles: styles };
    const first = render(renderInput).html;
    expect(first).toContain('<em class="es-italic">it</em>');
    expect(first).toContain('style="color: #2f5bea;"');

    field.marks = { bold: { enabled: true }, italic: { enabled: false } };
    (styles[0] as { style: string }).style = 'color: #ff0000;';
    const second = render(renderInput).html;
    expect(second).toBe(
      '<main data-brand="#ff0000"><p><strong class="es-bold">Bold</strong> it ' +
        '<span class="es-custom-style es-custom-style-highlight" data-custom-style="highlight" style="color: #ff0000;">hi</span></p></main>',
    );
  });

  it('keeps values of one render out of the next', () => {
    const counter = component(64, 'counter', '{% assign seen = seen | plus: 1 %}{{ seen }}', []);
    const children = [instance(64), instance(64)];
    expect(render(input([counter], children)).html).toBe('<main data-brand="#ff0000">11</main>');
    expect(render(input([counter], children)).html).toBe('<main data-brand="#ff0000">11</main>');
  });
});
