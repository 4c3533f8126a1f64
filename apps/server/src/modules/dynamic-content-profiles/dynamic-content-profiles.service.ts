import { randomUUID } from 'node:crypto';
import {
  type ConditionalDefinition,
  type DynamicContentInput,
  isTemplateEnginePreset,
  templateEnginePresetSchema,
} from '@letterset/core';
import { eq } from 'drizzle-orm';
import type { Static } from 'typebox';
import { updateReturning } from '../../db/record-updates.ts';
import { conditionals, dynamicContentProfiles, personalizationTags } from '../../db/schema.ts';
import { allWorkspaceRecords, pageOfWorkspaceRecords } from '../../db/workspace-records.ts';
import { ValidationError } from '../../http/errors.ts';
import { listBody, type PageRequest } from '../../http/pagination.ts';
import type { Principal } from '../../http/principal.ts';
import type { Services } from '../../services.ts';
import { conditionalDefinition } from '../conditionals/conditionals.service.ts';
import {
  findLinkTrackingProfileToUse,
  linkTrackingProfileDefinition,
} from '../link-tracking-profiles/link-tracking-profiles.service.ts';
import { personalizationTagDefinition } from '../personalization-tags/personalization-tags.service.ts';
import {
  type DynamicContentProfileRow,
  findDynamicContentProfile,
  workspaceProfiles,
} from './dynamic-content-profile-records.ts';
import type {
  CreateDynamicContentProfileBody,
  DynamicContentProfile,
  UpdateDynamicContentProfileBody,
} from './dynamic-content-profiles.schemas.ts';

function toResponse(row: DynamicContentProfileRow): Static<typeof DynamicContentProfile> {
  const preset = isTemplateEnginePreset(row.templateEnginePreset) ? row.templateEnginePreset : null;
  return {
    id: row.id,
    name: row.name,
    organization_id: row.organizationId,
    template_engine_preset: preset,
    template_engine_preset_schema: templateEnginePresetSchema(preset),
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

export async function listDynamicContentProfiles(
  services: Pick<Services, 'database'>,
  workspaceId: number,
  page: PageRequest,
) {
  const { rows, total } = await pageOfWorkspaceRecords(services, dynamicContentProfiles, workspaceId, page);
  return listBody(rows.map(toResponse), total, page);
}

export async function getDynamicContentProfile(
  services: Pick<Services, 'database'>,
  workspaceId: number,
  id: string,
) {
  return toResponse(await findDynamicContentProfile(services, workspaceId, id));
}

export async function createDynamicContentProfile(
  services: Pick<Services, 'database'>,
  principal: Principal,
  workspaceId: number,
  input: Static<typeof CreateDynamicContentProfileBody>,
) {
  const [row] = await services.database.db
    .insert(dynamicContentProfiles)
    .values({
      id: randomUUID(),
      organizationId: principal.organizationId,
      workspaceId,
      name: input.name,
      templateEnginePreset: input.template_engine_preset ?? null,
    })
    .returning();
  if (!row) throw new Error('dynamic content profile insert returned nothing');
  return toResponse(row);
}

/** Conditionals whose syntax for this profile is built with the preset picker. */
async function conditionalsUsingPicker(
  services: Pick<Services, 'database'>,
  workspaceId: number,
  profileId: string,
) {
  const rows = await allWorkspaceRecords(services, conditionals, workspaceId);
  return rows.filter((row) => {
    const syntax = row.profileSyntaxes[profileId];
    return syntax !== undefined && 'uses_ui_picker' in syntax;
  });
}

export async function updateDynamicContentProfile(
  services: Pick<Services, 'database'>,
  workspaceId: number,
  id: string,
  input: Static<typeof UpdateDynamicContentProfileBody>,
) {
  await findDynamicContentProfile(services, workspaceId, id);
  if (input.template_engine_preset === null) {
    const pickers = await conditionalsUsingPicker(services, workspaceId, id);
    if (pickers.length > 0)
      throw ValidationError.field(
        'template_engine_preset',
        `is needed by conditionals built with the preset picker: ${pickers.map((row) => row.label).join(', ')}`,
      );
  }
  const [row] = await updateReturning(
    services.database.db,
    dynamicContentProfiles,
    eq(dynamicContentProfiles.id, id),
    { name: input.name, templateEnginePreset: input.template_engine_preset },
  );
  if (!row) throw new Error('dynamic content profile update returned nothing');
  return toResponse(row);
}

/** Conditionals and tags keep their other profiles' values; this profile's are dropped with it. */
export async function deleteDynamicContentProfile(
  services: Pick<Services, 'database'>,
  workspaceId: number,
  id: string,
) {
  await findDynamicContentProfile(services, workspaceId, id);
  // Read before the transaction: inside it only `tx` may be used.
  const [conditionalRows, tagRows] = await Promise.all([
    allWorkspaceRecords(services, conditionals, workspaceId),
    allWorkspaceRecords(services, personalizationTags, workspaceId),
  ]);
  await services.database.db.transaction(async (tx) => {
    for (const row of conditionalRows) {
      if (!(id in row.profileSyntaxes)) continue;
      const { [id]: _dropped, ...rest } = row.profileSyntaxes;
      await tx.update(conditionals).set({ profileSyntaxes: rest }).where(eq(conditionals.id, row.id));
    }
    for (const row of tagRows) {
      if (!(id in row.profileValues)) continue;
      const { [id]: _dropped, ...rest } = row.profileValues;
      await tx
        .update(personalizationTags)
        .set({ profileValues: rest })
        .where(eq(personalizationTags.id, row.id));
    }
    await tx.delete(dynamicContentProfiles).where(eq(dynamicContentProfiles.id, id));
  });
}

/**
 * Everything a render of one of the workspace's emails needs for dynamic content: the
 * conditionals (with their compiled per-profile syntaxes), the personalization tags, the
 * chosen profile and the email's link tracking profile.
 */
export async function loadDynamicContent(
  services: Pick<Services, 'database'>,
  workspaceId: number,
  options: { profileId?: string | null; linkTrackingProfileId?: number | null },
): Promise<DynamicContentInput> {
  const [profiles, conditionalRows, tagRows] = await Promise.all([
    workspaceProfiles(services, workspaceId),
    allWorkspaceRecords(services, conditionals, workspaceId),
    allWorkspaceRecords(services, personalizationTags, workspaceId),
  ]);
  if (options.profileId && !profiles.has(options.profileId))
    throw ValidationError.field(
      'dynamic_content_profile_id',
      'is not a dynamic content profile of this workspace',
    );
  const linkTrackingProfile =
    options.linkTrackingProfileId === null || options.linkTrackingProfileId === undefined
      ? null
      : linkTrackingProfileDefinition(
          await findLinkTrackingProfileToUse(services, workspaceId, options.linkTrackingProfileId),
        );
  const conditionalDefinitions: ConditionalDefinition[] = conditionalRows.map((row) =>
    conditionalDefinition(row, profiles),
  );
  return {
    profileId: options.profileId ?? null,
    conditionals: conditionalDefinitions,
    personalizationTags: tagRows.map(personalizationTagDefinition),
    linkTrackingProfile,
  };
}
