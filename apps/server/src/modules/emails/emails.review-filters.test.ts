import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvalWorkflows, emails, reviewApprovals } from '../../db/schema.ts';
import {
  createTestEmail,
  createTestOrganization,
  createTestUser,
  signInAs,
  type TestOrganization,
  type TestUser,
} from '../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../test/harness.ts';

describe('lists of emails by review', () => {
  let app: TestApp;
  let organization: TestOrganization;
  let submitter: TestUser;
  let first: TestUser;
  let second: TestUser;
  let emailId: number;
  let workflowId: number;

  const namesListed = async (user: TestUser, filter: string) => {
    const response = await app.inject({
      method: 'GET',
      url: `/api/v1/workspaces/${organization.workspaceId}/emails?${filter}`,
      headers: await signInAs(app, user),
    });
    expect(response.statusCode).toBe(200);
    return response.json().results.map((email: { name: string }) => email.name);
  };

  beforeAll(async () => {
    app = await buildTestApp();
    organization = await createTestOrganization(app);
    // Admins see every project, so what is listed depends on the review alone.
    [submitter, first, second] = (await Promise.all(
      ['Sam', 'Fay', 'Sid'].map((firstName) =>
        createTestUser(app, organization, { role: 'Admin', firstName }),
      ),
    )) as [TestUser, TestUser, TestUser];
    emailId = await createTestEmail(app, organization, { name: 'In review', content: {} });
    await createTestEmail(app, organization, { name: 'Draft', content: {} });
    await app.services.database.db.update(emails).set({ status: 'in_review' }).where(eq(emails.id, emailId));
    const [workflow] = await app.services.database.db
      .insert(approvalWorkflows)
      .values({
        organizationId: organization.organizationId,
        workspaceId: organization.workspaceId,
        emailId,
        creatorId: submitter.id,
        stages: [
          { position: 1, approval_type: 'all_of', user_ids: [first.id, second.id] },
          { position: 2, approval_type: 'one_of', user_ids: [second.id] },
        ],
        currentStagePosition: 1,
      })
      .returning();
    workflowId = workflow?.id ?? 0;
  });
  afterAll(() => app.close());

  it('lists the reviews waiting on a reviewer of the stage under way until they decide', async () => {
    expect(await namesListed(first, 'awaiting_my_review=true')).toEqual(['In review']);
    expect(await namesListed(second, 'awaiting_my_review=true')).toEqual(['In review']);
    expect(await namesListed(submitter, 'awaiting_my_review=true')).toEqual([]);

    await app.services.database.db.insert(reviewApprovals).values({
      approvalWorkflowId: workflowId,
      stagePosition: 1,
      round: 1,
      userId: first.id,
      decision: 'approved',
      emailLockVersion: 1,
    });
    expect(await namesListed(first, 'awaiting_my_review=true')).toEqual([]);
    expect(await namesListed(second, 'awaiting_my_review=true')).toEqual(['In review']);

    // A decision of an earlier round no longer counts once the email is resubmitted.
    await app.services.database.db
      .update(approvalWorkflows)
      .set({ round: 2 })
      .where(eq(approvalWorkflows.id, workflowId));
    expect(await namesListed(first, 'awaiting_my_review=true')).toEqual(['In review']);

    await app.services.database.db
      .update(approvalWorkflows)
      .set({ currentStagePosition: 2 })
      .where(eq(approvalWorkflows.id, workflowId));
    expect(await namesListed(first, 'awaiting_my_review=true')).toEqual([]);
    expect(await namesListed(second, 'awaiting_my_review=true')).toEqual(['In review']);
  });

  it('lists what a person submitted, with the status filter narrowing it', async () => {
    expect(await namesListed(submitter, 'submitted_by_me=true')).toEqual(['In review']);
    expect(await namesListed(submitter, 'submitted_by_me=true&status=changes_requested')).toEqual([]);
    expect(await namesListed(first, 'submitted_by_me=true')).toEqual([]);
  });
});
