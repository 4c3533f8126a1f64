import { type Diagnostic, diagnosticCodes, diagnosticFromLiquidError } from './diagnostics.ts';
import { parseTemplate } from './liquid-engine.ts';

/**
 * Parse-checks a component template. Syntax errors and unknown filters come back as error
 * diagnostics with the Liquid line and column; a container template must print `{{children}}`.
 */
export function checkTemplate(template: string, options: { container?: boolean } = {}): Diagnostic[] {
  try {
    parseTemplate(template);
  } catch (error) {
    return [diagnosticFromLiquidError(error, 'error')];
  }
  if (options.container && !printsChildren(template)) {
    return [
      {
        code: diagnosticCodes.missingChildren,
        severity: 'error',
        message: 'A container template must contain {{children}}, where the email’s components go',
      },
    ];
  }
  return [];
}

/** `{{children}}`, `{{ children }}` or `{{- children -}}`: the output the container fills. */
const childrenOutput = /\{\{-?\s*children\s*-?\}\}/;

function printsChildren(template: string): boolean {
  return childrenOutput.test(template);
}
