import { count } from 'drizzle-orm';
import type { Static } from 'typebox';
import type { App } from '../../app.ts';
import { organizations } from '../../db/schema.ts';
import { ForbiddenError } from '../../http/errors.ts';
import { createOrganization } from '../organizations/organizations.service.ts';
import type { SetupBody } from './setup.schemas.ts';

export async function isSetupRequired(app: App): Promise<boolean> {
  const [existing] = await app.database.db.select({ value: count() }).from(organizations);
  return (existing?.value ?? 0) === 0;
}

/** First run only: once any organization exists, this is refused. */
export async function runSetup(app: App, input: Static<typeof SetupBody>): Promise<number> {
  if (!(await isSetupRequired(app))) throw new ForbiddenError('Letterset is already set up; sign in instead');
  const created = await createOrganization(app.database.db, app.storage, {
    name: input.organization_name,
    workspaceName: input.workspace_name ?? 'Main workspace',
    admin: {
      firstName: input.first_name,
      lastName: input.last_name,
      email: input.email,
      password: input.password,
    },
  });
  return created.adminUserId;
}
