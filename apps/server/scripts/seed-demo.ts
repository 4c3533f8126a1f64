/**
 * `npm run seed:demo`: a demo organization with a user of each built-in role, for trying
 * Letterset. Prints their credentials. Run it again to get fresh passwords. Uses the same
 * database as `npm start` (stop the server first when it runs on the embedded database).
 */
import { randomBytes } from 'node:crypto';
import { builtInRoleNames } from '@letterset/core';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { ConfigError, loadConfig } from '../src/config.ts';
import { migrateDatabase, openDatabase } from '../src/db/client.ts';
import { DataDirLockedError } from '../src/db/data-dir-lock.ts';
import { organizations, roles, users, workspaceMemberships, workspaces } from '../src/db/schema.ts';
import { createOrganization } from '../src/modules/organizations/organizations.service.ts';
import { hashPassword } from '../src/security/passwords.ts';
import { createFileStorage } from '../src/storage/index.ts';

const demoOrganizationName = 'Letterset Demo';
const demoEmail = (role: string) => `${role.toLowerCase()}@demo.letterset.localhost`;
const newPassword = () => randomBytes(9).toString('base64url');

async function seed() {
  const config = loadConfig();
  const database = await openDatabase(
    config.databaseUrl ? { connectionString: config.databaseUrl } : { dataDir: config.dataDir },
  );
  try {
    await migrateDatabase(database);
    const db = database.db;
    const credentials: { role: string; email: string; password: string }[] = [];

    let [organization] = await db
      .select()
      .from(organizations)
      .where(eq(organizations.name, demoOrganizationName));
    if (!organization) {
      const password = newPassword();
      const created = await createOrganization(db, createFileStorage(config.storage), {
        name: demoOrganizationName,
        workspaceName: 'Marketing',
        admin: { firstName: 'Ada', lastName: 'Admin', email: demoEmail('Admin'), password },
      });
      credentials.push({ role: 'Admin', email: demoEmail('Admin'), password });
      [organization] = await db
        .select()
        .from(organizations)
        .where(eq(organizations.id, created.organizationId));
    }
    if (!organization) throw new Error('the demo organization could not be created');

    const [workspace] = await db
      .select()
      .from(workspaces)
      .where(eq(workspaces.organizationId, organization.id));
    const people: Record<string, [string, string]> = {
      Viewer: ['Vera', 'Viewer'],
      Editor: ['Eddie', 'Editor'],
      Developer: ['Dev', 'Developer'],
      Admin: ['Ada', 'Admin'],
    };
    for (const roleName of builtInRoleNames) {
      if (credentials.some((entry) => entry.role === roleName)) continue;
      const password = newPassword();
      const passwordHash = await hashPassword(password);
      const email = demoEmail(roleName);
      const [role] = await db
        .select()
        .from(roles)
        .where(
          and(eq(roles.organizationId, organization.id), eq(roles.builtin, true), eq(roles.name, roleName)),
        );
      if (!role) throw new Error(`the demo organization has no ${roleName} role`);
      const [existing] = await db
        .select()
        .from(users)
        .where(and(sql`lower(${users.email}) = ${email}`, isNull(users.deletedAt)));
      if (existing) {
        await db.update(users).set({ passwordHash }).where(eq(users.id, existing.id));
      } else {
        const [firstName, lastName] = people[roleName] ?? [roleName, 'Demo'];
        const [created] = await db
          .insert(users)
          .values({
            organizationId: organization.id,
            roleId: role.id,
            firstName,
            lastName,
            email,
            passwordHash,
            invitationAcceptedAt: new Date(),
          })
          .returning();
        if (created && workspace)
          await db.insert(workspaceMemberships).values({ workspaceId: workspace.id, userId: created.id });
      }
      credentials.push({ role: roleName, email, password });
    }

    process.stdout.write(`\n${demoOrganizationName}: sign in at ${config.appUrl}/ as\n\n`);
    for (const { role, email, password } of credentials) {
      process.stdout.write(`  ${role.padEnd(10)} ${email.padEnd(38)} ${password}\n`);
    }
    process.stdout.write('\nRun `npm run seed:demo` again for new passwords.\n');
  } finally {
    await database.close();
  }
}

seed().catch((error: unknown) => {
  process.stderr.write(
    error instanceof ConfigError || error instanceof DataDirLockedError
      ? `${error.message}\n`
      : `The demo could not be seeded: ${error instanceof Error ? error.stack : String(error)}\n`,
  );
  process.exit(1);
});
