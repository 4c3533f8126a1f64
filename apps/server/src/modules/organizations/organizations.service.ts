import { builtInRoleGrants, builtInRoleNames, starterDesignSystem } from '@letterset/core';
import type { Database } from '../../db/client.ts';
import { organizations, roles, users, workspaceMemberships, workspaces } from '../../db/schema.ts';
import { hashPassword } from '../../security/passwords.ts';
import type { FileStorage } from '../../storage/file-storage.ts';
import {
  type DesignSystemDocument,
  insertDesignSystem,
} from '../email-design-systems/email-design-systems.transfer.ts';
import { publishStarterImages } from './starter-images.ts';
import { insertStarterLayouts } from './starter-layouts.ts';

export interface NewOrganization {
  name: string;
  workspaceName: string;
  admin: { firstName: string; lastName: string; email: string; password: string };
}

export interface CreatedOrganization {
  organizationId: number;
  workspaceId: number;
  adminUserId: number;
  roleIds: Record<(typeof builtInRoleNames)[number], number>;
}

/**
 * A new organization with the four built-in roles, a first workspace that everyone joins, its
 * first user as Admin, and the Letterset Starter design system shared with all its workspaces. Used by first-run setup, the demo seed and the tests alike.
 */
export async function createOrganization(
  db: Database,
  storage: FileStorage,
  input: NewOrganization,
): Promise<CreatedOrganization> {
  const passwordHash = await hashPassword(input.admin.password);
  const starterImagesUrl = await publishStarterImages(storage);
  return db.transaction(async (tx) => {
    const [organization] = await tx.insert(organizations).values({ name: input.name }).returning();
    if (!organization) throw new Error('organization insert returned nothing');
    const createdRoles = await tx
      .insert(roles)
      .values(
        builtInRoleNames.map((name) => ({
          organizationId: organization.id,
          name,
          permissions: [...builtInRoleGrants[name]],
          builtin: true,
        })),
      )
      .returning({ id: roles.id, name: roles.name });
    const roleIds = Object.fromEntries(
      createdRoles.map((role) => [role.name, role.id]),
    ) as CreatedOrganization['roleIds'];
    const [workspace] = await tx
      .insert(workspaces)
      .values({ organizationId: organization.id, name: input.workspaceName, autoJoin: true })
      .returning();
    const [admin] = await tx
      .insert(users)
      .values({
        organizationId: organization.id,
        roleId: roleIds.Admin,
        firstName: input.admin.firstName,
        lastName: input.admin.lastName,
        email: input.admin.email,
        passwordHash,
        invitationAcceptedAt: new Date(),
      })
      .returning();
    if (!workspace || !admin) throw new Error('workspace or admin insert returned nothing');
    await tx.insert(workspaceMemberships).values({ workspaceId: workspace.id, userId: admin.id });
    // Every organization starts with a design system it can build emails from right away, and
    // the starter's layouts in its first workspace.
    const starter = starterDesignSystem({ imagesUrl: starterImagesUrl }) as DesignSystemDocument;
    const starterId = await insertDesignSystem(
      tx,
      { organizationId: organization.id, workspaceId: workspace.id, userId: admin.id },
      { email_design_system: { ...starter.email_design_system, access_scope: 'all_workspaces' } },
    );
    await insertStarterLayouts(tx, {
      organizationId: organization.id,
      workspaceId: workspace.id,
      emailDesignSystemId: starterId,
    });
    return { organizationId: organization.id, workspaceId: workspace.id, adminUserId: admin.id, roleIds };
  });
}
