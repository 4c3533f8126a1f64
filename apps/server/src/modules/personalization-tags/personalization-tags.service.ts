import { type PersonalizationTagDefinition, personalizationTagToken } from '@letterset/core';
import { eq, sql } from 'drizzle-orm';
import type { Static } from 'typebox';
import { updateReturning } from '../../db/record-updates.ts';
import { emails, personalizationTags } from '../../db/schema.ts';
import {
  deleteWorkspaceRecordUnlessUsed,
  findWorkspaceRecord,
  pageOfWorkspaceRecords,
} from '../../db/workspace-records.ts';
import { ValidationError } from '../../http/errors.ts';
import { listBody, type PageRequest } from '../../http/pagination.ts';
import type { Principal } from '../../http/principal.ts';
import type { Services } from '../../services.ts';
import { workspaceProfiles } from '../dynamic-content-profiles/dynamic-content-profile-records.ts';
import type {
  CreatePersonalizationTagBody,
  PersonalizationTag,
  UpdatePersonalizationTagBody,
} from './personalization-tags.schemas.ts';

type TagRow = typeof personalizationTags.$inferSelect;

function toResponse(row: TagRow): Static<typeof PersonalizationTag> {
  return {
    id: row.id,
    label: row.label,
    token: personalizationTagToken(row.id),
    default_value: row.defaultValue,
    example_value: row.exampleValue,
    dynamic_content_profile_values: row.profileValues,
    organization_id: row.organizationId,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

/** The tag as the render needs it. */
export function personalizationTagDefinition(row: TagRow): PersonalizationTagDefinition {
  return {
    id: row.id,
    label: row.label,
    default_value: row.defaultValue,
    example_value: row.exampleValue,
    dynamic_content_profile_values: row.profileValues,
  };
}

export async function listPersonalizationTags(
  services: Pick<Services, 'database'>,
  workspaceId: number,
  page: PageRequest,
) {
  const { rows, total } = await pageOfWorkspaceRecords(services, personalizationTags, workspaceId, page);
  return listBody(rows.map(toResponse), total, page);
}

export async function getPersonalizationTag(
  services: Pick<Services, 'database'>,
  workspaceId: number,
  id: number,
) {
  return toResponse(await findWorkspaceRecord(services, personalizationTags, workspaceId, id));
}

/** Per-profile values may only name the workspace's profiles. */
export async function checkProfileIds(
  services: Pick<Services, 'database'>,
  workspaceId: number,
  field: string,
  values: Record<string, unknown> | undefined,
): Promise<void> {
  if (!values) return;
  const profiles = await workspaceProfiles(services, workspaceId);
  const errors: Record<string, string[]> = {};
  for (const id of Object.keys(values)) {
    if (!profiles.has(id)) errors[`${field}.${id}`] = ['is not a dynamic content profile of this workspace'];
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
}

export async function createPersonalizationTag(
  services: Pick<Services, 'database'>,
  principal: Principal,
  workspaceId: number,
  input: Static<typeof CreatePersonalizationTagBody>,
) {
  await checkProfileIds(
    services,
    workspaceId,
    'dynamic_content_profile_values',
    input.dynamic_content_profile_values,
  );
  const [row] = await services.database.db
    .insert(personalizationTags)
    .values({
      organizationId: principal.organizationId,
      workspaceId,
      label: input.label,
      defaultValue: input.default_value,
      exampleValue: input.example_value,
      profileValues: input.dynamic_content_profile_values ?? {},
    })
    .returning();
  if (!row) throw new Error('personalization tag insert returned nothing');
  return toResponse(row);
}

export async function updatePersonalizationTag(
  services: Pick<Services, 'database'>,
  workspaceId: number,
  id: number,
  input: Static<typeof UpdatePersonalizationTagBody>,
) {
  await findWorkspaceRecord(services, personalizationTags, workspaceId, id);
  await checkProfileIds(
    services,
    workspaceId,
    'dynamic_content_profile_values',
    input.dynamic_content_profile_values,
  );
  const [row] = await updateReturning(
    services.database.db,
    personalizationTags,
    eq(personalizationTags.id, id),
    {
      label: input.label,
      defaultValue: input.default_value,
      exampleValue: input.example_value,
      profileValues: input.dynamic_content_profile_values,
    },
  );
  if (!row) throw new Error('personalization tag update returned nothing');
  return toResponse(row);
}

/** Refused (422 naming them) while emails of the workspace hold the tag's token. */
export async function deletePersonalizationTag(
  services: Pick<Services, 'database'>,
  workspaceId: number,
  id: number,
) {
  await deleteWorkspaceRecordUnlessUsed(services, personalizationTags, workspaceId, id, {
    describe: (tag) => `The personalization tag ${tag.label}`,
    // The token is plain text in the content; `position` avoids LIKE's wildcards.
    usedBy: sql`position(${personalizationTagToken(id)} in ${emails.content}::text) > 0`,
  });
}
