import { and, asc, eq, sql } from 'drizzle-orm';
import type { Static } from 'typebox';
import type { Database } from '../../db/client.ts';
import { components, componentVersions, emailDesignSystems } from '../../db/schema.ts';
import { ValidationError } from '../../http/errors.ts';
import type { Principal } from '../../http/principal.ts';
import type { Services } from '../../services.ts';
import { componentProblems, versionOf } from '../components/components.service.ts';
import type { DesignSystemJson } from './email-design-systems.schemas.ts';
import {
  findEditableDesignSystem,
  findVisibleDesignSystem,
  getDesignSystem,
} from './email-design-systems.service.ts';

/** Import, export, sync and clone: a design system as one portable JSON document. */
export type DesignSystemDocument = Static<typeof DesignSystemJson>;
type ImportedComponent = DesignSystemDocument['email_design_system']['components'][number];

/** Every problem of a document, keyed by its path in the document, before anything is written. */
export function documentProblems(document: DesignSystemDocument): Record<string, string[]> {
  const system = document.email_design_system;
  const styleNames = (system.custom_styles ?? []).map((style) => style.name);
  const errors: Record<string, string[]> = {};
  const collect = (prefix: string, component: ImportedComponent, container: boolean) => {
    const problems = componentProblems(
      { template: component.template, fieldDefinitions: component.field_definitions, container },
      styleNames,
    );
    for (const [path, messages] of Object.entries(problems)) errors[`${prefix}.${path}`] = messages;
  };
  collect('email_design_system.container_component', system.container_component, true);
  const seen = new Set([system.container_component.name]);
  system.components.forEach((component, index) => {
    const prefix = `email_design_system.components.${index}`;
    collect(prefix, component, false);
    if (seen.has(component.name)) errors[`${prefix}.name`] = ['is used by another component of the document'];
    seen.add(component.name);
  });
  const styles = new Set<string>();
  (system.custom_styles ?? []).forEach((style, index) => {
    if (styles.has(style.name))
      errors[`email_design_system.custom_styles.${index}.name`] = ['is already used by another custom style'];
    styles.add(style.name);
  });
  return errors;
}

interface Owner {
  organizationId: number;
  workspaceId: number;
  userId: number;
}

/** Writes a checked document as a new design system with its components (inside the caller's transaction). */
export async function insertDesignSystem(
  db: Database,
  owner: Owner,
  document: DesignSystemDocument,
): Promise<number> {
  const system = document.email_design_system;
  const [created] = await db
    .insert(emailDesignSystems)
    .values({
      organizationId: owner.organizationId,
      workspaceId: owner.workspaceId,
      name: system.name,
      description: system.description ?? null,
      accessScope: system.access_scope ?? 'this_workspace_only',
      designTokens: system.design_tokens ?? {},
      customStyles: system.custom_styles ?? [],
      createdById: owner.userId,
    })
    .returning({ id: emailDesignSystems.id });
  if (!created) throw new Error('design system insert returned nothing');
  const rows = await db
    .insert(components)
    .values(
      [
        { ...system.container_component, container: true },
        ...system.components.map((component) => ({ ...component, container: false })),
      ].map((component, index) => ({
        organizationId: owner.organizationId,
        emailDesignSystemId: created.id,
        name: component.name,
        label: component.label,
        description: component.description ?? null,
        container: component.container,
        template: component.template,
        fieldDefinitions: component.field_definitions,
        position: component.container ? null : index,
        deprecated: component.deprecated ?? false,
        lastUpdatedById: owner.userId,
      })),
    )
    .returning();
  await db.insert(componentVersions).values(rows.map((row) => versionOf(row, owner.userId)));
  return created.id;
}

export async function importDesignSystem(
  services: Pick<Services, 'database'>,
  principal: Principal,
  workspaceId: number,
  document: DesignSystemDocument,
) {
  const errors = documentProblems(document);
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  const id = await services.database.db.transaction((tx) =>
    insertDesignSystem(
      tx,
      { organizationId: principal.organizationId, workspaceId, userId: principal.userId },
      document,
    ),
  );
  return getDesignSystem(services, principal, workspaceId, id);
}

export async function exportDesignSystem(
  services: Pick<Services, 'database'>,
  principal: Principal,
  workspaceId: number,
  id: number,
): Promise<DesignSystemDocument> {
  const system = await findVisibleDesignSystem(services, principal, workspaceId, id);
  const rows = await services.database.db
    .select()
    .from(components)
    .where(eq(components.emailDesignSystemId, id))
    .orderBy(asc(components.position), asc(components.id));
  const toImported = (row: (typeof rows)[number]): ImportedComponent => ({
    name: row.name,
    label: row.label,
    description: row.description,
    template: row.template,
    field_definitions: row.fieldDefinitions as ImportedComponent['field_definitions'],
    deprecated: row.deprecated,
  });
  const container = rows.find((row) => row.container);
  if (!container)
    throw ValidationError.field(
      'base',
      'This design system has no container component yet; add one before exporting',
    );
  return {
    email_design_system: {
      name: system.name,
      description: system.description,
      access_scope: system.accessScope,
      design_tokens: system.designTokens,
      custom_styles: system.customStyles,
      container_component: toImported(container),
      components: rows.filter((row) => !row.container).map(toImported),
    },
  };
}

/**
 * Replaces a system's name, description, tokens, styles, container and components with the
 * document's. Components are matched by name and keep their ids, so emails using them still
 * render; components missing from the document are deprecated, never deleted.
 */
export async function syncDesignSystem(
  services: Pick<Services, 'database'>,
  principal: Principal,
  workspaceId: number,
  id: number,
  document: DesignSystemDocument,
) {
  await findEditableDesignSystem(services, principal, workspaceId, id);
  const errors = documentProblems(document);
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  const system = document.email_design_system;
  await services.database.db.transaction(async (tx) => {
    await tx
      .update(emailDesignSystems)
      .set({
        name: system.name,
        description: system.description ?? null,
        ...(system.access_scope ? { accessScope: system.access_scope } : {}),
        designTokens: system.design_tokens ?? {},
        customStyles: system.custom_styles ?? [],
      })
      .where(eq(emailDesignSystems.id, id));
    const existing = await tx.select().from(components).where(eq(components.emailDesignSystemId, id));
    const byName = new Map(existing.map((row) => [row.name, row]));
    const incoming = [
      { ...system.container_component, container: true },
      ...system.components.map((c) => ({ ...c, container: false })),
    ];
    // The container is found by its flag: a document may rename it.
    const currentContainer = existing.find((row) => row.container);
    for (const [index, component] of incoming.entries()) {
      const match = component.container ? currentContainer : byName.get(component.name);
      const values = {
        name: component.name,
        label: component.label,
        description: component.description ?? null,
        template: component.template,
        fieldDefinitions: component.field_definitions,
        deprecated: component.deprecated ?? false,
        position: component.container ? null : index,
        lastUpdatedById: principal.userId,
      };
      const [row] = match
        ? await tx.update(components).set(values).where(eq(components.id, match.id)).returning()
        : await tx
            .insert(components)
            .values({
              ...values,
              organizationId: principal.organizationId,
              emailDesignSystemId: id,
              container: component.container,
            })
            .returning();
      if (row) await tx.insert(componentVersions).values(versionOf(row, principal.userId));
    }
    const kept = new Set(incoming.map((component) => component.name));
    const dropped = existing.filter((row) => !row.container && !kept.has(row.name)).map((row) => row.id);
    for (const componentId of dropped) {
      await tx
        .update(components)
        .set({ deprecated: true, position: sql`null` })
        .where(and(eq(components.id, componentId)));
    }
  });
  return getDesignSystem(services, principal, workspaceId, id);
}

export async function cloneDesignSystem(
  services: Pick<Services, 'database'>,
  principal: Principal,
  workspaceId: number,
  id: number,
  name: string | undefined,
) {
  const document = await exportDesignSystem(services, principal, workspaceId, id);
  document.email_design_system.name = name ?? `${document.email_design_system.name} (copy)`;
  // A clone belongs to this workspace alone until someone chooses to share it.
  document.email_design_system.access_scope = 'this_workspace_only';
  return importDesignSystem(services, principal, workspaceId, document);
}
