import { describe, expect, it } from 'vitest';
import { checkTemplate } from './check-template.ts';

describe('checkTemplate', () => {
  it('accepts a valid template', () => {
    expect(checkTemplate('<p>{{ headline | upcase }}</p>{% if show %}x{% endif %}')).toEqual([]);
  });

  it('reports an unknown filter with line and column', () => {
    expect(checkTemplate('<p>\n  {{ headline | shout }}</p>')).toEqual([
      {
        code: 'liquid_unknown_filter',
        severity: 'error',
        message: 'undefined filter: shout',
        line: 2,
        column: 3,
      },
    ]);
  });

  it('reports an unclosed tag and an unclosed output', () => {
    expect(checkTemplate('a\nb\n{% if x %}')).toEqual([
      {
        code: 'liquid_syntax_error',
        severity: 'error',
        message: 'tag {% if x %} not closed',
        line: 3,
        column: 1,
      },
    ]);
    expect(checkTemplate('{{ a')).toEqual([
      {
        code: 'liquid_syntax_error',
        severity: 'error',
        message: 'output "{{ a" not closed',
        line: 1,
        column: 1,
      },
    ]);
    expect(checkTemplate('{% bogus %}')[0]).toMatchObject({
      code: 'liquid_syntax_error',
      line: 1,
      column: 1,
    });
  });

  it('requires {{children}} in a container', () => {
    expect(checkTemplate('<body></body>', { container: true })).toEqual([
      {
        code: 'container_missing_children',
        severity: 'error',
        message: 'A container template must contain {{children}}, where the email’s components go',
      },
    ]);
    expect(checkTemplate('<body>{{children}}</body>', { container: true })).toEqual([]);
    expect(checkTemplate('<body>{{- children -}}</body>', { container: true })).toEqual([]);
    expect(checkTemplate('<body>{{ children }}</body>')).toEqual([]);
  });
});
