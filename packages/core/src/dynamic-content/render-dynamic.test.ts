import { describe, expect, it } from 'vitest';
import type { ComponentInstance, EmailContent } from '../content/types.ts';
import type { ComponentDefinition, DesignSystemDefinition } from '../render/design-system.ts';
import type { RenderInput } from '../render/render.ts';
import { render } from '../render/render-email.ts';
import type { ConditionalDefinition } from './conditionals.ts';
import type { LinkTrackingProfileDefinition } from './link-tracking.ts';
import type { PersonalizationTagDefinition } from './personalization-tags.ts';
import { compilePickerState, type PickerState } from './presets.ts';

const designSystem: DesignSystemDefinition = { id: 1, name: 'System', design_tokens: {}, custom_styles: [] };
const container: ComponentDefinition = {
  id: 1,
  name: 'container',
  label: 'Email',
  container: true,
  template: '<main>{{ children }}</main>',
  field_definitions: [],
};
const card: ComponentDefinition = {
  id: 2,
  name: 'card',
  container: false,
  label: 'Card',
  template: '<h1>{{ headline }}</h1>{{ body }}<a href="{{ cta }}">Go</a><a href="{{ plain }}">Raw</a>',
  field_definitions: [
    { type: 'text', label: 'Headline', liquid_variable: 'headline', default_value: 'Hello' },
    { type: 'rich_text', label: 'Body', liquid_variable: 'body', default_value: '<p>Body</p>' },
    { type: 'url', label: 'CTA', liquid_variable: 'cta', default_value: 'https://example.com/default' },
    {
      type: 'url',
      label: 'Plain',
      liquid_variable: 'plain',
      default_value: 'https://example.com/untracked',
      skip_link_tracking: true,
    },
  ],
};

const tiers: ConditionalDefinition = {
  id: 7,
  label: 'Tiers',
  branches: [
    { key: 'gold', label: 'Gold' },
    { key: 'silver', label: 'Silver' },
    { key: 'other', label: 'Everyone else' },
  ],
  default_syntax: {
    closing: '{% endif %}',
    branch_values: {
      gold: "{% if tier == 'gold' %}",
      silver: "{% elsif tier == 'silver' %}",
      other: '{% else %}',
    },
  },
  can_be_used_in_subject_and_preheader: true,
};
const picker: PickerState = {
  include_else_branch: true,
  branches: {
    gold: { conditions: [{ attribute: 'tier', type: 'string', operator: 'equals', value: 'gold' }] },
    silver: { conditions: [{ attribute: 'tier', type: 'string', operator: 'equals', value: 'silver' }] },
  },
};
const keys = ['gold', 'silver', 'other'];
tiers.dynamic_content_profile_syntaxes = {
  iterable: compilePickerState('handlebars', keys, picker),
  sfmc: compilePickerState('ampscript', keys, picker),
  braze: compilePickerState('liquid', keys, picker),
};

const headlines = (values: Record<string, string>): ComponentInstance['field_values'] =>
  Object.fromEntries(
    Object.entries(values).map(([key, text]) => [key, { 'en-US': { headline: { value: text } } }]),
  );

function content(instances: ComponentInstance[], extra: Partial<EmailContent> = {}): EmailContent {
  return {
    subject: { branch_content: { null_branch: { 'en-US': 'Subject' } } },
    preheader: { branch_content: { null_branch: { 'en-US': '' } } },
    container_component_instance: { id: 'c', component_id: 1, field_values: {} },
    component_instances: instances,
    ...extra,
  };
}

const tiered: ComponentInstance = {
  id: 'a',
  component_id: 2,
  conditional_id: 7,
  field_values: headlines({ gold: 'Gold!', silver: 'Silver!', other: 'Hi!' }),
};

function run(input: Partial<RenderInput>) {
  return render({
    designSystem,
    components: [container, card],
    brandProfile: null,
    content: content([tiered]),
    locale: 'en-US',
    mode: 'export',
    ...input,
  });
}

const card3 = (headline: string) =>
  `<h1>${headline}</h1><p>Body</p><a href="https://example.com/default">Go</a><a href="https://example.com/untracked">Raw</a>`;

describe('conditionals in a render', () => {
  it.each([
    [
      'iterable',
      `{{#if (eq tier "gold")}}${card3('Gold!')}{{else if (eq tier "silver")}}${card3('Silver!')}{{else}}${card3('Hi!')}{{/if}}`,
    ],
    [
      'sfmc',
      `%%[ IF @tier == "gold" THEN ]%%${card3('Gold!')}%%[ ELSEIF @tier == "silver" THEN ]%%${card3('Silver!')}%%[ ELSE ]%%${card3('Hi!')}%%[ ENDIF ]%%`,
    ],
    [
      'braze',
      `{% if tier == "gold" %}${card3('Gold!')}{% elsif tier == "silver" %}${card3('Silver!')}{% else %}${card3('Hi!')}{% endif %}`,
    ],
    [
      'unknown profile',
      `{% if tier == 'gold' %}${card3('Gold!')}{% elsif tier == 'silver' %}${card3('Silver!')}{% else %}${card3('Hi!')}{% endif %}`,
    ],
  ])('export for profile %s compiles every branch in order, raw', (profileId, expected) => {
    const output = run({ dynamicContent: { profileId, conditionals: [tiers] } });
    expect(output.html).toBe(`<main>${expected}</main>`);
    expect(output.diagnostics).toEqual([]);
  });

  it('export without a profile holds only the default branch, with no syntax', () => {
    const output = run({ dynamicContent: { profileId: null, conditionals: [tiers] } });
    expect(output.html).toBe(`<main>${card3('Hi!')}</main>`);
    const chosen = { ...tiers, default_branch_key: 'silver' };
    expect(run({ dynamicContent: { conditionals: [chosen] } }).html).toBe(`<main>${card3('Silver!')}</main>`);
    // One audience's export: the branch it selects.
    expect(run({ dynamicContent: { conditionals: [tiers] }, branchSelection: { 7: 'gold' } }).html).toBe(
      `<main>${card3('Gold!')}</main>`,
    );
  });

  it('export for a profile without syntax shows the default branch and reports it, never stacks', () => {
    const blank = {
      ...tiers,
      default_syntax: { closing: '', branch_values: { gold: '', silver: '', other: '' } },
      dynamic_content_profile_syntaxes: {},
    };
    const branched = {
      conditional_id: 7,
      branch_content: { gold: { 'en-US': 'G' }, other: { 'en-US': 'E' } },
    };
    const output = run({
      content: content([tiered, { ...tiered, id: 'b' }], { subject: branched }),
      strict: true,
      dynamicContent: { profileId: 'iterable', conditionals: [blank] },
    });
    expect(output.html).toBe(`<main>${card3('Hi!')}${card3('Hi!')}</main>`);
    expect(output.subject).toBe('E');
    expect(output.diagnostics.map((d) => [d.code, d.severity])).toEqual([
      ['missing_conditional_syntax', 'error'],
    ]);
  });

  it('renders a branch without stored values from the field defaults', () => {
    const sparse = { ...tiered, field_values: headlines({ silver: 'Silver!' }) };
    const output = run({
      content: content([sparse]),
      dynamicContent: { profileId: 'braze', conditionals: [tiers] },
    });
    expect(output.html).toContain(`{% if tier == "gold" %}${card3('Hello')}{% elsif`);
  });

  it('previews only the branch selected in the editor (the default branch when none is)', () => {
    const preview = (branchSelection?: Record<string, string>) =>
      run({
        mode: 'editor_preview',
        dynamicContent: { conditionals: [tiers] },
        ...(branchSelection ? { branchSelection } : {}),
      }).html;
    expect(preview({ 7: 'silver' })).toBe(`<main>${card3('Silver!')}</main>`);
    expect(preview()).toBe(`<main>${card3('Hi!')}</main>`);
    expect(preview({ 7: 'bronze' })).toBe(`<main>${card3('Hi!')}</main>`);
    expect(run({ mode: 'render_api', dynamicContent: { conditionals: [tiers] } }).html).toBe(
      `<main>${card3('Hi!')}</main>`,
    );
    // Without the conditional's definition, the first branch the content holds.
    expect(run({ mode: 'editor_preview' }).html).toBe(`<main>${card3('Gold!')}</main>`);
  });

  it('compiles the subject and preheader the same way', () => {
    const branched = {
      conditional_id: 7,
      branch_content: {
        gold: { 'en-US': 'Gold & you' },
        silver: { 'en-US': 'Silver' },
        other: { 'en-US': 'Hi' },
      },
    };
    const output = run({
      content: content([], { subject: branched, preheader: branched }),
      dynamicContent: { profileId: 'sfmc', conditionals: [tiers] },
    });
    const compiled =
      '%%[ IF @tier == "gold" THEN ]%%Gold & you%%[ ELSEIF @tier == "silver" THEN ]%%Silver%%[ ELSE ]%%Hi%%[ ENDIF ]%%';
    expect(output.subject).toBe(compiled);
    expect(output.preheader).toBe(compiled);
  });

  it('reports a conditional that is not allowed in the subject, and unknown conditionals', () => {
    const notInSubject = { ...tiers, can_be_used_in_subject_and_preheader: false };
    const output = run({
      content: content([{ ...tiered, conditional_id: 99 }], {
        subject: { conditional_id: 7, branch_content: { gold: { 'en-US': 'Gold' } } },
      }),
      strict: true,
      dynamicContent: { conditionals: [notInSubject] },
    });
    expect(output.subject).toBe('');
    expect(output.html).toBe('<main></main>');
    expect(output.diagnostics.map((d) => [d.code, d.severity, d.componentInstanceId])).toEqual([
      ['conditional_not_allowed_in_subject_and_preheader', 'error', undefined],
      ['unknown_conditional', 'error', 'a'],
    ]);
  });
});

const firstName: PersonalizationTagDefinition = {
  id: 3,
  default_value: 'friend',
  example_value: 'Ada <3',
  dynamic_content_profile_values: { iterable: '{{firstName}}', sfmc: '%%=v(@firstName)=%%' },
};
const everywhere: ComponentInstance = {
  id: 't',
  component_id: 2,
  field_values: {
    null_branch: {
      'en-US': {
        headline: { value: 'Hi {tag:3}' },
        body: { value: '<p>Dear <b>{tag:3}</b></p>' },
        cta: { value: 'https://example.com/?name={tag:3}' },
      },
    },
  },
};
const taggedContent = content([everywhere], {
  subject: { branch_content: { null_branch: { 'en-US': '{tag:3}, your offer' } } },
  preheader: { branch_content: { null_branch: { 'en-US': 'Only for {tag:3}' } } },
});

describe('personalization tags in a render', () => {
  const tagged = (mode: RenderInput['mode'], profileId?: string) =>
    run({
      mode,
      content: taggedContent,
      dynamicContent: { profileId: profileId ?? null, personalizationTags: [firstName] },
    });

  it('preview shows the example value in every field type and in subject and preheader', () => {
    const output = tagged('editor_preview');
    expect(output.html).toBe(
      '<main><h1>Hi Ada &lt;3</h1><p>Dear <strong class="es-bold">Ada &lt;3</strong></p>' +
        '<a href="https://example.com/?name=Ada &lt;3">Go</a><a href="https://example.com/untracked">Raw</a></main>',
    );
    expect(output.subject).toBe('Ada <3, your offer');
    expect(output.preheader).toBe('Only for Ada <3');
  });

  it('editor preview shows tag names instead when asked, and no other mode does', () => {
    const withNames = (mode: RenderInput['mode']) =>
      run({
        mode,
        content: taggedContent,
        dynamicContent: {
          personalizationTags: [{ ...firstName, label: 'First name' }],
          showPersonalizationTagNames: true,
        },
      });
    const output = withNames('editor_preview');
    expect(output.html).toMatch(
      /^<main><h1>Hi <span class="es-personalization-tag-name" style="[^"]+">\{First name\}<\/span><\/h1>/,
    );
    expect(output.html).toContain('<a href="https://example.com/?name={First name}">Go</a>');
    expect(output.subject).toBe('{First name}, your offer');
    expect(output.preheader).toBe('Only for {First name}');
    expect(withNames('email_design_system_preview').subject).toBe('Ada <3, your offer');
    expect(withNames('export').subject).toBe('friend, your offer');
    expect(withNames('render_api').html).toContain('<h1>Hi friend</h1>');
  });

  it('export emits the profile’s value raw', () => {
    const output = tagged('export', 'iterable');
    expect(output.html).toBe(
      '<main><h1>Hi {{firstName}}</h1><p>Dear <strong class="es-bold">{{firstName}}</strong></p>' +
        '<a href="https://example.com/?name={{firstName}}">Go</a><a href="https://example.com/untracked">Raw</a></main>',
    );
    expect(output.subject).toBe('{{firstName}}, your offer');
    expect(tagged('export', 'sfmc').preheader).toBe('Only for %%=v(@firstName)=%%');
  });

  it('export without a profile emits the default value', () => {
    const output = tagged('export');
    expect(output.html).toContain('<h1>Hi friend</h1>');
    expect(output.subject).toBe('friend, your offer');
  });

  it('plain text output does not escape example values', () => {
    const output = run({
      mode: 'editor_preview',
      outputFormat: 'plaintext',
      content: taggedContent,
      dynamicContent: { personalizationTags: [firstName] },
    });
    expect(output.html).toContain('<h1>Hi Ada <3</h1>');
  });

  it('reports unknown tags and leaves their token out', () => {
    const output = run({ content: taggedContent, dynamicContent: { personalizationTags: [] } });
    expect(output.subject).toBe(', your offer');
    expect(output.diagnostics).toEqual([
      {
        code: 'unknown_personalization_tag',
        severity: 'warning',
        message: 'No personalization tag with id 3; its token was left out',
      },
    ]);
  });
});

describe('link tracking in a render', () => {
  const profile: LinkTrackingProfileDefinition = {
    parameters: [
      { type: 'fixed_value', parameter: 'utm_source', value: 'letterset' },
      { type: 'editor_field_value', parameter: 'utm_content' },
      { type: 'editor_global_field_value', parameter: 'utm_campaign' },
    ],
  };
  const linked: ComponentInstance = {
    id: 'l',
    component_id: 2,
    field_values: {
      null_branch: {
        'en-US': {
          body: {
            value:
              '<p><a href="https://example.com/a?x=1#part">A</a> <a href="mailto:a@example.com">M</a> <a href="tel:+1">T</a> <a href="https://example.com/{{id}}">P</a></p>',
            link_tracking_parameters: { utm_content: 'body' },
          },
          cta: { value: 'https://example.com/cta', link_tracking_parameters: { utm_content: 'button' } },
          plain: { value: 'https://example.com/plain' },
        },
      },
    },
  };

  it('tracks url fields and rich-text links, skipping what must not be tracked', () => {
    const output = run({
      mode: 'editor_preview',
      content: content([linked], { global_link_tracking_parameters: { utm_campaign: 'spring' } }),
      dynamicContent: { linkTrackingProfile: profile },
    });
    expect(output.html).toBe(
      '<main><h1>Hello</h1><p><a class="es-link" href="https://example.com/a?x=1&amp;utm_source=letterset&amp;utm_content=body&amp;utm_campaign=spring#part">A</a>' +
        ' <a class="es-link" href="mailto:a@example.com">M</a> <a class="es-link" href="tel:+1">T</a>' +
        ' <a class="es-link" href="https://example.com/{{id}}">P</a></p>' +
        '<a href="https://example.com/cta?utm_source=letterset&amp;utm_content=button&amp;utm_campaign=spring">Go</a>' +
        '<a href="https://example.com/plain">Raw</a></main>',
    );
  });

  it('tracks a url field’s default value too, and applies custom templates', () => {
    const output = run({
      content: content([{ id: 'd', component_id: 2, field_values: {} }]),
      dynamicContent: {
        linkTrackingProfile: {
          ...profile,
          custom_template: 'https://r.example.net/?u={{ url | url_encode }}&{{ query }}',
        },
      },
    });
    expect(output.html).toContain(
      '<a href="https://r.example.net/?u=https%3A%2F%2Fexample.com%2Fdefault&amp;utm_source=letterset">Go</a>',
    );
    expect(output.html).toContain('<a href="https://example.com/untracked">Raw</a>');
  });
});
