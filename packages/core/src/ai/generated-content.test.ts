import { describe, expect, it } from 'vitest';
import type { EmailContent } from '../content/types.ts';
import type { FieldDefinition } from '../fields/types.ts';
import type { BrandedComponent } from '../render/design-system.ts';
import {
  componentsForAi,
  composeEmailSchema,
  contentWithComposedEmail,
  contentWithRewrittenEmail,
  describeComponentsForPrompt,
  neutralizeTemplateSyntax,
  readComposedEmail,
  readRewrittenEmail,
  rewritableSections,
  rewriteEmailSchema,
} from './generated-content.ts';

const headline: FieldDefinition = {
  type: 'text',
  label: 'Headline',
  liquid_variable: 'headline',
  default_value: 'Your headline',
  validations: { max_length: 20, must_not_be_blank: true },
};
const body: FieldDefinition = {
  type: 'rich_text',
  label: 'Body',
  liquid_variable: 'body',
  default_value: '<p>Body</p>',
};
const link: FieldDefinition = {
  type: 'url',
  label: 'Link',
  liquid_variable: 'link',
  default_value: 'https://example.com',
};
const tracking: FieldDefinition = {
  type: 'code',
  label: 'Tracking',
  liquid_variable: 'tracking',
  default_value: '',
};
const secret: FieldDefinition = {
  type: 'text',
  label: 'Legal',
  liquid_variable: 'legal',
  default_value: '© Acme',
  hidden_from_ai: true,
};
const align: FieldDefinition = {
  type: 'horizontal_align',
  label: 'Align',
  liquid_variable: 'align',
  default_value: 'left',
  options: ['left', 'center'],
};

function component(id: number, name: string, extra: Partial<BrandedComponent> = {}): BrandedComponent {
  return {
    id,
    name,
    label: name.toUpperCase(),
    container: false,
    template: '',
    description: `A ${name} section`,
    field_definitions: [headline, body, link, tracking, secret, align],
    hidden: false,
    ...extra,
  };
}

const components = componentsForAi([
  component(1, 'container', { container: true }),
  component(2, 'hero'),
  component(3, 'old', { deprecated: true }),
  component(4, 'hidden', { hidden: true }),
  component(5, 'text_block'),
]);

describe('componentsForAi', () => {
  it('offers neither the container nor hidden or deprecated components, nor code, nor fields hidden from AI', () => {
    expect(components.map((entry) => entry.component.name)).toEqual(['hero', 'text_block']);
    expect(components[0]?.fields.map((field) => field.liquid_variable)).toEqual([
      'headline',
      'body',
      'link',
      'align',
    ]);
  });

  it('describes components with their descriptions, field types, choices and rules', () => {
    const text = describeComponentsForPrompt(components);
    expect(text).toContain('- hero (HERO): A hero section');
    expect(text).toContain('headline (text, “Headline”); rules: max_length 20, must_not_be_blank');
    expect(text).toContain('align (horizontal_align, “Align”); one of left, center');
  });
});

describe('schemas', () => {
  it('lets the model choose among the components, every field required and nothing else', () => {
    const schema = composeEmailSchema(components) as {
      properties: {
        sections: { items: { anyOf: { properties: { component: unknown; values: unknown } }[] } };
      };
    };
    const [hero] = schema.properties.sections.items.anyOf;
    expect(hero?.properties.component).toEqual({ type: 'string', enum: ['hero'] });
    expect(hero?.properties.values).toMatchObject({
      required: ['headline', 'body', 'link', 'align'],
      additionalProperties: false,
      properties: { align: { type: 'string', enum: ['left', 'center'] } },
    });
  });

  it('keeps a rewritten email’s sections by instance id', () => {
    const content = emailWith([{ id: 'a-1', component_id: 2, field_values: {} }]);
    const sections = rewritableSections(content, components, 'en-US');
    const schema = rewriteEmailSchema(sections) as { properties: { sections: { required: string[] } } };
    expect(schema.properties.sections.required).toEqual(['a-1']);
    expect(sections[0]?.current.headline).toBe('Your headline');
  });
});

describe('reading a composed email', () => {
  const valid = {
    subject: 'Summer  sale',
    preheader: 'Up to 50% off',
    sections: [
      {
        component: 'hero',
        values: {
          headline: 'Hot deals',
          body: '<p>Save <b>big</b></p>',
          link: 'https://a.example/x',
          align: 'center',
        },
      },
    ],
  };

  it('reads a valid answer with no problems, rich text through the allow-list', () => {
    const read = readComposedEmail(valid, components);
    expect(read.problems).toEqual([]);
    expect(read.subject).toBe('Summer sale');
    expect(read.sections[0]?.values.body).toBe('<p>Save <strong class="es-bold">big</strong></p>');
  });

  it('reports every invalid value at its path and keeps the valid ones', () => {
    const read = readComposedEmail(
      {
        subject: '',
        preheader: 'ok',
        sections: [
          {
            component: 'hero',
            values: {
              headline: 'A headline far longer than twenty',
              body: '<p>x</p>',
              link: 'javascript:alert(1)',
              align: 'right',
            },
          },
          { component: 'no_such', values: {} },
        ],
      },
      components,
    );
    expect(read.problems.map((problem) => problem.path)).toEqual([
      'subject',
      'sections[0].values.headline',
      'sections[0].values.link',
      'sections[0].values.align',
      'sections[1].component',
    ]);
    expect(read.problems.find((problem) => problem.path.endsWith('link'))?.message).toBe(
      'must be an http(s) or mailto link',
    );
    expect(read.sections).toHaveLength(1);
    expect(read.sections[0]?.values).toEqual({ body: '<p>x</p>' });
  });

  it('breaks template syntax apart and drops markup the allow-list refuses', () => {
    const read = readComposedEmail(
      {
        ...valid,
        subject: 'Hi {{first_name}}',
        sections: [
          {
            component: 'hero',
            values: {
              ...valid.sections[0]?.values,
              headline: '{% raw %}x',
              body: '<p onclick="x()">%%=v(@a)=%%<script>bad()</script></p>',
            },
          },
        ],
      },
      components,
    );
    expect(read.subject).toBe('Hi { {first_name}}');
    expect(read.sections[0]?.values.headline).toBe('{ % raw %}x');
    const bodyValue = String(read.sections[0]?.values.body);
    expect(bodyValue).not.toContain('<script');
    expect(bodyValue).not.toContain('onclick');
    expect(bodyValue).not.toContain('%%');
  });

  it('writes the sections as the email’s body in one locale', () => {
    const read = readComposedEmail(valid, components);
    let counter = 0;
    const content = contentWithComposedEmail(emailWith([]), read, 'en-US', () => `id-${++counter}`);
    expect(content.subject.branch_content.null_branch?.['en-US']).toBe('Summer sale');
    expect(content.component_instances).toEqual([
      {
        id: 'id-1',
        component_id: 2,
        field_values: {
          null_branch: {
            'en-US': {
              headline: { value: 'Hot deals' },
              body: { value: '<p>Save <strong class="es-bold">big</strong></p>' },
              link: { value: 'https://a.example/x' },
              align: { value: 'center' },
            },
          },
        },
      },
    ]);
  });
});

describe('reading a rewritten email', () => {
  it('writes the new values over the locale’s and leaves other locales and conditional sections alone', () => {
    const content = emailWith([
      {
        id: 'a-1',
        component_id: 2,
        field_values: {
          null_branch: { 'en-US': { headline: { value: 'Old' } }, 'fr-FR': { headline: { value: 'Vieux' } } },
        },
      },
      { id: 'b-2', component_id: 2, conditional_id: 7, field_values: {} },
    ]);
    const sections = rewritableSections(content, components, 'en-US');
    expect(sections.map((section) => section.instanceId)).toEqual(['a-1']);
    const read = readRewrittenEmail(
      {
        subject: 'New',
        preheader: 'Pre',
        sections: { 'a-1': { headline: 'New', body: '<p>b</p>', link: 'mailto:a@b.example', align: 'left' } },
      },
      sections,
    );
    expect(read.problems).toEqual([]);
    const next = contentWithRewrittenEmail(content, read, 'en-US');
    expect(next.component_instances[0]?.field_values.null_branch?.['en-US']?.headline).toEqual({
      value: 'New',
    });
    expect(next.component_instances[0]?.field_values.null_branch?.['fr-FR']?.headline).toEqual({
      value: 'Vieux',
    });
    expect(next.component_instances[1]).toBe(content.component_instances[1]);
  });

  it('reports a missing section', () => {
    const content = emailWith([{ id: 'a-1', component_id: 2, field_values: {} }]);
    const read = readRewrittenEmail(
      { subject: 's', preheader: 'p', sections: {} },
      rewritableSections(content, components, 'en-US'),
    );
    expect(read.problems).toEqual([{ path: 'sections.a-1', message: 'must be an object of field values' }]);
  });
});

describe('neutralizeTemplateSyntax', () => {
  it('breaks Liquid, AMPscript and ERB-like openers and leaves ordinary text alone', () => {
    expect(neutralizeTemplateSyntax('{{a}} {%b%} %%c%% <%= d %>')).toBe('{ {a}} { %b%} % %c% % < %= d %>');
    expect(neutralizeTemplateSyntax('50% off {x}')).toBe('50% off {x}');
  });
});

function emailWith(instances: EmailContent['component_instances']): EmailContent {
  return {
    subject: { branch_content: { null_branch: { 'en-US': '' } } },
    preheader: { branch_content: { null_branch: { 'en-US': '' } } },
    container_component_instance: { id: 'c', component_id: 1, field_values: {} },
    component_instances: instances,
  };
}
