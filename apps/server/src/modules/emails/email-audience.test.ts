import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emails, projects, teamMemberships, users } from '../../db/schema.ts';
import {
  createTestEmail,
  createTestOrganization,
  createTestUser,
  type TestOrganization,
  type TestUser,
} from '../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../test/harness.ts';
import { type EmailPlace, emailVisibilityOf, usersWhoCanSee } from './email-audience.ts';

describe('who can see an email', () => {
  let app: TestApp;
  let organization: TestOrganization;
  let email: EmailPlace;
  let teamId: number;
  /** A workspace member on the team of the email's project (an Editor: publishes, sees no other project). */
  let onTeam: TestUser;
  /** On the team but no member of the workspace. */
  let outOfWorkspace: TestUser;
  /** A workspace member, not on the team. */
  let offTeam: TestUser;
  /** An Admin: every workspace and every project, though member of neither. */
  let admin: TestUser;
  /** A Viewer on the team: sees the email, may not publish it. */
  let viewer: TestUser;
  let removed: TestUser;
  let stranger: TestUser;

  const joinTeam = (user: TestUser) =>
    app.services.database.db.insert(teamMemberships).values({ teamId, userId: user.id });
  const idsOf = (rows: { id: number }[]) => rows.map((row) => row.id);

  beforeAll(async () => {
    app = await buildTestApp();
    organization = await createTestOrganization(app);
    const emailId = await createTestEmail(app, organization, { name: 'Spring sale', content: {} });
    const [row] = await app.services.database.db
      .select({ email: emails, teamId: projects.teamId })
      .from(emails)
      .innerJoin(projects, eq(projects.id, emails.projectId))
      .where(eq(emails.id, emailId));
    if (!row) throw new Error('the email has no project');
    email = row.email;
    teamId = row.teamId;
    onTeam = await createTestUser(app, organization, { role: 'Editor' });
    outOfWorkspace = await createTestUser(app, organization, { role: 'Editor', workspaceIds: [] });
    offTeam = await createTestUser(app, organization, { role: 'Editor' });
    admin = await createTestUser(app, organization, { role: 'Admin', workspaceIds: [] });
    viewer = await createTestUser(app, organization, { role: 'Viewer' });
    removed = await createTestUser(app, organization, { role: 'Editor' });
    for (const user of [onTeam, outOfWorkspace, viewer, removed]) await joinTeam(user);
    await app.services.database.db
      .update(users)
      .set({ deletedAt: new Date() })
      .where(eq(users.id, removed.id));
    const elsewhere = await createTestOrganization(app);
    stranger = await createTestUser(app, elsewhere, { role: 'Admin' });
  });
  afterAll(() => app.close());

  it('lists the live users of the organization in the workspace who see the project', async () => {
    const everyone = [onTeam, outOfWorkspace, offTeam, admin, viewer, removed, stranger].map(
      (user) => user.id,
    );
    expect(idsOf(await usersWhoCanSee(app.services.database.db, email, { userIds: everyone }))).toEqual(
      [onTeam.id, admin.id, viewer.id].sort((a, b) => a - b),
    );
  });

  it('narrows to those whose role grants a permission', async () => {
    const publishers = idsOf(
      await usersWhoCanSee(app.services.database.db, email, { permission: 'publish_emails' }),
    );
    expect(publishers).toEqual(expect.arrayContaining([onTeam.id, admin.id, organization.admin.id]));
    expect(publishers).not.toContain(viewer.id);
    expect(publishers).not.toContain(offTeam.id);
    expect(publishers).not.toContain(stranger.id);
  });

  it('passes over ids no user can have (mentions are read from text) and answers none for none', async () => {
    expect(
      idsOf(
        await usersWhoCanSee(app.services.database.db, email, { userIds: [0, -3, 1.5, 2 ** 40, onTeam.id] }),
      ),
    ).toEqual([onTeam.id]);
    expect(await usersWhoCanSee(app.services.database.db, email, { userIds: [] })).toEqual([]);
  });

  it('says for each user whether the workspace or the project is what they miss', async () => {
    const rows = await emailVisibilityOf(
      app.services.database.db,
      email,
      eq(users.organizationId, organization.organizationId),
    );
    const seen = new Map(rows.map((row) => [row.user.id, [row.inWorkspace, row.seesProject]]));
    expect(seen.get(onTeam.id)).toEqual([true, true]);
    expect(seen.get(outOfWorkspace.id)).toEqual([false, true]);
    expect(seen.get(offTeam.id)).toEqual([true, false]);
    expect(seen.get(admin.id)).toEqual([true, true]);
    expect(seen.has(removed.id)).toBe(false);
    const other = await emailVisibilityOf(app.services.database.db, email, eq(users.id, stranger.id));
    expect(other).toEqual([]);
  });
});
