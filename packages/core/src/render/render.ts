import type { Document } from 'domhandler';
import {
  type BranchSelection,
  branchedTextFor,
  branchValuesFor,
  instanceValuesFor,
} from '../content/branches.ts';
import type { ComponentInstance, EmailContent } from '../content/types.ts';
import {
  applyLinkTracking,
  conditionalCompiler,
  type DynamicContentInput,
  substituteRenderedTags,
} from '../dynamic-content/render-dynamic.ts';
import type { CustomStyle, FieldDefinition } from '../fields/types.ts';
import { textDirectionOf } from '../locales.ts';
import {
  applyBrandProfile,
  type BrandedComponent,
  type BrandProfileDefinition,
  type ComponentDefinition,
  type DesignSystemDefinition,
  mergeCustomStyles,
  mergeDesignTokens,
} from './design-system.ts';
import { type Diagnostic, diagnosticCodes, diagnosticFromLiquidError } from './diagnostics.ts';
import { defaultRenderLimits, HtmlValue, liquid, parseTemplate, plainTextLiquid } from './liquid-engine.ts';
import { sanitizeRichTextCached } from './rich-text.ts';

/**
 * The most component instances one email (or one render request) may hold. A long newsletter has
 * a few dozen; 200 leaves room for any real email while bounding what one request asks a worker
 * to render within its budget.
 */
export const maxComponentInstances = 200;

export type RenderMode = 'export' | 'render_api' | 'email_design_system_preview' | 'editor_preview';
export type OutputFormat = 'html' | 'plaintext';

export interface RenderInput {
  designSystem: DesignSystemDefinition;
  components: ComponentDefinition[];
  brandProfile: BrandProfileDefinition | null;
  content: EmailContent;
  locale: string;
  mode: RenderMode;
  outputFormat?: OutputFormat;
  /**
   * Which branch to show per conditional id; unselected conditionals show their default branch
   * (`defaultBranchKey`). Also in `export` mode without a dynamic content profile: the export one
   * audience receives. An export for a profile compiles every branch and ignores it.
   */
  branchSelection?: BranchSelection;
  email?: { id: number | null; name: string; textDirection?: 'ltr' | 'rtl' };
  project?: { id: number; name: string } | null;
  connector?: { id: number; name: string; type: string } | null;
  inlineCss?: boolean;
  /** Template problems become errors (the caller blocks export) instead of warnings. */
  strict?: boolean;
  limits?: { renderLimitMs?: number; memoryLimit?: number };
  /**
   * The time the whole render may take, shared by every component instance (and by every render
   * given the same budget: the locales of one request). Without one, each instance may take
   * `limits.renderLimitMs`.
   */
  budget?: RenderBudget;
  /**
   * Called before each component instance renders, with its index in `content.component_instances`
   * (-1 for the container): a caller that may have to stop the render from outside learns which
   * component was running.
   */
  onInstanceStart?: (position: number) => void;
  /** Conditionals, personalization tags and link tracking (see `DynamicContentInput`). */
  dynamicContent?: DynamicContentInput;
}

/**
 * A time budget in milliseconds on the caller's clock (core has no clock of its own): the render
 * stops at `deadline` as measured by `now()`. Pass the same object to several renders to share it.
 */
export interface RenderBudget {
  now(): number;
  deadline: number;
  /** Its whole size, for messages. */
  totalMs: number;
}

/** A budget of `totalMs` starting now. */
export function startRenderBudget(totalMs: number, now: () => number): RenderBudget {
  return { now, deadline: now() + totalMs, totalMs };
}

export function budgetExceededMessage(totalMs: number): string {
  return `rendering took longer than the time budget of ${totalMs} ms, which the whole render shares`;
}

/** `RenderInput` for a rendering that stays HTML as written: no CSS inlining, no plain-text format. */
export type HtmlRenderInput = Omit<RenderInput, 'inlineCss' | 'outputFormat'>;
export type HtmlRenderOutput = Omit<RenderOutput, 'plainText'>;

/**
 * What turns a rendering into a finished email: CSS inlining and the plain-text version. Handed in
 * rather than imported, so that rendering HTML alone (the browser's previews) loads neither juice,
 * postcss nor html-to-text; `render` (render-email.ts) hands in `inline-css.ts` and `plain-text.ts`.
 */
export interface EmailFinishing {
  inlineCssKeepingDocument(html: string): { html: string; document: Document | null };
  toPlainText(rendered: string): string;
  toPlainTextOfDocument(rendered: string, document: Document): string;
}

export interface RenderOutput {
  html: string;
  subject: string;
  preheader: string;
  /**
   * The plain-text version. Computed on first read (html-to-text costs several times the
   * render itself), then kept; it is an ordinary enumerable property for JSON and structured clone.
   */
  plainText: string;
  diagnostics: Diagnostic[];
}

interface InstanceSummary {
  id: string;
  name: string | null;
  component_name: string;
}

interface RenderableInstance {
  instance: ComponentInstance;
  component: BrandedComponent;
  /** Index in `content.component_instances`; -1 for the container. */
  position: number;
}

/** Values a template sees for its fields: stored values, else the (brand's) defaults. */
function fieldScope(
  definitions: readonly FieldDefinition[],
  stored: Record<string, unknown>,
  customStyles: readonly CustomStyle[],
): Record<string, unknown> {
  const scope: Record<string, unknown> = {};
  for (const definition of definitions) {
    const storedValue = stored[definition.liquid_variable];
    const value = storedValue === undefined || storedValue === null ? definition.default_value : storedValue;
    if (definition.type === 'rich_text') {
      scope[definition.liquid_variable] = new HtmlValue(
        sanitizeRichTextCached(String(value), {
          marks: definition.marks,
          allowedCustomStyleNames: definition.custom_styles_names ?? [],
          customStyles,
        }),
      );
    } else if (definition.type === 'code') {
      scope[definition.liquid_variable] = new HtmlValue(String(value));
    } else {
      scope[definition.liquid_variable] = value;
    }
  }
  return scope;
}

function summaryOf(entry: RenderableInstance | undefined): InstanceSummary | null {
  if (!entry) return null;
  return { id: entry.instance.id, name: entry.instance.name ?? null, component_name: entry.component.name };
}

/** An HTML comment cannot contain `--`; a preview placeholder must never break the document. */
function placeholderComment(text: string): string {
  return `<!-- ${text.replaceAll('--', '- -').replaceAll('>', ')')} -->`;
}

/** A rendering before its plain text, with the document CSS inlining parsed and the HTML serialized from it. */
interface Rendering {
  output: HtmlRenderOutput;
  inlined: { html: string; document: Document } | null;
}

function renderContent(input: RenderInput, finishing: EmailFinishing | null): Rendering {
  const diagnostics: Diagnostic[] = [];
  const severity: Diagnostic['severity'] = input.strict ? 'error' : 'warning';
  const isPreview = input.mode === 'editor_preview' || input.mode === 'email_design_system_preview';
  const outputFormat = input.outputFormat ?? 'html';
  const engine = outputFormat === 'plaintext' ? plainTextLiquid : liquid;
  const renderLimitMs = input.limits?.renderLimitMs ?? defaultRenderLimits.renderLimitMs;
  const memoryLimit = input.limits?.memoryLimit ?? defaultRenderLimits.memoryLimit;
  const budget = input.budget;
  /** Instances left unrendered because the budget had run out before them. */
  let skippedForBudget = 0;

  const components = new Map(applyBrandProfile(input.components, input.brandProfile).map((c) => [c.id, c]));
  const designTokens = mergeDesignTokens(
    input.designSystem.design_tokens,
    input.brandProfile?.design_tokens ?? {},
  );
  const customStyles = mergeCustomStyles(input.designSystem.custom_styles, input.brandProfile?.custom_styles);
  const compiler = conditionalCompiler(
    input.mode,
    input.dynamicContent,
    (diagnostic, instance) =>
      diagnostics.push({
        ...diagnostic,
        severity,
        ...(instance ? { componentInstanceId: instance.id } : {}),
      }),
    input.branchSelection,
  );
  const knownConditionals = new Map((input.dynamicContent?.conditionals ?? []).map((c) => [c.id, c]));
  const conditionalOf = (id: number) => knownConditionals.get(id);
  const subject =
    compiler?.text(input.content.subject, input.locale) ??
    branchedTextFor(input.content.subject, input.locale, input.branchSelection, conditionalOf);
  const preheader =
    compiler?.text(input.content.preheader, input.locale) ??
    branchedTextFor(input.content.preheader, input.locale, input.branchSelection, conditionalOf);

  const baseContext = {
    render_mode: input.mode,
    output_format: outputFormat,
    email: {
      id: input.email?.id ?? null,
      name: input.email?.name ?? '',
      locale: input.locale,
      // Unless the caller says otherwise, the locale's own direction: ar-SA and he-IL read right to left.
      text_direction: input.email?.textDirection ?? textDirectionOf(input.locale),
      content: { subject, preheader },
    },
    project: input.project ? { id: input.project.id, name: input.project.name } : null,
    email_design_system: { id: input.designSystem.id, name: input.designSystem.name },
    brand_profile: input.brandProfile ? { id: input.brandProfile.id, name: input.brandProfile.name } : null,
    design_tokens: designTokens,
    connector: input.connector
      ? { id: input.connector.id, name: input.connector.name, type: input.connector.type }
      : null,
  };

  const report = (diagnostic: Diagnostic, entry: RenderableInstance | { instance: ComponentInstance }) =>
    diagnostics.push({
      ...diagnostic,
      componentInstanceId: entry.instance.id,
      ...('component' in entry ? { componentName: entry.component.name } : {}),
    });

  const renderEntry = (entry: RenderableInstance, scope: Record<string, unknown>): string => {
    // LiquidJS checks its limit on its own clock: it gets the time left of the shared budget.
    const remainingMs = budget ? budget.deadline - budget.now() : renderLimitMs;
    if (remainingMs <= 0) {
      skippedForBudget += 1;
      return '';
    }
    input.onInstanceStart?.(entry.position);
    try {
      return engine.renderSync(parseTemplate(entry.component.template, engine), scope, {
        renderLimit: remainingMs,
        memoryLimit,
      });
    } catch (error) {
      const diagnostic = diagnosticFromLiquidError(error, severity);
      if (budget && diagnostic.code === diagnosticCodes.renderLimit)
        diagnostic.message = budgetExceededMessage(budget.totalMs);
      report(diagnostic, entry);
      return isPreview
        ? placeholderComment(`Component ${entry.component.name} did not render: ${diagnostic.message}`)
        : '';
    }
  };

  // The instances that render, in order; previous/next refer to these.
  const children: RenderableInstance[] = [];
  for (const [position, instance] of input.content.component_instances.entries()) {
    if (instance.hidden_from_locales?.[input.locale] === true) continue;
    const component = components.get(instance.component_id);
    if (!component) {
      report(
        {
          code: diagnosticCodes.unknownComponent,
          severity,
          message: `No component with id ${instance.component_id} in this design system`,
        },
        { instance },
      );
      continue;
    }
    if (component.hidden) {
      report(
        {
          code: diagnosticCodes.hiddenComponent,
          severity: 'warning',
          message: `Component ${component.name} is hidden by brand profile ${input.brandProfile?.name ?? ''}; its instance was skipped`,
        },
        { instance, component },
      );
      continue;
    }
    if (component.container) {
      report(
        {
          code: diagnosticCodes.nestedContainer,
          severity,
          message: `Component ${component.name} is the container and cannot be placed inside the email`,
        },
        { instance, component },
      );
      continue;
    }
    children.push({ instance, component, position });
  }

  const containerInstance = input.content.container_component_instance;
  const container = components.get(containerInstance.component_id);
  const containerEntry = container
    ? { instance: containerInstance, component: container, position: -1 }
    : null;
  const globalFields = container
    ? fieldScope(
        container.field_definitions,
        instanceValuesFor(containerInstance, input.locale, input.branchSelection, conditionalOf),
        customStyles,
      )
    : {};

  let childrenHtml = '';
  children.forEach((entry, index) => {
    const renderChild = (values: Record<string, unknown>) => {
      const scope = fieldScope(entry.component.field_definitions, values, customStyles);
      scope.global_fields = globalFields;
      scope.render_context = {
        ...baseContext,
        component_instance: summaryOf(entry),
        previous_component_instance: summaryOf(children[index - 1]),
        next_component_instance: summaryOf(children[index + 1]),
      };
      return renderEntry(entry, scope);
    };
    childrenHtml +=
      compiler?.instance(entry.instance, (branch) =>
        renderChild(branchValuesFor(entry.instance, branch, input.locale)),
      ) ?? renderChild(instanceValuesFor(entry.instance, input.locale, input.branchSelection, conditionalOf));
  });

  let html = childrenHtml;
  if (!containerEntry) {
    report(
      {
        code: diagnosticCodes.unknownComponent,
        severity,
        message: `No container component with id ${containerInstance.component_id} in this design system`,
      },
      { instance: containerInstance },
    );
  } else if (!containerEntry.component.container) {
    report(
      {
        code: diagnosticCodes.containerExpected,
        severity,
        message: `Component ${containerEntry.component.name} is not a container component`,
      },
      containerEntry,
    );
  } else {
    // A container that fails still shows its children, so a preview is never blank.
    const scope: Record<string, unknown> = { ...globalFields };
    scope.global_fields = globalFields;
    scope.children = new HtmlValue(childrenHtml);
    scope.render_context = {
      ...baseContext,
      component_instance: summaryOf(containerEntry),
      previous_component_instance: null,
      next_component_instance: null,
    };
    const before = diagnostics.length;
    const skippedBefore = skippedForBudget;
    const rendered = renderEntry(containerEntry, scope);
    html = diagnostics.length > before || skippedForBudget > skippedBefore ? childrenHtml : rendered;
  }
  if (skippedForBudget > 0 && budget) {
    diagnostics.push({
      code: diagnosticCodes.renderLimit,
      severity,
      message: `${skippedForBudget} component instance${skippedForBudget === 1 ? ' was' : 's were'} not rendered: ${budgetExceededMessage(budget.totalMs)}`,
    });
  }

  let inlined: Rendering['inlined'] = null;
  if (finishing && input.inlineCss && outputFormat === 'html') {
    try {
      const result = finishing.inlineCssKeepingDocument(html);
      html = result.html;
      if (result.document) inlined = { html, document: result.document };
    } catch (error) {
      diagnostics.push({
        code: diagnosticCodes.cssInliningFailed,
        severity,
        message: `CSS could not be inlined: ${error instanceof Error ? error.message : String(error)}`,
      });
    }
  }

  return { output: { html, subject, preheader, diagnostics }, inlined };
}

function renderDynamic(input: RenderInput, finishing: EmailFinishing | null): Rendering {
  const dynamicContent = input.dynamicContent;
  if (!dynamicContent) return renderContent(input, finishing);
  const trackingProfile = dynamicContent.linkTrackingProfile;
  let tracked = input;
  if (trackingProfile) {
    const branded = new Map(applyBrandProfile(input.components, input.brandProfile).map((c) => [c.id, c]));
    const definitionsOf = (id: number) => branded.get(id)?.field_definitions;
    const rendered = { locale: input.locale, conditionals: dynamicContent.conditionals };
    tracked = {
      ...input,
      content: applyLinkTracking(input.content, definitionsOf, trackingProfile, rendered),
    };
  }
  const rendering = renderContent(tracked, finishing);
  substituteRenderedTags(rendering.output, {
    mode: input.mode,
    html: (input.outputFormat ?? 'html') === 'html',
    strict: input.strict === true,
    dynamicContent,
  });
  return rendering;
}

/** The email's HTML as a preview shows it, without the finishing (CSS inlining, plain text). */
export function renderHtml(input: HtmlRenderInput): HtmlRenderOutput {
  return renderDynamic(input, null).output;
}

/** `render` with the finishing handed in: render-email.ts's `render` is this with the real one. */
export function renderFinished(input: RenderInput, finishing: EmailFinishing): RenderOutput {
  const { output, inlined } = renderDynamic(input, finishing);
  return withLazyPlainText(output, inlined, finishing);
}

/**
 * `inlined` is the document inlining parsed and the HTML serialized from it: the plain text is
 * then made from the document instead of parsing the HTML again, unless the HTML changed since
 * (personalization tags are substituted into it after rendering).
 */
function withLazyPlainText(
  output: HtmlRenderOutput,
  inlined: Rendering['inlined'],
  finishing: EmailFinishing,
): RenderOutput {
  let plainText: string | undefined;
  let document = inlined?.document ?? null;
  const documentHtml = inlined?.html;
  return Object.defineProperty(output, 'plainText', {
    enumerable: true,
    configurable: true,
    get() {
      if (plainText === undefined) {
        plainText =
          document && output.html === documentHtml
            ? finishing.toPlainTextOfDocument(output.html, document)
            : finishing.toPlainText(output.html);
        document = null;
      }
      return plainText;
    },
  }) as RenderOutput;
}
