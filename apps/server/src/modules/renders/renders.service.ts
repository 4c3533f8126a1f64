import {
  type ComponentDefinition,
  conditionalReferenceProblems,
  contentFromSimpleRender,
  type DesignSystemDefinition,
  type EmailContent,
  type FieldDefinition,
  type RenderInput,
  type RenderOutput,
  render,
} from '@letterset/core';
import { eq } from 'drizzle-orm';
import type { Static } from 'typebox';
import type { App } from '../../app.ts';
import { components, type emailDesignSystems } from '../../db/schema.ts';
import type { Principal } from '../../http/access.ts';
import { ValidationError } from '../../http/errors.ts';
import { findBrandProfile, toBrandProfileDefinition } from '../brand-profiles/brand-profiles.service.ts';
import { loadDynamicContent } from '../dynamic-content-profiles/dynamic-content-profiles.service.ts';
import { instanceReferenceProblems } from '../email-content/email-content.service.ts';
import { findVisibleDesignSystem } from '../email-design-systems/email-design-systems.service.ts';
import type { RenderRequest } from './renders.schemas.ts';

type Request = Static<typeof RenderRequest>;

/** The content to render and, for each instance id, the request path to report its problems at. */
function contentOf(request: Request, locale: string): { content: EmailContent; root: string } {
  if ((request.content === undefined) === (request.email_content === undefined)) {
    throw ValidationError.field('content', 'send either content or email_content');
  }
  if (request.content) return { content: contentFromSimpleRender(request.content, locale), root: 'content' };
  return { content: request.email_content as EmailContent, root: 'email_content' };
}

function instancePaths(content: EmailContent, root: string): Map<string, string> {
  const paths = new Map([[content.container_component_instance.id, `${root}.container_component_instance`]]);
  content.component_instances.forEach((instance, index) => {
    paths.set(instance.id, `${root}.component_instances.${index}`);
  });
  return paths;
}

type ComponentRow = typeof components.$inferSelect;

/** A design system's components, as stored and as the render engine takes them. */
export async function designSystemComponents(
  app: App,
  systemId: number,
): Promise<{ rows: ComponentRow[]; definitions: ComponentDefinition[] }> {
  const rows = await app.database.db
    .select()
    .from(components)
    .where(eq(components.emailDesignSystemId, systemId));
  const definitions: ComponentDefinition[] = rows.map((row) => ({
    id: row.id,
    name: row.name,
    label: row.label,
    container: row.container,
    template: row.template,
    field_definitions: row.fieldDefinitions as unknown as FieldDefinition[],
    deprecated: row.deprecated,
  }));
  return { rows, definitions };
}

export function toDesignSystemDefinition(
  system: typeof emailDesignSystems.$inferSelect,
): DesignSystemDefinition {
  return {
    id: system.id,
    name: system.name,
    design_tokens: system.designTokens,
    custom_styles: system.customStyles,
  };
}

/**
 * Renders as an export would: template problems are errors (422, reported at the instance's
 * path under `root`), never a half-rendered email.
 */
export function renderStrictly(input: Omit<RenderInput, 'strict'>, root: string): RenderOutput {
  const paths = instancePaths(input.content, root);
  const output = render({ ...input, strict: true });
  const errors: Record<string, string[]> = {};
  for (const diagnostic of output.diagnostics.filter((candidate) => candidate.severity === 'error')) {
    const key = (diagnostic.componentInstanceId && paths.get(diagnostic.componentInstanceId)) || root;
    const where =
      diagnostic.line === undefined ? '' : ` (line ${diagnostic.line}, column ${diagnostic.column ?? 1})`;
    errors[key] = [
      ...(errors[key] ?? []),
      `${diagnostic.componentName ?? 'template'}: ${diagnostic.message}${where}`,
    ];
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors, 'Validation failed');
  return output;
}

/** Renders content against a design system without creating an email. */
export async function renderContent(app: App, principal: Principal, workspaceId: number, request: Request) {
  const system = await findVisibleDesignSystem(app, principal, workspaceId, request.email_design_system_id);
  const locale = request.locale ?? 'en-US';
  const { content, root } = contentOf(request, locale);
  const { rows, definitions } = await designSystemComponents(app, system.id);

  const errors = instanceReferenceProblems(rows, content, root);
  const brandProfile =
    request.brand_profile_id === undefined
      ? null
      : await findBrandProfile(app, system.id, request.brand_profile_id).then(
          toBrandProfileDefinition,
          () => {
            errors.brand_profile_id = ['is not a brand profile of this design system'];
            return null;
          },
        );
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  const asExport = request.dynamic_content_profile_id !== undefined;
  const dynamicContent = await loadDynamicContent(app, workspaceId, {
    profileId: request.dynamic_content_profile_id ?? null,
    linkTrackingProfileId: request.link_tracking_profile_id ?? null,
  });
  Object.assign(errors, conditionalReferenceProblems(content, dynamicContent.conditionals ?? [], root));
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);

  const output = renderStrictly(
    {
      designSystem: toDesignSystemDefinition(system),
      components: definitions,
      brandProfile,
      content,
      locale,
      mode: asExport ? 'export' : 'render_api',
      dynamicContent,
      inlineCss: request.inline_css ?? false,
    },
    root,
  );
  return {
    html: output.html,
    subject: output.subject,
    preheader: output.preheader,
    plain_text: output.plainText,
    created_at: new Date(),
  };
}
