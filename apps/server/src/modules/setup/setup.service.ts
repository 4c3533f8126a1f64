import { count } from 'drizzle-orm';
import type { Static } from 'typebox';
import type { Database } from '../../db/client.ts';
import { organizations, teamMemberships, teams } from '../../db/schema.ts';
import { ForbiddenError } from '../../http/errors.ts';
import type { Services } from '../../services.ts';
import { type CreatedOrganization, createOrganization } from '../organizations/organizations.service.ts';
import type { SetupBody } from './setup.schemas.ts';

export async function isSetupRequired(services: Pick<Services, 'database'>): Promise<boolean> {
  const [existing] = await services.database.db.select({ value: count() }).from(organizations);
  return (existing?.value ?? 0) === 0;
}

/** First run only: once any organization exists, this is refused. */
export async function runSetup(
  services: Pick<Services, 'database' | 'storage'>,
  input: Static<typeof SetupBody>,
): Promise<number> {
  if (!(await isSetupRequired(services)))
    throw new ForbiddenError('Letterset is already set up; sign in instead');
  const created = await createOrganization(services.database.db, services.storage, {
    name: input.organization_name,
    workspaceName: input.workspace_name ?? 'Main workspace',
    admin: {
      firstName: input.first_name,
      lastName: input.last_name,
      email: input.email,
      password: input.password,
    },
  });
  await createDefaultTeam(services.database.db, created, input.organization_name);
  return created.adminUserId;
}

/**
 * Every project belongs to a team, so a new organization gets one beside its first workspace,
 * named after the organization, with the Admin in it: the first project can be made at once.
 */
export async function createDefaultTeam(
  db: Database,
  created: Pick<CreatedOrganization, 'organizationId' | 'workspaceId' | 'adminUserId'>,
  name: string,
): Promise<number> {
  const [team] = await db
    .insert(teams)
    .values({
      organizationId: created.organizationId,
      workspaceId: created.workspaceId,
      name,
      badgeColor: 'blue',
    })
    .returning({ id: teams.id });
  if (!team) throw new Error('team insert returned nothing');
  await db.insert(teamMemberships).values({ teamId: team.id, userId: created.adminUserId });
  return team.id;
}
