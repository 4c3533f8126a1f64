import { LiquidError } from 'liquidjs';

export interface Diagnostic {
  code: string;
  severity: 'error' | 'warning';
  message: string;
  componentInstanceId?: string;
  componentName?: string;
  line?: number;
  column?: number;
}

/** Diagnostic codes a render or a template check can report. */
export const diagnosticCodes = {
  syntaxError: 'liquid_syntax_error',
  unknownFilter: 'liquid_unknown_filter',
  renderError: 'liquid_render_error',
  renderLimit: 'liquid_render_limit_exceeded',
  memoryLimit: 'liquid_memory_limit_exceeded',
  missingChildren: 'container_missing_children',
  unknownComponent: 'unknown_component',
  hiddenComponent: 'hidden_component_skipped',
  containerExpected: 'container_expected',
  nestedContainer: 'container_used_as_child',
  deprecatedComponent: 'deprecated_component',
  missingLocale: 'missing_locale_values',
  cssInliningFailed: 'css_inlining_failed',
} as const;

function codeFor(message: string, error: LiquidError): string {
  if (message.startsWith('undefined filter')) return diagnosticCodes.unknownFilter;
  if (message.includes('template render limit exceeded')) return diagnosticCodes.renderLimit;
  if (message.includes('memory alloc limit exceeded')) return diagnosticCodes.memoryLimit;
  if (error.name === 'RenderError') return diagnosticCodes.renderError;
  return diagnosticCodes.syntaxError;
}

/**
 * Turns whatever LiquidJS threw into a diagnostic. Anything that is not a LiquidJS error is a
 * bug in Letterset and is rethrown.
 */
export function diagnosticFromLiquidError(error: unknown, severity: Diagnostic['severity']): Diagnostic {
  if (!(error instanceof LiquidError)) throw error;
  const message = (error.originalError?.message ?? error.message).replace(/, line:\d+, col:\d+$/, '');
  const [line, column] = error.token.getPosition();
  return { code: codeFor(message, error), severity, message, line, column };
}
