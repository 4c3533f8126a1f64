import { randomUUID } from 'node:crypto';
import {
  type ConditionalDefinition,
  type DynamicContentInput,
  isTemplateEnginePreset,
  templateEnginePresetSchema,
} from '@letterset/core';
import { eq } from 'drizzle-orm';
import type { Static } from 'typebox';
import type { App } from '../../app.ts';
import { updateReturning } from '../../db/record-updates.ts';
import { conditionals, dynamicContentProfiles, personalizationTags } from '../../db/schema.ts';
import {
  allWorkspaceRecords,
  findWorkspaceRecord,
  pageOfWorkspaceRecords,
} from '../../db/workspace-records.ts';
import type { Principal } from '../../http/access.ts';
import { ValidationError } from '../../http/errors.ts';
import { listBody, type PageRequest } from '../../http/pagination.ts';
import type { Services } from '../../services.ts';
import { conditionalDefinition } from '../conditionals/conditionals.service.ts';
import {
  findLinkTrackingProfileToUse,
  linkTrackingProfileDefinition,
} from '../link-tracking-profiles/link-tracking-profiles.service.ts';
import { personalizationTagDefinition } from '../personalization-tags/personalization-tags.service.ts';
import type {
  CreateDynamicContentProfileBody,
  DynamicContentProfile,
  UpdateDynamicContentProfileBody,
} from './dynamic-content-profiles.schemas.ts';

export type DynamicContentProfileRow = typeof dynamicContentProfiles.$inferSelect;

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

export async function listDynamicContentProfiles(app: App, workspaceId: number, page: PageRequest) {
  const { rows, total } = await pageOfWorkspaceRecords(app, dynamicContentProfiles, workspaceId, page);
  return listBody(rows.map(toResponse), total, page);
}

export const findDynamicContentProfile = (app: App, workspaceId: number, id: string) =>
  findWorkspaceRecord(app, dynamicContentProfiles, workspaceId, id);

export async function getDynamicContentProfile(app: App, workspaceId: number, id: string) {
  return toResponse(await findDynamicContentProfile(app, workspaceId, id));
}

/** The workspace's profiles by id (to check the per-profile values of conditionals and tags). */
export async function workspaceProfiles(
  app: Services,
  workspaceId: number,
): Promise<Map<string, DynamicContentProfileRow>> {
  const rows = await allWorkspaceRecords(app, dynamicContentProfiles, workspaceId);
  return new Map(rows.map((row) => [row.id, row]));
}

export async function createDynamicContentProfile(
  app: App,
  principal: Principal,
  workspaceId: number,
  input: Static<typeof CreateDynamicContentProfileBody>,
) {
  const [row] = await app.database.db
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
async function conditionalsUsingPicker(app: App, workspaceId: number, profileId: string) {
  const rows = await allWorkspaceRecords(app, conditionals, workspaceId);
  return rows.filter((row) => {
    const syntax = row.profileSyntaxes[profileId];
    return syntax !== undefined && 'uses_ui_picker' in syntax;
  });
}

export async function updateDynamicContentProfile(
  app: App,
  workspaceId: number,
  id: string,
  input: Static<typeof UpdateDynamicContentProfileBody>,
) {
  await findDynamicContentProfile(app, workspaceId, id);
  if (input.template_engine_preset === null) {
    const pickers = await conditionalsUsingPicker(app, workspaceId, id);
    if (pickers.length > 0)
      throw ValidationError.field(
        'template_engine_preset',
        `is needed by conditionals built with the preset picker: ${pickers.map((row) => row.label).join(', ')}`,
      );
  }
  const [row] = await updateReturning(
    app.database.db,
    dynamicContentProfiles,
    eq(dynamicContentProfiles.id, id),
    { name: input.name, templateEnginePreset: input.template_engine_preset },
  );
  if (!row) throw new Error('dynamic content profile update returned nothing');
  return toResponse(row);
}

/** Conditionals and tags keep their other profiles' values; this profile's are dropped with it. */
export async function deleteDynamicContentProfile(app: App, workspaceId: number, id: string) {
  await findDynamicContentProfile(app, workspaceId, id);
  // Read before the transaction: inside it only `tx` may be used.
  const [conditionalRows, tagRows] = await Promise.all([
    allWorkspaceRecords(app, conditionals, workspaceId),
    allWorkspaceRecords(app, personalizationTags, workspaceId),
  ]);
  await app.database.db.transaction(async (tx) => {
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
  app: Services,
  workspaceId: number,
  options: { profileId?: string | null; linkTrackingProfileId?: number | null },
): Promise<DynamicContentInput> {
  const [profiles, conditionalRows, tagRows] = await Promise.all([
    workspaceProfiles(app, workspaceId),
    allWorkspaceRecords(app, conditionals, workspaceId),
    allWorkspaceRecords(app, personalizationTags, workspaceId),
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
          await findLinkTrackingProfileToUse(app, workspaceId, options.linkTrackingProfileId),
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
