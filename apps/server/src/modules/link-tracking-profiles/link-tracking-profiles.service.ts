import {
  checkTemplate,
  type LinkTrackingParameter,
  type LinkTrackingProfileDefinition,
} from '@letterset/core';
import { eq } from 'drizzle-orm';
import type { Static } from 'typebox';
import { updateReturning } from '../../db/record-updates.ts';
import { emails, linkTrackingProfiles } from '../../db/schema.ts';
import {
  deleteWorkspaceRecordUnlessUsed,
  findWorkspaceRecord,
  pageOfWorkspaceRecords,
} from '../../db/workspace-records.ts';
import { notFoundAsFieldError, ValidationError } from '../../http/errors.ts';
import { listBody, type PageRequest } from '../../http/pagination.ts';
import type { Principal } from '../../http/principal.ts';
import type { Services } from '../../services.ts';
import type {
  CreateLinkTrackingProfileBody,
  LinkTrackingProfile,
  UpdateLinkTrackingProfileBody,
} from './link-tracking-profiles.schemas.ts';

type ProfileRow = typeof linkTrackingProfiles.$inferSelect;

function toResponse(row: ProfileRow): Static<typeof LinkTrackingProfile> {
  return {
    id: row.id,
    name: row.name,
    parameters: row.parameters as LinkTrackingParameter[],
    custom_template: row.customTemplate,
    organization_id: row.organizationId,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

/** The profile an email or a render names in `link_tracking_profile_id`; 422 unless the workspace has it. */
export function findLinkTrackingProfileToUse(
  services: Pick<Services, 'database'>,
  workspaceId: number,
  id: number,
): Promise<ProfileRow> {
  return findWorkspaceRecord(services, linkTrackingProfiles, workspaceId, id).catch(
    notFoundAsFieldError('link_tracking_profile_id', 'is not a link tracking profile of this workspace'),
  );
}

/** The profile as the render needs it. */
export function linkTrackingProfileDefinition(row: ProfileRow): LinkTrackingProfileDefinition {
  return {
    id: row.id,
    name: row.name,
    parameters: row.parameters as LinkTrackingParameter[],
    custom_template: row.customTemplate,
  };
}

export async function listLinkTrackingProfiles(
  services: Pick<Services, 'database'>,
  workspaceId: number,
  page: PageRequest,
) {
  const { rows, total } = await pageOfWorkspaceRecords(services, linkTrackingProfiles, workspaceId, page);
  return listBody(rows.map(toResponse), total, page);
}

export async function getLinkTrackingProfile(
  services: Pick<Services, 'database'>,
  workspaceId: number,
  id: number,
) {
  return toResponse(await findWorkspaceRecord(services, linkTrackingProfiles, workspaceId, id));
}

/** Parameter names are unique; a custom template must be valid Liquid. */
function checkProfile(input: {
  parameters?: LinkTrackingParameter[];
  custom_template?: string | null;
}): void {
  const errors: Record<string, string[]> = {};
  const seen = new Set<string>();
  input.parameters?.forEach((parameter, index) => {
    if (seen.has(parameter.parameter))
      errors[`parameters.${index}.parameter`] = ['is already a parameter of this profile'];
    seen.add(parameter.parameter);
  });
  if (input.custom_template) {
    const problems = checkTemplate(input.custom_template).filter(
      (diagnostic) => diagnostic.severity === 'error',
    );
    if (problems.length > 0) errors.custom_template = problems.map((problem) => problem.message);
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
}

export async function createLinkTrackingProfile(
  services: Pick<Services, 'database'>,
  principal: Principal,
  workspaceId: number,
  input: Static<typeof CreateLinkTrackingProfileBody>,
) {
  checkProfile(input);
  const [row] = await services.database.db
    .insert(linkTrackingProfiles)
    .values({
      organizationId: principal.organizationId,
      workspaceId,
      name: input.name,
      parameters: input.parameters,
      customTemplate: input.custom_template || null,
    })
    .returning();
  if (!row) throw new Error('link tracking profile insert returned nothing');
  return toResponse(row);
}

export async function updateLinkTrackingProfile(
  services: Pick<Services, 'database'>,
  workspaceId: number,
  id: number,
  input: Static<typeof UpdateLinkTrackingProfileBody>,
) {
  await findWorkspaceRecord(services, linkTrackingProfiles, workspaceId, id);
  checkProfile(input);
  const [row] = await updateReturning(
    services.database.db,
    linkTrackingProfiles,
    eq(linkTrackingProfiles.id, id),
    {
      name: input.name,
      parameters: input.parameters,
      customTemplate: input.custom_template === undefined ? undefined : input.custom_template || null,
    },
  );
  if (!row) throw new Error('link tracking profile update returned nothing');
  return toResponse(row);
}

/** Refused (422 naming them) while emails of the workspace use the profile. */
export async function deleteLinkTrackingProfile(
  services: Pick<Services, 'database'>,
  workspaceId: number,
  id: number,
) {
  await deleteWorkspaceRecordUnlessUsed(services, linkTrackingProfiles, workspaceId, id, {
    describe: (profile) => `The link tracking profile ${profile.name}`,
    usedBy: eq(emails.linkTrackingProfileId, id),
  });
}
