import { and, asc, count, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Static } from 'typebox';
import { updateReturning } from '../../db/record-updates.ts';
import { components, layouts } from '../../db/schema.ts';
import { ConflictError, NotFoundError, notFoundAsFieldError, ValidationError } from '../../http/errors.ts';
import { listBody, type PageRequest } from '../../http/pagination.ts';
import type { Principal } from '../../http/principal.ts';
import type { Services } from '../../services.ts';
import { findBrandProfile } from '../brand-profiles/brand-profiles.service.ts';
import { instanceReferenceProblems } from '../email-content/email-content.service.ts';
import { findVisibleDesignSystem } from '../email-design-systems/email-design-systems.service.ts';
import type { CreateLayoutBody, Layout, ListLayoutsQuery, UpdateLayoutBody } from './layouts.schemas.ts';

type LayoutRow = typeof layouts.$inferSelect;

function toLayoutResponse(row: LayoutRow): Static<typeof Layout> {
  return {
    id: row.id,
    name: row.name,
    email_design_system_id: row.emailDesignSystemId,
    brand_profile_id: row.brandProfileId,
    content: row.content as Static<typeof Layout>['content'],
    locales: row.locales,
    lock_version: row.lockVersion,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

const orderings = {
  name_asc: [asc(layouts.name), asc(layouts.id)],
  name_desc: [desc(layouts.name), desc(layouts.id)],
  created_at_asc: [asc(layouts.createdAt), asc(layouts.id)],
  created_at_desc: [desc(layouts.createdAt), desc(layouts.id)],
  updated_at_asc: [asc(layouts.updatedAt), asc(layouts.id)],
  updated_at_desc: [desc(layouts.updatedAt), desc(layouts.id)],
} as const;

export async function listLayouts(
  services: Pick<Services, 'database'>,
  workspaceId: number,
  query: Static<typeof ListLayoutsQuery>,
  page: PageRequest,
) {
  const brandFilter =
    query.brand_profile_id === undefined
      ? undefined
      : query.brand_profile_id === 'null'
        ? isNull(layouts.brandProfileId)
        : eq(layouts.brandProfileId, Number(query.brand_profile_id));
  const where = and(
    eq(layouts.workspaceId, workspaceId),
    query.email_design_system_id !== undefined
      ? eq(layouts.emailDesignSystemId, query.email_design_system_id)
      : undefined,
    brandFilter,
  );
  const [rows, [total]] = await Promise.all([
    services.database.db
      .select()
      .from(layouts)
      .where(where)
      .orderBy(...orderings[query.sort ?? 'created_at_desc'])
      .limit(page.limit)
      .offset(page.offset),
    services.database.db.select({ value: count() }).from(layouts).where(where),
  ]);
  return listBody(rows.map(toLayoutResponse), total?.value ?? 0, page);
}

async function findLayout(
  services: Pick<Services, 'database'>,
  workspaceId: number,
  id: number,
): Promise<LayoutRow> {
  const [row] = await services.database.db
    .select()
    .from(layouts)
    .where(and(eq(layouts.id, id), eq(layouts.workspaceId, workspaceId)));
  if (!row) throw new NotFoundError();
  return row;
}

export async function getLayout(services: Pick<Services, 'database'>, workspaceId: number, id: number) {
  return toLayoutResponse(await findLayout(services, workspaceId, id));
}

/** The brand profile and every instance's component must belong to the layout's design system. */
async function layoutProblems(
  services: Pick<Services, 'database'>,
  systemId: number,
  candidate: {
    brandProfileId: number | null | undefined;
    content: Static<typeof Layout>['content'] | undefined;
  },
) {
  const errors: Record<string, string[]> = {};
  if (candidate.brandProfileId) {
    await findBrandProfile(services, systemId, candidate.brandProfileId).catch((error: unknown) => {
      // Only its absence is the request's fault; any other failure stays what it is.
      if (!(error instanceof NotFoundError)) throw error;
      errors.brand_profile_id = ['is not a brand profile of the layout’s design system'];
    });
  }
  if (candidate.content) {
    const systemComponents = await services.database.db
      .select({ id: components.id, container: components.container })
      .from(components)
      .where(eq(components.emailDesignSystemId, systemId));
    Object.assign(errors, instanceReferenceProblems(systemComponents, candidate.content, 'content'));
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
}

export async function createLayout(
  services: Pick<Services, 'database'>,
  principal: Principal,
  workspaceId: number,
  input: Static<typeof CreateLayoutBody>,
) {
  const system = await findVisibleDesignSystem(
    services,
    principal,
    workspaceId,
    input.email_design_system_id,
  ).catch(notFoundAsFieldError('email_design_system_id', 'is not a design system this workspace can use'));
  await layoutProblems(services, system.id, {
    brandProfileId: input.brand_profile_id,
    content: input.content,
  });
  const [row] = await services.database.db
    .insert(layouts)
    .values({
      organizationId: principal.organizationId,
      workspaceId,
      emailDesignSystemId: system.id,
      brandProfileId: input.brand_profile_id ?? null,
      name: input.name,
      content: input.content,
      locales: input.locales ?? [],
    })
    .returning();
  if (!row) throw new Error('layout insert returned nothing');
  return toLayoutResponse(row);
}

export async function updateLayout(
  services: Pick<Services, 'database'>,
  workspaceId: number,
  id: number,
  input: Static<typeof UpdateLayoutBody>,
) {
  const layout = await findLayout(services, workspaceId, id);
  const basedOn = input.lock_version;
  if (basedOn !== undefined && basedOn !== layout.lockVersion) throw conflictWith(layout);
  await layoutProblems(services, layout.emailDesignSystemId, {
    brandProfileId: input.brand_profile_id,
    content: input.content,
  });
  const [row] = await updateReturning(
    services.database.db,
    layouts,
    // Only a writer who names the version it loaded is protected; without one the last write wins.
    and(eq(layouts.id, id), basedOn !== undefined ? eq(layouts.lockVersion, basedOn) : undefined),
    {
      name: input.name,
      brandProfileId: input.brand_profile_id,
      content: input.content,
      locales: input.locales,
    },
    { lockVersion: sql`${layouts.lockVersion} + 1` },
  );
  // Someone else's write landed between our read and our write.
  if (!row) throw conflictWith(await findLayout(services, workspaceId, id));
  return toLayoutResponse(row);
}

function conflictWith(current: LayoutRow): ConflictError {
  const layout = toLayoutResponse(current);
  return new ConflictError(
    'This layout was changed since you loaded it; nothing was saved. Reload it, or send the current lock_version to overwrite',
    { lock_version: layout.lock_version, layout },
  );
}

export async function deleteLayout(services: Pick<Services, 'database'>, workspaceId: number, id: number) {
  await findLayout(services, workspaceId, id);
  await services.database.db.delete(layouts).where(eq(layouts.id, id));
}
