import { describe, expect, it } from 'vitest';
import type { EmailContent, FieldValue } from '../content/types.ts';
import type { FieldDefinition } from '../fields/types.ts';
import type { ComponentDefinition } from '../render/design-system.ts';
import { decodeHtmlAttribute, htmlTags } from './html-tags.ts';
import {
  dynamicContentUsedIn,
  gmailClippingBytes,
  linkProblem,
  type PreSendCheckInput,
  runPreSendChecks,
} from './pre-send-checks.ts';
import { preSendProblemCodes } from './pre-send-problems.ts';

const heading: ComponentDefinition = {
  id: 2,
  name: 'heading',
  label: 'Heading',
  container: false,
  template: '<h1>{{ text }}</h1>{tag:7}',
  field_definitions: [
    { type: 'text', label: 'Text', liquid_variable: 'text', default_value: 'Heading' },
    { type: 'url', label: 'Link', liquid_variable: 'url', default_value: 'https://' },
  ],
};
const container: ComponentDefinition = {
  id: 1,
  name: 'container',
  label: 'Container',
  container: true,
  template: '{{ children }}',
  field_definitions: [],
};

function content(overrides: Partial<EmailContent> = {}): EmailContent {
  return {
    subject: { branch_content: { null_branch: { 'en-US': 'Hello', 'de-DE': 'Hallo' } } },
    preheader: { branch_content: { null_branch: { 'en-US': 'Read on', 'de-DE': 'Lies weiter' } } },
    container_component_instance: { id: 'c', component_id: 1, field_values: {} },
    component_instances: [
      {
        id: 'h',
        component_id: 2,
        field_values: {
          null_branch: {
            'en-US': { text: { value: 'Welcome' } },
            'de-DE': { text: { value: 'Willkommen' } },
          },
        },
      },
    ],
    ...overrides,
  };
}

const fineHtml = '<a href="https://example.com/a?x=1&amp;y=2">A</a><img src="x.png" alt="A cat">';

function input(overrides: Partial<PreSendCheckInput> = {}): PreSendCheckInput {
  return {
    content: content(),
    locales: ['en-US', 'de-DE'],
    defaultLocale: 'en-US',
    components: [container, heading],
    validation: { valid: true, validation_errors: {} },
    renders: [
      { locale: 'en-US', html: fineHtml, diagnostics: [] },
      { locale: 'de-DE', html: fineHtml, diagnostics: [] },
    ],
    ...overrides,
  };
}

describe('pre-send checks', () => {
  it('finds nothing in a complete, translated email with sound links', () => {
    expect(runPreSendChecks(input())).toEqual({
      ready: true,
      blocking_count: 0,
      warning_count: 0,
      problems: [],
    });
  });

  it('blocks on field validation errors of the checked locales only, and leaves a blank subject to its warning', () => {
    const result = runPreSendChecks(
      input({
        locales: ['de-DE'],
        validation: {
          valid: false,
          validation_errors: {
            h: {
              'null_branch.de-DE.text': ['must not be blank'],
              'null_branch.fr-FR.text': ['must not be blank'],
            },
            subject: { 'null_branch.de-DE': ['is blank'] },
          },
        },
      }),
    );
    expect(result.problems).toEqual([
      {
        code: 'invalid_content',
        severity: 'blocking',
        locale: 'de-DE',
        branch: 'null_branch',
        component_instance_id: 'h',
        message: 'Heading: Text must not be blank',
      },
    ]);
    expect(result.ready).toBe(false);
  });

  it('blocks on render errors, with the instance and Liquid line, and ignores render warnings', () => {
    const result = runPreSendChecks(
      input({
        renders: [
          {
            locale: 'en-US',
            html: fineHtml,
            diagnostics: [
              {
                code: 'liquid_syntax_error',
                severity: 'error',
                message: 'unknown tag',
                componentInstanceId: 'h',
                componentName: 'heading',
                line: 3,
                column: 2,
              },
              { code: 'hidden_component_skipped', severity: 'warning', message: 'skipped' },
            ],
          },
        ],
      }),
    );
    expect(result.problems).toEqual([
      expect.objectContaining({
        code: 'render_error',
        severity: 'blocking',
        locale: 'en-US',
        component_instance_id: 'h',
        message: 'heading: unknown tag (line 3, column 2)',
      }),
    ]);
  });

  it('judges links: empty, unsupported, unresolved, platform code, mailto', () => {
    expect(linkProblem('')?.code).toBe(preSendProblemCodes.emptyLink);
    expect(linkProblem('  # ')?.code).toBe(preSendProblemCodes.emptyLink);
    expect(linkProblem('javascript:alert(1)')?.code).toBe(preSendProblemCodes.unsupportedLink);
    expect(linkProblem('tel:+4912345')?.code).toBe(preSendProblemCodes.unsupportedLink);
    expect(linkProblem('/relative/path')?.code).toBe(preSendProblemCodes.unsupportedLink);
    expect(linkProblem('https://')?.code).toBe(preSendProblemCodes.unresolvedLink);
    expect(linkProblem('https://exa mple.com')?.code).toBe(preSendProblemCodes.unresolvedLink);
    expect(linkProblem('https://example.com/{tag:3}')?.code).toBe(preSendProblemCodes.unresolvedLink);
    expect(linkProblem('mailto:')?.code).toBe(preSendProblemCodes.unresolvedLink);
    expect(linkProblem('mailto:hello@example.com')).toBeNull();
    expect(linkProblem('HTTPS://Example.com/path?q=1#top')).toBeNull();
    expect(linkProblem('{{ unsubscribe_url }}')).toBeNull();
    expect(linkProblem('%%view_email_url%%')).toBeNull();
    expect(linkProblem('https://example.com/?u={{user.id}}')).toBeNull();
  });

  it('reports each broken link once per locale, as blocking, and images without alt text as one warning', () => {
    const html =
      '<a href="#">x</a><a href="#">y</a><a name="top">anchor</a><a href=\'ftp://files\'>f</a>' +
      '<img src="a.png"><img src="b.png" alt=" "><img src="c.png" alt="C">';
    const result = runPreSendChecks(
      input({ locales: ['en-US'], renders: [{ locale: 'en-US', html, diagnostics: [] }] }),
    );
    expect(result.problems.map((problem) => [problem.code, problem.severity])).toEqual([
      ['empty_link', 'blocking'],
      ['unsupported_link', 'blocking'],
      ['missing_alt_text', 'warning'],
    ]);
    expect(result.problems[2]?.message).toBe('2 images have no alt text');
    expect(result).toMatchObject({ ready: false, blocking_count: 2, warning_count: 1 });
  });

  it('warns when the HTML is over Gmail’s clipping size, counting bytes not characters', () => {
    const under = `<p>${'a'.repeat(gmailClippingBytes - 10)}</p>`;
    // 60,000 characters, 120,007 bytes.
    const over = `<p>${'ä'.repeat(60_000)}</p>`;
    const result = runPreSendChecks(
      input({
        renders: [
          { locale: 'en-US', html: under, diagnostics: [] },
          { locale: 'de-DE', html: over, diagnostics: [] },
        ],
      }),
    );
    expect(result.problems).toEqual([
      expect.objectContaining({ code: 'html_too_large', severity: 'warning', locale: 'de-DE' }),
    ]);
    expect(result.problems[0]?.message).toBe('The HTML is 117.2 KB; Gmail clips messages over 102 KB');
  });

  it('warns about a missing subject or preheader in each locale and branch', () => {
    const result = runPreSendChecks(
      input({
        content: content({
          subject: { branch_content: { null_branch: { 'en-US': 'Hello', 'de-DE': '  ' } } },
          preheader: {
            conditional_id: 5,
            branch_content: { vip: { 'en-US': 'For you', 'de-DE': 'Für dich' }, other: { 'en-US': 'Hi' } },
          },
        }),
        branchKeysOf: (id) => (id === 5 ? ['vip', 'other'] : undefined),
      }),
    );
    expect(result.problems.map((problem) => [problem.code, problem.locale, problem.branch])).toEqual([
      ['missing_subject', 'de-DE', 'null_branch'],
      ['missing_preheader', 'de-DE', 'other'],
    ]);
    expect(result.ready).toBe(true);
  });

  it('warns about values of other locales left as in the default locale, or never entered', () => {
    const result = runPreSendChecks(
      input({
        locales: ['en-US', 'de-DE', 'fr-FR'],
        content: content({
          subject: {
            branch_content: { null_branch: { 'en-US': 'Hello', 'de-DE': 'Hello', 'fr-FR': 'Bonjour' } },
          },
          preheader: {
            branch_content: { null_branch: { 'en-US': '2026', 'de-DE': '2026', 'fr-FR': '2026' } },
          },
          component_instances: [
            {
              id: 'h',
              name: 'Top heading',
              component_id: 2,
              field_values: {
                null_branch: {
                  'en-US': { text: { value: 'Welcome' }, url: { value: 'https://example.com' } },
                  'de-DE': { text: { value: 'Welcome' }, url: { value: 'https://example.com' } },
                },
              },
            },
          ],
        }),
        renders: [],
      }),
    );
    expect(result.problems.map((problem) => [problem.code, problem.locale, problem.message])).toEqual([
      ['untranslated_value', 'de-DE', 'The subject is the same as in en-US'],
      ['untranslated_value', 'de-DE', 'Top heading: Text not translated from en-US'],
      ['untranslated_value', 'fr-FR', 'Top heading: Text not translated from en-US'],
    ]);
  });

  it('judges values by their translation status: a copy is untranslated, a translated or edited text is not', () => {
    const heading = (id: string, name: string, german: FieldValue) => ({
      id,
      name,
      component_id: 2,
      field_values: {
        null_branch: { 'en-US': { text: { value: 'Letterset' } }, 'de-DE': { text: german } },
      },
    });
    const result = runPreSendChecks(
      input({
        content: content({
          subject: {
            branch_content: { null_branch: { 'en-US': 'Hello', 'de-DE': 'Hello' } },
            translation_status: { null_branch: { 'de-DE': 'translated' } },
          },
          preheader: {
            branch_content: { null_branch: { 'en-US': 'Read on', 'de-DE': 'Read on' } },
            translation_status: { null_branch: { 'de-DE': 'copied' } },
          },
          component_instances: [
            heading('a', 'Copied', { value: 'Letterset', translation_status: 'copied' }),
            // The source changed after the copy: still a copy nobody translated.
            heading('b', 'Stale copy', { value: 'Lettersat', translation_status: 'copied' }),
            heading('c', 'Brand name kept', { value: 'Letterset', translation_status: 'translated' }),
            heading('d', 'Edited', { value: 'Letterset', translation_status: 'edited' }),
            heading('e', 'Blank though edited', { value: ' ', translation_status: 'edited' }),
            heading('f', 'Unknown status', { value: 'Letterset' }),
          ],
        }),
        renders: [],
      }),
    );
    expect(
      result.problems
        .filter((problem) => problem.code === preSendProblemCodes.untranslated)
        .map((problem) => [problem.component_instance_id, problem.message]),
    ).toEqual([
      [null, 'The preheader is still the copied text, not translated yet'],
      ['a', 'Copied: Text not translated from en-US'],
      ['b', 'Stale copy: Text not translated from en-US'],
      ['e', 'Blank though edited: Text not translated from en-US'],
      ['f', 'Unknown status: Text not translated from en-US'],
    ]);
  });

  it('leaves out values nobody entered in the default locale, and instances hidden in the locale', () => {
    const result = runPreSendChecks(
      input({
        content: content({
          component_instances: [
            // Nothing stored anywhere: every locale shows the field's default, "Heading".
            { id: 'd', name: 'Design default', component_id: 2, field_values: {} },
            {
              id: 'h',
              name: 'Top heading',
              component_id: 2,
              field_values: { null_branch: { 'en-US': { text: { value: 'Welcome' } } } },
            },
            {
              id: 'g',
              name: 'Hidden in German',
              component_id: 2,
              hidden_from_locales: { 'de-DE': true },
              field_values: { null_branch: { 'en-US': { text: { value: 'Only in English' } } } },
            },
          ],
        }),
        renders: [],
      }),
    );
    expect(result.problems.map((problem) => [problem.code, problem.locale, problem.message])).toEqual([
      ['untranslated_value', 'de-DE', 'Top heading: Text not translated from en-US'],
    ]);
  });

  it('tells a translation that outgrew its field apart from other invalid values', () => {
    const limited: ComponentDefinition = {
      ...heading,
      field_definitions: [
        {
          ...(heading.field_definitions[0] as FieldDefinition),
          validations: { max_length: 10, must_not_be_default: true },
        },
        {
          type: 'rich_text',
          label: 'Body',
          liquid_variable: 'body',
          default_value: '',
          validations: { max_content_length: 8 },
        },
      ],
    };
    const result = runPreSendChecks(
      input({
        locales: ['en-US', 'de-DE'],
        components: [container, limited],
        content: content({
          component_instances: [
            {
              id: 'h',
              name: 'Top heading',
              component_id: 2,
              field_values: {
                null_branch: {
                  'en-US': { text: { value: 'Welcome' }, body: { value: '<p>Hi all</p>' } },
                  'de-DE': {
                    text: { value: 'Herzlich willkommen' },
                    body: { value: '<p>Hallo <b>zusammen</b></p>' },
                  },
                },
              },
            },
          ],
        }),
        validation: {
          valid: false,
          validation_errors: {
            h: {
              'null_branch.de-DE.text': ['must be changed from the default', 'must be at most 10 characters'],
              'null_branch.de-DE.body': ['must be at most 8 characters'],
              'null_branch.en-US.text': ['must be at most 10 characters'],
            },
          },
        },
        renders: [],
      }),
    );
    expect(result.problems.map((problem) => [problem.code, problem.locale, problem.message])).toEqual([
      ['invalid_content', 'en-US', 'Top heading: Text must be at most 10 characters'],
      [
        'translation_too_long',
        'de-DE',
        'Top heading: Text is 19 characters in de-DE, at most 10 fit (7 in en-US)',
      ],
      ['invalid_content', 'de-DE', 'Top heading: Text must be changed from the default'],
      [
        'translation_too_long',
        'de-DE',
        'Top heading: Body is 14 characters in de-DE, at most 8 fit (6 in en-US)',
      ],
    ]);
    expect(result.problems.every((problem) => problem.severity === 'blocking')).toBe(true);
  });

  it('warns when a right-to-left locale renders without dir="rtl" on <html> or <body>', () => {
    const check = (html: string) =>
      runPreSendChecks(
        input({
          locales: ['en-US', 'he-IL'],
          content: content({
            subject: { branch_content: { null_branch: { 'en-US': 'Hello', 'he-IL': 'שלום' } } },
            preheader: { branch_content: { null_branch: { 'en-US': 'Read on', 'he-IL': 'המשך' } } },
            component_instances: [],
          }),
          renders: [
            {
              locale: 'en-US',
              html: `<html lang="en-US" dir="ltr"><body>${fineHtml}</body></html>`,
              diagnostics: [],
            },
            { locale: 'he-IL', html, diagnostics: [] },
          ],
        }),
      ).problems.map((problem) => [problem.code, problem.severity, problem.locale]);
    expect(check(`<html lang="he-IL"><body><p dir="rtl">${fineHtml}</p></body></html>`)).toEqual([
      ['missing_rtl_direction', 'warning', 'he-IL'],
    ]);
    expect(check(`<html lang="he" dir="RTL"><body>${fineHtml}</body></html>`)).toEqual([]);
    expect(check(`<html><body lang='he-IL' dir='rtl'>${fineHtml}</body></html>`)).toEqual([]);
    // A fragment (no <html>, no <body>) may set it on its outer element.
    expect(check(`<table dir="rtl"><tr><td>${fineHtml}</td></tr></table>`)).toEqual([]);
    expect(check(`<table><tr><td>${fineHtml}</td></tr></table>`)).toEqual([
      ['missing_rtl_direction', 'warning', 'he-IL'],
    ]);
  });

  it('lists the conditionals and personalization tags content and templates use', () => {
    const used = dynamicContentUsedIn(
      content({
        subject: { conditional_id: 9, branch_content: { a: { 'en-US': 'Hi {tag:3}' } } },
        component_instances: [
          {
            id: 'h',
            component_id: 2,
            conditional_id: 4,
            field_values: {
              a: {
                'en-US': { text: { value: '{tag:1} and {tag:3}' } },
                'fr-FR': { text: { value: '{tag:99}' } },
              },
            },
          },
          {
            id: 'hidden',
            component_id: 2,
            conditional_id: 8,
            hidden_from_locales: { 'en-US': true },
            field_values: {},
          },
        ],
      }),
      [container, heading],
      ['en-US'],
    );
    expect(used).toEqual({ conditional_ids: [4, 9], personalization_tag_ids: [1, 3, 7] });
  });
});

describe('reading tags of HTML', () => {
  it('reads quoted, unquoted and bare attributes, decoding references, skipping other tags', () => {
    const tags = htmlTags(
      '<p title="a > b"><A HREF="https://x.test/?a=1&amp;b=&#50;" data-x=\'y\'>x</A><img src=pic.png alt><br></p>',
      ['a', 'img'],
    );
    expect(tags.map((tag) => [tag.name, Object.fromEntries(tag.attributes)])).toEqual([
      ['a', { href: 'https://x.test/?a=1&b=2', 'data-x': 'y' }],
      ['img', { src: 'pic.png', alt: '' }],
    ]);
    expect(decodeHtmlAttribute('&lt;&#x41;&unknown;&quot;')).toBe('<A&unknown;"');
  });
});
