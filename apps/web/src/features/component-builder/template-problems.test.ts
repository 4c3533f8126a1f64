import { describe, expect, it } from 'vitest';
import { problemsFromServer, templateProblems } from './TemplateEditor.tsx';

describe('template problems', () => {
  it('reads the line and column out of the API’s template messages', () => {
    expect(
      problemsFromServer([
        'tag {% if x %} not closed (line 2, column 1)',
        'A container template must contain {{children}}',
      ]),
    ).toEqual([
      { message: 'tag {% if x %} not closed', line: 2, column: 1 },
      { message: 'A container template must contain {{children}}' },
    ]);
  });

  it('checks a template in the browser as the API does on save', () => {
    expect(templateProblems('<h1>{{ headline }}</h1>', false)).toEqual([]);
    const [unclosed] = templateProblems('<h1>{{ headline }}</h1>\n{% if show %}', false);
    expect(unclosed).toMatchObject({ line: 2, message: expect.stringMatching(/not closed/) });
    expect(templateProblems('<table></table>', true)).toEqual([
      { message: expect.stringMatching(/must contain \{\{children\}\}/), line: undefined, column: undefined },
    ]);
  });
});
