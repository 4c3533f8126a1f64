import { describe, expect, it } from 'vitest';
import { applyCommands } from '../editing/apply-command.ts';
import type { EditorDocument } from '../editing/document.ts';
import type { FieldDefinition } from '../fields/types.ts';
import { type PermissionKey, permissionKeys } from '../permissions.ts';
import type { BrandedComponent } from '../render/design-system.ts';
import {
  chatAddComponent,
  chatMoveComponent,
  chatRemoveComponent,
  chatSetFieldValues,
  chatSetPreheader,
  chatSetSubject,
  describeEmailForChat,
  type EmailChatEditContext,
  type EmailChatEditResult,
} from './email-chat.ts';
import { componentsForAi } from './generated-content.ts';

const headline: FieldDefinition = {
  type: 'text',
  label: 'Headline',
  liquid_variable: 'headline',
  default_value: 'A headline',
  validations: { must_not_be_blank: true, max_length: 40 },
};
const link: FieldDefinition = { type: 'url', label: 'Link', liquid_variable: 'link', default_value: '' };
const image: FieldDefinition = {
  type: 'image',
  label: 'Image',
  liquid_variable: 'image_url',
  default_value: 'https://example.com/a.png',
};
const legal: FieldDefinition = {
  type: 'text',
  label: 'Legal',
  liquid_variable: 'legal',
  default_value: '© Acme',
  hidden_from_ai: true,
};

function component(
  id: number,
  name: string,
  fields: FieldDefinition[],
  extra: Partial<BrandedComponent> = {},
) {
  return {
    id,
    name,
    label: name[0]?.toUpperCase() + name.slice(1),
    container: false,
    template: '',
    field_definitions: fields,
    hidden: false,
    ...extra,
  } satisfies BrandedComponent;
}

const container = component(1, 'container', [], { container: true });
const hero = component(2, 'hero', [headline, link, image]);
const footer = component(3, 'footer', [legal]);
const hiddenByBrand = component(4, 'banner', [headline], { hidden: true });
const branded = [container, hero, footer, hiddenByBrand];

const ids = {
  container: '00000000-0000-4000-8000-000000000000',
  hero: '00000000-0000-4000-8000-000000000001',
  footer: '00000000-0000-4000-8000-000000000002',
  tiered: '00000000-0000-4000-8000-000000000003',
  added: '00000000-0000-4000-8000-0000000000aa',
};

function emailDocument(): EditorDocument {
  return {
    locales: ['en-US', 'fr-FR'],
    defaultLocale: 'en-US',
    content: {
      subject: { conditional_id: null, branch_content: { null_branch: { 'en-US': 'Hello' } } },
      preheader: { conditional_id: null, branch_content: { null_branch: { 'en-US': 'Read on' } } },
      container_component_instance: { id: ids.container, component_id: 1, field_values: {} },
      component_instances: [
        {
          id: ids.hero,
          component_id: 2,
          conditional_id: null,
          field_values: { null_branch: { 'en-US': { headline: { value: 'Spring is here' } } } },
        },
        { id: ids.footer, component_id: 3, conditional_id: null, field_values: {} },
        {
          id: ids.tiered,
          component_id: 2,
          conditional_id: 7,
          field_values: { gold: { 'en-US': { headline: { value: 'Gold' } } } },
        },
      ],
    },
  };
}

function context(overrides: Partial<EmailChatEditContext> = {}): EmailChatEditContext {
  return {
    document: emailDocument(),
    locale: 'en-US',
    components: componentsForAi(branded),
    componentsById: new Map(branded.map((entry) => [entry.id, entry])),
    permissions: new Set(permissionKeys),
    customStyles: [],
    frozenReason: null,
    newInstanceId: () => ids.added,
    ...overrides,
  };
}

function done(result: EmailChatEditResult) {
  if (!result.ok) throw new Error(`expected the action to be done: ${result.message}`);
  return result;
}

describe('chatAddComponent', () => {
  it('inserts the component with its checked values in the locale on screen, where it is asked', () => {
    const result = done(
      chatAddComponent(context(), {
        component: 'hero',
        after_instance_id: ids.hero,
        values: { headline: '  Summer {{ sale }}  ', link: 'https://shop.example/summer' },
      }),
    );
    expect(result.command).toEqual({
      type: 'insertComponent',
      componentId: 2,
      index: 1,
      instanceId: ids.added,
      fieldValues: {
        null_branch: {
          'en-US': {
            headline: { value: 'Summer { { sale }}' },
            link: { value: 'https://shop.example/summer' },
          },
        },
      },
    });
    expect(result.summary).toBe('Added Hero');
    expect(result.details).toEqual({ instance_id: ids.added, position: 2 });
    expect(result.document.content.component_instances.map((instance) => instance.id)).toEqual([
      ids.hero,
      ids.added,
      ids.footer,
      ids.tiered,
    ]);
  });

  it('goes at the end without a place, or at a 1-based position', () => {
    expect(done(chatAddComponent(context(), { component: 'hero' })).command).toMatchObject({
      index: 3,
      fieldValues: {},
    });
    expect(done(chatAddComponent(context(), { component: 'hero', position: 1 })).command).toMatchObject({
      index: 0,
    });
    expect(chatAddComponent(context(), { component: 'hero', position: 9 })).toEqual({
      ok: false,
      outcome: 'failed',
      message: 'position must be a whole number from 1 to 4.',
    });
  });

  it('fails with every problem for values that break the fields’ rules, and changes nothing', () => {
    const result = chatAddComponent(context(), {
      component: 'hero',
      values: { headline: '', link: 'javascript:alert(1)' },
    });
    expect(result).toEqual({
      ok: false,
      outcome: 'failed',
      message:
        "Invalid values, nothing was changed:\n- values.headline: can't be blank\n- values.link: must be an http(s) or mailto link",
    });
  });

  it('offers only components and fields the assistant may use', () => {
    expect(chatAddComponent(context(), { component: 'banner' })).toMatchObject({
      outcome: 'failed',
      message: 'There is no component “banner” the assistant may use; choose one of: hero, footer.',
    });
    expect(chatAddComponent(context(), { component: 'hero', values: { image_url: 'x' } })).toMatchObject({
      outcome: 'failed',
      message: '“image_url” is not a field of Hero the assistant may write; its fields are: headline, link.',
    });
    expect(chatAddComponent(context(), { component: 'footer', values: { legal: 'x' } })).toMatchObject({
      message: '“legal” is not a field of Footer the assistant may write; it has none.',
    });
  });

  it('is refused to a role that cannot add components, before anything else is checked', () => {
    const permissions = new Set<PermissionKey>(['update_emails']);
    expect(chatAddComponent(context({ permissions }), { component: 'nope' })).toEqual({
      ok: false,
      outcome: 'refused',
      message:
        'Refused: you cannot add components (your role lacks the add_remove_reorder_email_components permission)',
    });
  });

  it('is refused on a frozen email', () => {
    expect(
      chatAddComponent(context({ frozenReason: 'the email is published' }), { component: 'hero' }),
    ).toEqual({ ok: false, outcome: 'refused', message: 'Refused: the email is published' });
  });
});

describe('chatMoveComponent and chatRemoveComponent', () => {
  it('move an instance to a position or after another one', () => {
    const toEnd = done(chatMoveComponent(context(), { instance_id: ids.hero, position: 3 }));
    expect(toEnd.command).toEqual({ type: 'moveComponent', instanceId: ids.hero, toIndex: 2 });
    expect(toEnd.summary).toBe('Moved Hero to position 3');
    const afterFooter = done(
      chatMoveComponent(context(), { instance_id: ids.hero, after_instance_id: ids.footer }),
    );
    expect(afterFooter.command).toEqual({ type: 'moveComponent', instanceId: ids.hero, toIndex: 1 });
    expect(chatMoveComponent(context(), { instance_id: ids.container, position: 1 })).toMatchObject({
      outcome: 'failed',
      message: 'The container holds the whole email: it cannot be moved.',
    });
  });

  it('remove an instance, refused without the permission', () => {
    const removed = done(chatRemoveComponent(context(), { instance_id: ids.footer }));
    expect(removed.command).toEqual({ type: 'removeComponent', instanceId: ids.footer });
    expect(removed.summary).toBe('Removed Footer');
    const valuesOnly = new Set<PermissionKey>(['update_emails']);
    expect(chatRemoveComponent(context({ permissions: valuesOnly }), { instance_id: ids.footer })).toEqual({
      ok: false,
      outcome: 'refused',
      message:
        'Refused: you cannot remove components (your role lacks the add_remove_reorder_email_components permission)',
    });
    expect(chatRemoveComponent(context(), { instance_id: 'nope' })).toMatchObject({ outcome: 'failed' });
  });
});

describe('chatSetFieldValues, chatSetSubject and chatSetPreheader', () => {
  it('set the given values only, in the locale on screen', () => {
    const result = done(
      chatSetFieldValues(context({ locale: 'fr-FR' }), {
        instance_id: ids.hero,
        values: { headline: 'Printemps' },
      }),
    );
    expect(result.command).toEqual({
      type: 'setFieldValues',
      instanceId: ids.hero,
      branch: 'null_branch',
      locale: 'fr-FR',
      values: { headline: 'Printemps' },
    });
    expect(result.summary).toBe('Changed Hero: headline');
  });

  it('leave conditional content to the editor and report invalid values', () => {
    expect(
      chatSetFieldValues(context(), { instance_id: ids.tiered, values: { headline: 'x' } }),
    ).toMatchObject({
      outcome: 'failed',
      message:
        'Hero shows different content per conditional branch; its values can only be changed in the editor.',
    });
    expect(
      chatSetFieldValues(context(), { instance_id: ids.hero, values: { headline: 'x'.repeat(41) } }),
    ).toMatchObject({ outcome: 'failed', message: expect.stringContaining('values.headline') });
  });

  it('set the subject and preheader as plain text', () => {
    expect(done(chatSetSubject(context(), { text: '  Big   {% sale %} ' })).command).toEqual({
      type: 'setSubject',
      branch: 'null_branch',
      locale: 'en-US',
      text: 'Big { % sale %}',
    });
    expect(chatSetSubject(context(), { text: ' ' })).toMatchObject({
      message: 'The subject cannot be empty.',
    });
    expect(done(chatSetPreheader(context(), { text: '' })).summary).toBe('Set the preheader');
  });

  it('chain: each action works on the document the earlier ones left', () => {
    let current = context();
    const commands = [];
    for (const action of [
      (c: EmailChatEditContext) => chatAddComponent(c, { component: 'hero', position: 1 }),
      (c: EmailChatEditContext) =>
        chatSetFieldValues(c, { instance_id: ids.added, values: { headline: 'New' } }),
      (c: EmailChatEditContext) => chatRemoveComponent(c, { instance_id: ids.hero }),
    ]) {
      const result = done(action(current));
      commands.push(result.command);
      current = { ...current, document: result.document };
    }
    expect(applyCommands(emailDocument(), commands)).toEqual(current.document);
  });
});

describe('describeEmailForChat', () => {
  it('lists the subject, preheader and components with ids and the values the assistant may write', () => {
    const text = describeEmailForChat(
      emailDocument(),
      'en-US',
      new Map(branded.map((entry) => [entry.id, entry])),
    );
    expect(text).toBe(
      [
        'Locale on screen: en-US (the email’s locales: en-US, fr-FR)',
        'Subject: "Hello"',
        'Preheader: "Read on"',
        `Container: [${ids.container}] Container (component container)`,
        'Components, top to bottom:',
        `1. [${ids.hero}] Hero (component hero)`,
        '    headline: "Spring is here"',
        '    link: ""',
        `2. [${ids.footer}] Footer (component footer)`,
        `3. [${ids.tiered}] Hero (component hero); different content per conditional branch: its values can only be changed in the editor`,
      ].join('\n'),
    );
    expect(text).not.toContain('© Acme');
    expect(text).not.toContain('a.png');
  });
});
