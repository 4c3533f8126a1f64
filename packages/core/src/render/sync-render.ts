import {
  AssignTag,
  CaseTag,
  type Context,
  type Emitter,
  IfTag,
  isTruthy,
  type Liquid,
  LiquidError,
  Output,
  RenderError,
  type Template,
  TokenKind,
  toValue,
  toValueSync,
  type Value,
} from 'liquidjs';
import { equalsSync, evaluateTokenSync, evaluateValueSync, renderOutputSync } from './fast-output.ts';

/**
 * LiquidJS's render loop and its commonest tags (`if`, `case`, `assign`) for a synchronous
 * render, without generators; other tags render through LiquidJS, their bodies through this loop.
 * LiquidJS drives whatever the renderer's `renderTemplates` returns with `toValueSync` (or
 * `toPromise`), and its tags `yield` it, both of which accept a plain value as well as a
 * generator; so a synchronous render gets a string back and pays for no generator per block, per
 * output or per fast tag. Asynchronous renders keep LiquidJS's own loop. Each function below
 * mirrors the LiquidJS 10.30 code it replaces (liquidjs is pinned exactly; re-check these on an
 * upgrade), so output, errors and limits stay the same. The engines never set `keepOutputType`
 * or `catchAllErrors`, which this loop does not implement.
 */

interface RenderLimiter {
  check(now: number): void;
}

type RenderContext = Context & {
  renderLimit: RenderLimiter;
  sync: boolean;
  breakCalled: boolean;
  continueCalled: boolean;
  opts: { lenientIf?: boolean };
};

type TemplateNode = Template & { token: { kind: number }; str?: string };

/** A template that renders synchronously without a generator (the fast tags below). */
interface SyncTemplate {
  renderSync(context: RenderContext, emitter: Emitter): void;
}

function isSyncTemplate(template: Template): template is Template & SyncTemplate {
  return typeof (template as Partial<SyncTemplate>).renderSync === 'function';
}

/** LiquidJS's SimpleEmitter, minus a conversion call for the strings nearly all writes are. */
class StringEmitter implements Emitter {
  buffer = '';
  write(html: unknown): void {
    this.buffer += typeof html === 'string' ? html : stringify(html);
  }
}

/** LiquidJS's `stringify` (what its emitters and `escape` make of a value). */
export function stringify(value: unknown): string {
  const plain = toValue(value);
  if (typeof plain === 'string') return plain;
  if (plain === null || plain === undefined) return '';
  if (Array.isArray(plain)) return plain.map(stringify).join('');
  return String(plain);
}

/**
 * LiquidJS's `Render.renderTemplates` for a synchronous render. The time limit is checked when a
 * block starts and before each tag (LiquidJS also checks before literal HTML and outputs, which
 * cannot run away), so every loop iteration is still checked. Errors are wrapped exactly as
 * LiquidJS wraps them (these engines never collect them).
 */
function renderTemplatesSync(templates: Template[], context: RenderContext, givenEmitter?: Emitter): string {
  const emitter = givenEmitter ?? new StringEmitter();
  const limiter = context.renderLimit;
  limiter.check(performance.now());
  for (const template of templates) {
    try {
      const node = template as TemplateNode;
      if (node.token.kind === TokenKind.HTML && typeof node.str === 'string') {
        emitter.write(node.str);
      } else if (template instanceof Output) {
        renderOutputSync(template, context, emitter);
      } else {
        limiter.check(performance.now());
        if (isSyncTemplate(template)) {
          template.renderSync(context, emitter);
        } else {
          const html = toValueSync(template.render(context, emitter));
          if (html) emitter.write(html);
        }
      }
      // After literal HTML and outputs too: a `break` or `continue` rendered in an earlier `when`
      // of the same `case` (LiquidJS renders every matching one) ends the next after one template.
      if (context.breakCalled || context.continueCalled) break;
    } catch (error) {
      throw LiquidError.is(error) ? error : new RenderError(error as Error, template);
    }
  }
  return emitter.buffer;
}

interface Branch {
  value: Value;
  templates: Template[];
}

class SyncIfTag extends IfTag implements SyncTemplate {
  renderSync(context: RenderContext, emitter: Emitter): void {
    const { branches, elseTemplates } = this as unknown as { branches: Branch[]; elseTemplates?: Template[] };
    for (const { value, templates } of branches) {
      const condition = toValueSync(
        toValue(evaluateValueSync(value, context, context.opts.lenientIf === true)),
      );
      if (isTruthy(condition, context)) {
        renderTemplatesSync(templates, context, emitter);
        return;
      }
    }
    renderTemplatesSync(elseTemplates || [], context, emitter);
  }
}

class SyncCaseTag extends CaseTag implements SyncTemplate {
  renderSync(context: RenderContext, emitter: Emitter): void {
    const { value, branches, elseTemplates } = this as unknown as {
      value: Value;
      branches: { values: unknown[]; templates: Template[] }[];
      elseTemplates: Template[];
    };
    const lenient = context.opts.lenientIf === true;
    const target = toValueSync(toValue(evaluateValueSync(value, context, lenient)));
    let branchHit = false;
    // As in LiquidJS, every `when` that matches renders, not only the first.
    for (const branch of branches) {
      for (const valueToken of branch.values) {
        const candidate = evaluateTokenSync(valueToken, context, lenient);
        if (equalsSync(target, candidate)) {
          renderTemplatesSync(branch.templates, context, emitter);
          branchHit = true;
          break;
        }
      }
    }
    if (!branchHit) renderTemplatesSync(elseTemplates, context, emitter);
  }
}

class SyncAssignTag extends AssignTag implements SyncTemplate {
  renderSync(context: RenderContext): void {
    const { key, value } = this as unknown as { key: string; value: Value };
    const lenient = (this.liquid.options as { lenientIf?: boolean }).lenientIf === true;
    (context.bottom() as Record<string, unknown>)[key] = evaluateValueSync(value, context, lenient);
  }
}

/** Installs the synchronous loop and tags on an engine (asynchronous renders keep LiquidJS's). */
export function installSyncRender(engine: Liquid): void {
  engine.registerTag('if', SyncIfTag);
  engine.registerTag('case', SyncCaseTag);
  engine.registerTag('assign', SyncAssignTag);
  const renderer = engine.renderer as unknown as {
    renderTemplates(templates: Template[], context: RenderContext, emitter?: Emitter): unknown;
  };
  const renderTemplates = renderer.renderTemplates.bind(renderer);
  renderer.renderTemplates = (templates, context, emitter) =>
    context.sync
      ? renderTemplatesSync(templates, context, emitter)
      : renderTemplates(templates, context, emitter);
}
