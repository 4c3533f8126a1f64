import type { BrandProfileDefinition, FieldDefinition } from '@letterset/core';
import { and, asc, count, eq } from 'drizzle-orm';
import type { Static } from 'typebox';
import { updateReturning } from '../../db/record-updates.ts';
import { brandProfiles, components, type StoredComponentOverride } from '../../db/schema.ts';
import { NotFoundError, ValidationError } from '../../http/errors.ts';
import { listBody, type PageRequest } from '../../http/pagination.ts';
import type { Principal } from '../../http/principal.ts';
import type { Services } from '../../services.ts';
import {
  findEditableDesignSystem,
  findVisibleDesignSystem,
} from '../email-design-systems/email-design-systems.service.ts';
import type {
  BrandProfile,
  CreateBrandProfileBody,
  UpdateBrandProfileBody,
} from './brand-profiles.schemas.ts';

type BrandProfileRow = typeof brandProfiles.$inferSelect;

function toBrandProfileResponse(row: BrandProfileRow): Static<typeof BrandProfile> {
  return {
    id: row.id,
    name: row.name,
    email_design_system_id: row.emailDesignSystemId,
    design_tokens: row.designTokens,
    custom_styles: row.customStyles,
    component_overrides: row.componentOverrides,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

/** The shape the render engine takes. */
export function toBrandProfileDefinition(row: BrandProfileRow): BrandProfileDefinition {
  return {
    id: row.id,
    name: row.name,
    design_tokens: row.designTokens,
    custom_styles: row.customStyles,
    component_overrides: row.componentOverrides,
  };
}

/** A brand profile of a system the workspace can see; brand profiles follow their system's sharing. */
export async function findBrandProfile(
  services: Pick<Services, 'database'>,
  systemId: number,
  id: number,
): Promise<BrandProfileRow> {
  const [row] = await services.database.db
    .select()
    .from(brandProfiles)
    .where(and(eq(brandProfiles.id, id), eq(brandProfiles.emailDesignSystemId, systemId)));
  if (!row) throw new NotFoundError();
  return row;
}

export async function listBrandProfiles(
  services: Pick<Services, 'database'>,
  principal: Principal,
  workspaceId: number,
  systemId: number,
  page: PageRequest,
) {
  await findVisibleDesignSystem(services, principal, workspaceId, systemId);
  const where = eq(brandProfiles.emailDesignSystemId, systemId);
  const [rows, [total]] = await Promise.all([
    services.database.db
      .select()
      .from(brandProfiles)
      .where(where)
      .orderBy(asc(brandProfiles.name), asc(brandProfiles.id))
      .limit(page.limit)
      .offset(page.offset),
    services.database.db.select({ value: count() }).from(brandProfiles).where(where),
  ]);
  return listBody(rows.map(toBrandProfileResponse), total?.value ?? 0, page);
}

export async function getBrandProfile(
  services: Pick<Services, 'database'>,
  principal: Principal,
  workspaceId: number,
  systemId: number,
  id: number,
) {
  await findVisibleDesignSystem(services, principal, workspaceId, systemId);
  return toBrandProfileResponse(await findBrandProfile(services, systemId, id));
}

const valueMatchesType: Record<string, (value: unknown) => boolean> = {
  number: (value) => typeof value === 'number',
  boolean: (value) => typeof value === 'boolean',
};

/** Overrides may only name the system's components and their fields, with defaults of the right type. */
async function overrideProblems(
  services: Pick<Services, 'database'>,
  systemId: number,
  overrides: StoredComponentOverride[],
): Promise<Record<string, string[]>> {
  const rows = await services.database.db
    .select({ id: components.id, fieldDefinitions: components.fieldDefinitions })
    .from(components)
    .where(eq(components.emailDesignSystemId, systemId));
  const fieldsByComponent = new Map(
    rows.map((row) => [row.id, row.fieldDefinitions as unknown as FieldDefinition[]]),
  );
  const errors: Record<string, string[]> = {};
  overrides.forEach((override, index) => {
    const fields = fieldsByComponent.get(override.component_id);
    if (!fields) {
      errors[`component_overrides.${index}.component_id`] = ['is not a component of this design system'];
      return;
    }
    override.field_overrides.forEach((fieldOverride, fieldIndex) => {
      const path = `component_overrides.${index}.field_overrides.${fieldIndex}`;
      const field = fields.find((candidate) => candidate.liquid_variable === fieldOverride.liquid_variable);
      if (!field) {
        errors[`${path}.liquid_variable`] = ['is not a field of this component'];
        return;
      }
      const value = fieldOverride.default_value;
      if (value === undefined) return;
      const matches = valueMatchesType[field.type] ?? ((candidate: unknown) => typeof candidate === 'string');
      if (!matches(value)) errors[`${path}.default_value`] = [`must be a valid ${field.type} value`];
      else if (field.type === 'enum' && Array.isArray(field.options)) {
        const allowed = field.options.map((option) => (typeof option === 'string' ? option : option.value));
        if (!allowed.includes(String(value)))
          errors[`${path}.default_value`] = [`must be one of: ${allowed.join(', ')}`];
      }
    });
  });
  return errors;
}

export async function createBrandProfile(
  services: Pick<Services, 'database'>,
  principal: Principal,
  workspaceId: number,
  systemId: number,
  input: Static<typeof CreateBrandProfileBody>,
) {
  await findEditableDesignSystem(services, principal, workspaceId, systemId);
  const errors = await overrideProblems(services, systemId, input.component_overrides);
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  const [row] = await services.database.db
    .insert(brandProfiles)
    .values({
      organizationId: principal.organizationId,
      emailDesignSystemId: systemId,
      name: input.name,
      componentOverrides: input.component_overrides,
      designTokens: input.design_tokens ?? {},
      customStyles: input.custom_styles ?? [],
    })
    .returning();
  if (!row) throw new Error('brand profile insert returned nothing');
  return toBrandProfileResponse(row);
}

export async function updateBrandProfile(
  services: Pick<Services, 'database'>,
  principal: Principal,
  workspaceId: number,
  systemId: number,
  id: number,
  input: Static<typeof UpdateBrandProfileBody>,
) {
  await findEditableDesignSystem(services, principal, workspaceId, systemId);
  await findBrandProfile(services, systemId, id);
  if (input.component_overrides) {
    const errors = await overrideProblems(services, systemId, input.component_overrides);
    if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  }
  const [row] = await updateReturning(services.database.db, brandProfiles, eq(brandProfiles.id, id), {
    name: input.name,
    componentOverrides: input.component_overrides,
    designTokens: input.design_tokens,
    customStyles: input.custom_styles,
  });
  if (!row) throw new NotFoundError();
  return toBrandProfileResponse(row);
}

export async function deleteBrandProfile(
  services: Pick<Services, 'database'>,
  principal: Principal,
  workspaceId: number,
  systemId: number,
  id: number,
) {
  await findEditableDesignSystem(services, principal, workspaceId, systemId);
  await findBrandProfile(services, systemId, id);
  await services.database.db.delete(brandProfiles).where(eq(brandProfiles.id, id));
}
