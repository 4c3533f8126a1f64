import { randomUUID } from 'node:crypto';
import {
  applyBrandProfile,
  type ComponentDefinition,
  checkTemplate,
  contentFromSimpleRender,
  type Diagnostic,
  diagnosticCodes,
  type FieldDefinition,
  validateFieldDefinitions,
} from '@letterset/core';
import { and, asc, count, desc, eq, max, notInArray, sql } from 'drizzle-orm';
import type { Static } from 'typebox';
import { updateReturning } from '../../db/record-updates.ts';
import { components, componentVersions, type emailDesignSystems, feeds, users } from '../../db/schema.ts';
import { NotFoundError, ValidationError } from '../../http/errors.ts';
import { listBody, maxPerPage, type PageRequest, pageRequest } from '../../http/pagination.ts';
import type { Principal } from '../../http/principal.ts';
import type { Renderer } from '../../render-pool/render-pool.ts';
import type { Services } from '../../services.ts';
import { findBrandProfile, toBrandProfileDefinition } from '../brand-profiles/brand-profiles.service.ts';
import {
  findEditableDesignSystem,
  findVisibleDesignSystem,
} from '../email-design-systems/email-design-systems.service.ts';
import { toUserReference } from '../users/users.serializers.ts';
import type {
  Component,
  ComponentVersion,
  CreateComponentBody,
  UpdateComponentBody,
} from './components.schemas.ts';

type ComponentRow = typeof components.$inferSelect;
type DesignSystemRow = typeof emailDesignSystems.$inferSelect;
type FieldDefinitions = Static<typeof Component>['field_definitions'];

const editorColumns = {
  id: users.id,
  firstName: users.firstName,
  lastName: users.lastName,
  profileImageUrl: users.profileImageUrl,
};

function toComponentResponse(
  row: ComponentRow,
  editor: Parameters<typeof toUserReference>[0] | null,
): Static<typeof Component> {
  return {
    id: row.id,
    name: row.name,
    label: row.label,
    description: row.description,
    email_design_system_id: row.emailDesignSystemId,
    container: row.container,
    template: row.template,
    field_definitions: row.fieldDefinitions as FieldDefinitions,
    position: row.position,
    deprecated: row.deprecated,
    feed_id: row.feedId,
    screenshot_url: row.screenshotUrl,
    last_updated_by: editor?.id ? toUserReference(editor) : null,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

function selectComponents(services: Pick<Services, 'database'>) {
  return services.database.db
    .select({ component: components, editor: editorColumns })
    .from(components)
    .leftJoin(users, eq(users.id, components.lastUpdatedById));
}

/**
 * One page of a design system's components: the container first, then the palette order. With a
 * brand profile, as that brand sees them: its hidden components left out (and not counted), its
 * field overrides (defaults, labels, visibility) applied.
 */
export async function listComponents(
  services: Pick<Services, 'database'>,
  principal: Principal,
  workspaceId: number,
  systemId: number,
  brandProfileId: number | undefined,
  page: PageRequest,
) {
  await findVisibleDesignSystem(services, principal, workspaceId, systemId);
  const brand =
    brandProfileId === undefined
      ? null
      : toBrandProfileDefinition(await findBrandProfile(services, systemId, brandProfileId));
  const hiddenIds = (brand?.component_overrides ?? [])
    .filter((override) => override.hidden)
    .map((override) => override.component_id);
  const where = and(
    eq(components.emailDesignSystemId, systemId),
    hiddenIds.length > 0 ? notInArray(components.id, hiddenIds) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    selectComponents(services)
      .where(where)
      .orderBy(sql`${components.container} desc`, asc(components.position), asc(components.id))
      .limit(page.limit)
      .offset(page.offset),
    services.database.db.select({ value: count() }).from(components).where(where),
  ]);
  const results = rows.map((row) => toComponentResponse(row.component, row.editor));
  if (!brand) return listBody(results, total?.value ?? 0, page);
  const branded = new Map(
    applyBrandProfile(
      results.map((component) => ({
        ...component,
        field_definitions: component.field_definitions as unknown as FieldDefinition[],
      })),
      brand,
    ).map((component) => [component.id, component]),
  );
  const brandedResults = results.map((component) => ({
    ...component,
    field_definitions: (branded.get(component.id)?.field_definitions ??
      component.field_definitions) as FieldDefinitions,
  }));
  return listBody(brandedResults, total?.value ?? 0, page);
}

/**
 * Every component of a design system (as `listComponents` orders and brands them), page by page:
 * for callers that need the whole palette at once, such as a reorder's answer and the MCP tool.
 */
export async function everyComponent(
  services: Pick<Services, 'database'>,
  principal: Principal,
  workspaceId: number,
  systemId: number,
  brandProfileId?: number,
) {
  const all: Awaited<ReturnType<typeof listComponents>>['results'] = [];
  for (let page = 1; ; page += 1) {
    const { results, pagination } = await listComponents(
      services,
      principal,
      workspaceId,
      systemId,
      brandProfileId,
      pageRequest({ per: maxPerPage, page }),
    );
    all.push(...results);
    if (results.length === 0 || all.length >= pagination.total) return all;
  }
}

async function findComponent(services: Pick<Services, 'database'>, systemId: number, id: number) {
  const [row] = await selectComponents(services).where(
    and(eq(components.id, id), eq(components.emailDesignSystemId, systemId)),
  );
  if (!row) throw new NotFoundError();
  return row;
}

export async function getComponent(
  services: Pick<Services, 'database'>,
  principal: Principal,
  workspaceId: number,
  systemId: number,
  id: number,
) {
  await findVisibleDesignSystem(services, principal, workspaceId, systemId);
  const row = await findComponent(services, systemId, id);
  return toComponentResponse(row.component, row.editor);
}

/** Template and field problems as one 422 map: the builder shows each next to its input. */
export function componentProblems(
  candidate: { template?: string; fieldDefinitions?: FieldDefinitions; container: boolean },
  customStyleNames: readonly string[],
): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  if (candidate.template !== undefined) {
    const diagnostics = checkTemplate(candidate.template, { container: candidate.container });
    if (diagnostics.length > 0) errors.template = diagnostics.map(describeDiagnostic);
  }
  if (candidate.fieldDefinitions !== undefined) {
    const fieldErrors = validateFieldDefinitions(candidate.fieldDefinitions, { customStyleNames });
    for (const [path, messages] of Object.entries(fieldErrors))
      errors[`field_definitions.${path}`] = messages;
  }
  return errors;
}

const styleNames = (system: DesignSystemRow) => system.customStyles.map((style) => style.name);

/**
 * Whether the template finishes within the render budget on its fields' default values, rendered
 * in the render pool as an email shows it (a child inside a bare container). One that cannot would
 * make every email using it answer 422, so it is refused at save, naming the component.
 */
async function renderBudgetProblems(
  renderer: Renderer,
  system: DesignSystemRow,
  candidate: { name: string; template: string; fieldDefinitions: FieldDefinitions; container: boolean },
): Promise<string[]> {
  const checked: ComponentDefinition = {
    id: 1,
    name: candidate.name,
    label: candidate.name,
    container: candidate.container,
    template: candidate.template,
    field_definitions: candidate.fieldDefinitions as unknown as FieldDefinition[],
  };
  const bareContainer: ComponentDefinition = {
    id: 2,
    name: 'bare_container',
    label: 'Container',
    container: true,
    template: '{{ children }}',
    field_definitions: [],
  };
  const locale = 'en-US';
  const budget = renderer.budget();
  const [output] = await renderer.render(
    [
      {
        designSystem: {
          id: system.id,
          name: system.name,
          design_tokens: system.designTokens,
          custom_styles: system.customStyles,
        },
        components: candidate.container ? [checked] : [checked, bareContainer],
        brandProfile: null,
        content: contentFromSimpleRender(
          {
            container_component_instance: { component_id: candidate.container ? 1 : 2 },
            component_instances: candidate.container ? [] : [{ component_id: 1 }],
          },
          locale,
        ),
        locale,
        mode: 'email_design_system_preview',
        strict: true,
      },
    ],
    budget,
  );
  const outOfBounds: string[] = [diagnosticCodes.renderLimit, diagnosticCodes.memoryLimit];
  return (output?.diagnostics ?? [])
    .filter((diagnostic) => outOfBounds.includes(diagnostic.code))
    .map(
      (diagnostic) =>
        `Component ${candidate.name} cannot render within the ${budget.totalMs} ms render budget with its fields’ default values: ${describeDiagnostic(diagnostic)}`,
    );
}

function describeDiagnostic(diagnostic: Diagnostic): string {
  return diagnostic.line === undefined
    ? diagnostic.message
    : `${diagnostic.message} (line ${diagnostic.line}, column ${diagnostic.column ?? 1})`;
}

async function nameTaken(
  services: Pick<Services, 'database'>,
  systemId: number,
  name: string,
  exceptId?: number,
): Promise<boolean> {
  const [clash] = await services.database.db
    .select({ id: components.id })
    .from(components)
    .where(and(eq(components.emailDesignSystemId, systemId), eq(components.name, name)));
  return clash !== undefined && clash.id !== exceptId;
}

/** A version row recording what the component is now. */
export function versionOf(row: ComponentRow, editorId: number) {
  return {
    componentId: row.id,
    versionId: randomUUID(),
    componentData: {
      name: row.name,
      label: row.label,
      template: row.template,
      field_definitions: row.fieldDefinitions,
    },
    lastUpdatedById: editorId,
  };
}

const unknownFeed = 'is not a feed of this workspace';

/** Whether a component may use this feed: none, or one of the design system's workspace. */
async function isWorkspaceFeed(
  services: Pick<Services, 'database'>,
  workspaceId: number,
  feedId: number | null | undefined,
) {
  if (feedId === undefined || feedId === null) return true;
  const [feed] = await services.database.db
    .select({ id: feeds.id })
    .from(feeds)
    .where(and(eq(feeds.id, feedId), eq(feeds.workspaceId, workspaceId)));
  return feed !== undefined;
}

export async function createComponent(
  services: Pick<Services, 'database' | 'renderer'>,
  principal: Principal,
  workspaceId: number,
  systemId: number,
  input: Static<typeof CreateComponentBody>,
) {
  const system = await findEditableDesignSystem(services, principal, workspaceId, systemId);
  const container = input.container ?? false;
  const errors = componentProblems(
    { template: input.template, fieldDefinitions: input.field_definitions, container },
    styleNames(system),
  );
  if (!errors.template && !Object.keys(errors).some((key) => key.startsWith('field_definitions'))) {
    const tooSlow = await renderBudgetProblems(services.renderer, system, {
      name: input.name,
      template: input.template,
      fieldDefinitions: input.field_definitions,
      container,
    });
    if (tooSlow.length > 0) errors.template = tooSlow;
  }
  if (await nameTaken(services, systemId, input.name))
    errors.name = ['is already taken in this design system'];
  if (!(await isWorkspaceFeed(services, workspaceId, input.feed_id))) errors.feed_id = [unknownFeed];
  if (container) {
    const [existing] = await services.database.db
      .select({ id: components.id })
      .from(components)
      .where(and(eq(components.emailDesignSystemId, systemId), eq(components.container, true)));
    if (existing) errors.container = ['this design system already has a container; change that one instead'];
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);

  const created = await services.database.db.transaction(async (tx) => {
    const [last] = await tx
      .select({ position: max(components.position) })
      .from(components)
      .where(eq(components.emailDesignSystemId, systemId));
    const [row] = await tx
      .insert(components)
      .values({
        organizationId: principal.organizationId,
        emailDesignSystemId: systemId,
        name: input.name,
        label: input.label,
        description: input.description ?? null,
        container,
        template: input.template,
        fieldDefinitions: input.field_definitions,
        position: container ? null : (last?.position ?? 0) + 1,
        deprecated: input.deprecated ?? false,
        feedId: input.feed_id ?? null,
        lastUpdatedById: principal.userId,
      })
      .returning();
    if (!row) throw new Error('component insert returned nothing');
    await tx.insert(componentVersions).values(versionOf(row, principal.userId));
    return row;
  });
  return getComponent(services, principal, workspaceId, systemId, created.id);
}

export async function updateComponent(
  services: Pick<Services, 'database' | 'renderer'>,
  principal: Principal,
  workspaceId: number,
  systemId: number,
  id: number,
  input: Static<typeof UpdateComponentBody>,
) {
  const system = await findEditableDesignSystem(services, principal, workspaceId, systemId);
  const { component: current } = await findComponent(services, systemId, id);
  const errors = componentProblems(
    { template: input.template, fieldDefinitions: input.field_definitions, container: current.container },
    styleNames(system),
  );
  const rendersDifferently = input.template !== undefined || input.field_definitions !== undefined;
  if (rendersDifferently && Object.keys(errors).length === 0) {
    const tooSlow = await renderBudgetProblems(services.renderer, system, {
      name: input.name ?? current.name,
      template: input.template ?? current.template,
      fieldDefinitions: input.field_definitions ?? (current.fieldDefinitions as FieldDefinitions),
      container: current.container,
    });
    if (tooSlow.length > 0) errors.template = tooSlow;
  }
  if (input.name !== undefined && (await nameTaken(services, systemId, input.name, id))) {
    errors.name = ['is already taken in this design system'];
  }
  if (!(await isWorkspaceFeed(services, workspaceId, input.feed_id))) errors.feed_id = [unknownFeed];
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);

  await services.database.db.transaction(async (tx) => {
    const [row] = await updateReturning(
      tx,
      components,
      eq(components.id, id),
      {
        name: input.name,
        label: input.label,
        description: input.description,
        template: input.template,
        fieldDefinitions: input.field_definitions,
        deprecated: input.deprecated,
        feedId: input.feed_id,
      },
      { lastUpdatedById: principal.userId },
    );
    if (!row) throw new NotFoundError();
    const versioned = input.name ?? input.label ?? input.template ?? input.field_definitions;
    if (versioned !== undefined) await tx.insert(componentVersions).values(versionOf(row, principal.userId));
  });
  return getComponent(services, principal, workspaceId, systemId, id);
}

export async function deleteComponent(
  services: Pick<Services, 'database'>,
  principal: Principal,
  workspaceId: number,
  systemId: number,
  id: number,
) {
  await findEditableDesignSystem(services, principal, workspaceId, systemId);
  const { component } = await findComponent(services, systemId, id);
  if (component.container) {
    throw ValidationError.field(
      'base',
      'The container cannot be deleted: every email is built inside it; change its template instead',
    );
  }
  await services.database.db.delete(components).where(eq(components.id, id));
}

export async function listComponentVersions(
  services: Pick<Services, 'database'>,
  principal: Principal,
  workspaceId: number,
  systemId: number,
  id: number,
  page: PageRequest,
) {
  await findVisibleDesignSystem(services, principal, workspaceId, systemId);
  await findComponent(services, systemId, id);
  const where = eq(componentVersions.componentId, id);
  const [rows, [total]] = await Promise.all([
    services.database.db
      .select({ version: componentVersions, editor: editorColumns })
      .from(componentVersions)
      .leftJoin(users, eq(users.id, componentVersions.lastUpdatedById))
      .where(where)
      .orderBy(desc(componentVersions.createdAt), desc(componentVersions.id))
      .limit(page.limit)
      .offset(page.offset),
    services.database.db.select({ value: count() }).from(componentVersions).where(where),
  ]);
  const results: Static<typeof ComponentVersion>[] = rows.map(({ version, editor }) => ({
    version_id: version.versionId,
    component_data: {
      ...version.componentData,
      field_definitions: version.componentData.field_definitions as FieldDefinitions,
    },
    created_at: version.createdAt,
    last_updated_by: editor?.id ? toUserReference(editor) : null,
  }));
  return listBody(results, total?.value ?? 0, page);
}

/** Sets the palette order; the list must name every component but the container, once each. */
export async function reorderComponents(
  services: Pick<Services, 'database'>,
  principal: Principal,
  workspaceId: number,
  systemId: number,
  componentIds: number[],
) {
  await findEditableDesignSystem(services, principal, workspaceId, systemId);
  const existing = await services.database.db
    .select({ id: components.id })
    .from(components)
    .where(and(eq(components.emailDesignSystemId, systemId), eq(components.container, false)));
  const expected = new Set(existing.map((component) => component.id));
  if (componentIds.length !== expected.size || !componentIds.every((id) => expected.has(id))) {
    throw ValidationError.field(
      'component_ids',
      'must list every component of the design system except the container, once each',
    );
  }
  await services.database.db.transaction(async (tx) => {
    for (const [index, id] of componentIds.entries()) {
      await tx
        .update(components)
        .set({ position: index + 1 })
        .where(eq(components.id, id));
    }
  });
  return { results: await everyComponent(services, principal, workspaceId, systemId) };
}
