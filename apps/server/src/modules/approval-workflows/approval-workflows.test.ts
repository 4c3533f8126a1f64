import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenOnChannel } from '../../db/channel-listener.ts';
import { emails, reviewGroupStageMembers, reviewGroupStages, reviewGroups } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../test/harness.ts';
import { startSmtpPeer } from '../../test/smtp-peer.ts';
import { emailEventsChannel } from '../emails/email-events.ts';
import {
  type Person,
  type ReviewOrganization,
  setUpReviewOrganization,
  stagesOf,
} from './review-test-setup.ts';

type Headers = Record<string, string>;

describe('approval workflows', () => {
  let app: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpPeer>>;
  let org: ReviewOrganization;
  let submitter: Person;
  let bea: Person;
  let carl: Person;
  let dora: Person;
  let outsider: Person;
  let viewer: Person;
  const events: { type: string; email_id: number; status?: string }[] = [];

  const url = (emailId: number, tail: string) => `${org.base}/emails/${emailId}/${tail}`;
  const submit = (emailId: number, body: object, headers: Headers = submitter.headers) =>
    org.call('POST', url(emailId, 'approval_workflow'), headers, body);
  const decide = (emailId: number, who: Person, decision: string, comment?: string) =>
    org.call('POST', url(emailId, 'review_approvals'), who.headers, {
      decision,
      ...(comment ? { review_comment: comment } : {}),
    });
  const workflowOf = async (emailId: number) =>
    (await org.call('GET', url(emailId, 'approval_workflow'), submitter.headers)).json();
  const statusOf = async (emailId: number) =>
    (await org.call('GET', `${org.base}/emails/${emailId}`, submitter.headers)).json().status;
  const notificationsOf = async (who: Person) =>
    (await org.call('GET', '/api/v1/notifications', who.headers)).json().results as {
      kind: string;
      message: string;
      email: { id: number };
    }[];
  const submittedEmail = async (stages: ReturnType<typeof stagesOf>, name?: string) => {
    const email = await org.createEmail(name, submitter.headers);
    const response = await submit(email.id, { stages });
    if (response.statusCode !== 200) throw new Error(`submit failed: ${response.body}`);
    return email.id;
  };
  const editSubject = async (emailId: number, subject: string, headers: Headers = submitter.headers) => {
    const current = (await org.call('GET', `${org.base}/emails/${emailId}`, headers)).json();
    const content = current.email_content;
    content.subject.branch_content.null_branch['en-US'] = subject;
    return org.call('PATCH', `${org.base}/emails/${emailId}`, headers, { email_content: content });
  };

  beforeAll(async () => {
    smtp = await startSmtpPeer();
    app = await buildTestApp({ config: { smtpUrl: smtp.url, appUrl: 'https://app.example.com' } });
    org = await setUpReviewOrganization(app);
    submitter = await org.person('Sam', 'Submitter', 'Editor');
    bea = await org.person('Bea', 'Reviewer', 'Viewer');
    carl = await org.person('Carl', 'Checker', 'Viewer');
    dora = await org.person('Dora', 'Decider', 'Viewer');
    outsider = await org.person('Olga', 'Outsider', 'Editor', { inTeam: false });
    viewer = await org.person('Vic', 'Viewer', 'Viewer');
    if (app.services.database.driver === 'pglite' || app.services.database.driver === 'postgres') {
      await listenOnChannel(app.services.database, {
        channel: emailEventsChannel,
        log: app.log,
        onNotification: (payload) => events.push(JSON.parse(payload)),
        onListening: () => {},
      });
    }
  });
  afterAll(async () => {
    await app.close();
    await smtp.stop();
  });

  describe('submitting', () => {
    it('moves a draft to in_review with stages chosen for this email, and notifies stage 1 by mail', async () => {
      const email = await org.createEmail('Autumn launch', submitter.headers);
      const response = await submit(email.id, {
        stages: stagesOf({ type: 'one_of', members: [bea] }, { type: 'all_of', members: [carl, dora] }),
      });
      expect(response.statusCode).toBe(200);
      const workflow = response.json();
      expect(workflow).toMatchObject({
        email_id: email.id,
        status: 'in_progress',
        creator_id: submitter.user.id,
        creator: { id: submitter.user.id, first_name: 'Sam' },
        current_stage_position: 1,
        round: 1,
        review_approvals: [],
        approved_lock_version: null,
        completed_at: null,
        review_group: {
          name: 'Review of “Autumn launch”',
          reusable: false,
          stages: [
            { position: 1, approval_type: 'one_of', members: [{ user_id: bea.user.id }] },
            {
              position: 2,
              approval_type: 'all_of',
              members: [{ user_id: carl.user.id }, { user_id: dora.user.id }],
            },
          ],
        },
        stages_progress: [
          { position: 1, status: 'in_progress', waiting_on_user_ids: [bea.user.id] },
          { position: 2, status: 'waiting', waiting_on_user_ids: [carl.user.id, dora.user.id] },
        ],
      });
      expect(workflow.review_group.stages[0].members[0].user).toMatchObject({ first_name: 'Bea' });
      expect(workflow.review_group_id).toBe(workflow.review_group.id);
      expect(await statusOf(email.id)).toBe('in_review');
      expect(events).toContainEqual({ type: 'status_changed', email_id: email.id, status: 'in_review' });

      const [notice] = (await notificationsOf(bea)).filter((n) => n.email.id === email.id);
      expect(notice).toMatchObject({ kind: 'requested_review' });
      expect(notice?.message).toContain('Sam Submitter asked you to review “Autumn launch”');
      expect((await notificationsOf(carl)).filter((n) => n.email.id === email.id)).toEqual([]);
      const mail = smtp.received.find(
        (received) => received.to.includes(bea.user.email) && received.readable.includes('Autumn launch'),
      );
      expect(mail?.readable).toContain(`https://app.example.com/workspaces/${org.organization.workspaceId}`);
    });

    it('submits to a reusable review group, reading its stages', async () => {
      const db = app.services.database.db;
      const [group] = await db
        .insert(reviewGroups)
        .values({ organizationId: org.organization.organizationId, name: 'Brand and legal', reusable: true })
        .returning();
      const [first] = await db
        .insert(reviewGroupStages)
        .values({ reviewGroupId: group?.id as number, position: 1, approvalType: 'all_of' })
        .returning();
      await db.insert(reviewGroupStageMembers).values([
        { stageId: first?.id as number, userId: bea.user.id },
        { stageId: first?.id as number, userId: carl.user.id },
      ]);
      const email = await org.createEmail('Grouped', submitter.headers);
      const response = await submit(email.id, { review_group_id: group?.id });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        review_group_id: group?.id,
        review_group: {
          name: 'Brand and legal',
          reusable: true,
          stages: [{ position: 1, approval_type: 'all_of' }],
        },
      });
      expect(
        response.json().review_group.stages[0].members.map((m: { user_id: number }) => m.user_id),
      ).toEqual([bea.user.id, carl.user.id]);
      // Another email's one-off group is not offered.
      const oneOff = (await workflowOf(await submittedEmail(stagesOf({ type: 'one_of', members: [bea] }))))
        .review_group_id;
      const refused = await submit((await org.createEmail(undefined, submitter.headers)).id, {
        review_group_id: oneOff,
      });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().errors.review_group_id[0]).toContain('not a reusable review group');
    });

    it('keeps a member named twice in a stage once, in the workflow and in its one-off group', async () => {
      const email = await org.createEmail('Twice named', submitter.headers);
      const response = await submit(email.id, {
        stages: stagesOf({ type: 'all_of', members: [bea, carl, bea] }),
      });
      expect(response.statusCode, response.body).toBe(200);
      const workflow = response.json();
      const memberIds = (stage: { members: { user_id: number }[] }) => stage.members.map((m) => m.user_id);
      expect(workflow.review_group.stages.map(memberIds)).toEqual([[bea.user.id, carl.user.id]]);
      const group = (await org.call('GET', `/api/v1/review_groups/${workflow.review_group_id}`)).json();
      expect(group).toMatchObject({ name: 'Review of “Twice named”', reusable: false });
      expect(group.stages.map(memberIds)).toEqual([[bea.user.id, carl.user.id]]);
    });

    it('refuses members who cannot see the email, naming them', async () => {
      const email = await org.createEmail(undefined, submitter.headers);
      const response = await submit(email.id, {
        stages: stagesOf({ type: 'one_of', members: [bea, outsider] }),
      });
      expect(response.statusCode).toBe(422);
      expect(response.json().errors.stages[0]).toContain('Olga Outsider cannot see this email');
      expect(await statusOf(email.id)).toBe('draft');
    });

    it('refuses a body naming neither a group nor stages, or both', async () => {
      const email = await org.createEmail(undefined, submitter.headers);
      expect((await submit(email.id, {})).statusCode).toBe(422);
      const both = await submit(email.id, {
        review_group_id: 1,
        stages: stagesOf({ type: 'one_of', members: [bea] }),
      });
      expect(both.statusCode).toBe(422);
      expect(both.json().errors.stages).toBeDefined();
    });

    it('refuses an email in review or published (422), and a caller without submit_for_approval (403)', async () => {
      const emailId = await submittedEmail(stagesOf({ type: 'one_of', members: [bea] }));
      const again = await submit(emailId, { stages: stagesOf({ type: 'one_of', members: [bea] }) });
      expect(again.statusCode).toBe(422);
      expect(again.json().errors.status[0]).toContain('is in_review');
      const published = await org.createEmail(undefined, submitter.headers);
      await org.call('POST', url(published.id, 'publish'), org.admin, { force: true });
      expect(
        (await submit(published.id, { stages: stagesOf({ type: 'one_of', members: [bea] }) })).statusCode,
      ).toBe(422);
      const draft = await org.createEmail(undefined, submitter.headers);
      expect(
        (await submit(draft.id, { stages: stagesOf({ type: 'one_of', members: [bea] }) }, viewer.headers))
          .statusCode,
      ).toBe(403);
    });

    it('answers 404 "no workflow" for an email never submitted', async () => {
      const email = await org.createEmail(undefined, submitter.headers);
      const response = await org.call('GET', url(email.id, 'approval_workflow'), submitter.headers);
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toContain('no approval workflow');
    });
  });

  describe('deciding', () => {
    it('lets only members of the current stage decide, saying whom the stage waits on', async () => {
      const emailId = await submittedEmail(
        stagesOf({ type: 'all_of', members: [bea, carl] }, { type: 'one_of', members: [dora] }),
      );
      const stranger = await decide(emailId, viewer, 'approved');
      expect(stranger.statusCode).toBe(403);
      expect(stranger.json().message).toContain('Stage 1 is waiting on Bea Reviewer and Carl Checker');
      // A member of a later stage waits for their turn.
      expect((await decide(emailId, dora, 'approved')).statusCode).toBe(403);
      expect((await decide(emailId, bea, 'approved')).statusCode).toBe(200);
      const again = await decide(emailId, bea, 'approved');
      expect(again.statusCode).toBe(422);
      expect(again.json().errors.decision[0]).toContain('already');
      const stillWaiting = await decide(emailId, viewer, 'approved');
      expect(stillWaiting.json().message).toContain('Stage 1 is waiting on Carl Checker');
    });

    it('completes a one_of stage with one approval and an all_of stage with every member’s', async () => {
      const emailId = await submittedEmail(
        stagesOf({ type: 'one_of', members: [bea, carl] }, { type: 'all_of', members: [carl, dora] }),
      );
      const approval = await decide(emailId, bea, 'approved', 'Looks good');
      expect(approval.json()).toMatchObject({
        decision: 'approved',
        review_comment: 'Looks good',
        user_id: bea.user.id,
        user: { first_name: 'Bea' },
        stage_position: 1,
        round: 1,
        email_lock_version: 1,
      });
      expect((await workflowOf(emailId)).current_stage_position).toBe(2);
      // Carl, also of stage 1, cannot decide stage 1 again: it is over.
      expect((await decide(emailId, carl, 'approved')).statusCode).toBe(200);
      let workflow = await workflowOf(emailId);
      expect(workflow.current_stage_position).toBe(2);
      expect(workflow.stages_progress[1]).toMatchObject({
        status: 'in_progress',
        approved_by_user_ids: [carl.user.id],
        waiting_on_user_ids: [dora.user.id],
      });
      expect(await statusOf(emailId)).toBe('in_review');
      expect((await decide(emailId, dora, 'approved')).statusCode).toBe(200);
      workflow = await workflowOf(emailId);
      expect(workflow).toMatchObject({ status: 'completed', approved_lock_version: 1 });
      expect(workflow.completed_at).not.toBeNull();
      expect(workflow.stages_progress.map((stage: { status: string }) => stage.status)).toEqual([
        'completed',
        'completed',
      ]);
      expect(await statusOf(emailId)).toBe('approved');
    });

    it('notifies the next stage, then the submitter and those who may publish once approved', async () => {
      const emailId = await submittedEmail(
        stagesOf({ type: 'one_of', members: [bea] }, { type: 'one_of', members: [carl] }),
        'Winter promo',
      );
      await decide(emailId, bea, 'approved');
      expect((await notificationsOf(carl)).find((n) => n.email.id === emailId)?.kind).toBe(
        'requested_review',
      );
      await decide(emailId, carl, 'approved');
      const submitterKinds = (await notificationsOf(submitter))
        .filter((n) => n.email.id === emailId)
        .map((n) => n.kind);
      expect(submitterKinds.sort()).toEqual(['ready_to_publish', 'review_approved']);
      // The Admin may publish and sees every project; the outsider (Editor) may publish but cannot see it.
      const adminPerson = { headers: org.admin } as Person;
      expect((await notificationsOf(adminPerson)).find((n) => n.email.id === emailId)?.kind).toBe(
        'ready_to_publish',
      );
      expect((await notificationsOf(outsider)).filter((n) => n.email.id === emailId)).toEqual([]);
      // Viewers cannot publish: not told.
      expect((await notificationsOf(viewer)).filter((n) => n.email.id === emailId)).toEqual([]);
    });

    it('request_changes moves the email to changes_requested and tells the submitter, quoting the comment', async () => {
      const emailId = await submittedEmail(stagesOf({ type: 'one_of', members: [bea] }), 'Summer');
      const response = await decide(emailId, bea, 'request_changes', 'The hero image is blurry');
      expect(response.statusCode).toBe(200);
      expect(await statusOf(emailId)).toBe('changes_requested');
      expect(events).toContainEqual({
        type: 'status_changed',
        email_id: emailId,
        status: 'changes_requested',
      });
      expect(events).toContainEqual({ type: 'review_changed', email_id: emailId });
      const notice = (await notificationsOf(submitter)).find((n) => n.email.id === emailId);
      expect(notice).toMatchObject({ kind: 'review_changes_requested' });
      expect(notice?.message).toContain('Bea Reviewer requested changes to “Summer”');
      const mail = smtp.received.find(
        (received) => received.to.includes(submitter.user.email) && received.readable.includes('Summer'),
      );
      expect(mail?.readable).toContain('> The hero image is blurry');
      // No longer in review: decisions are refused, content may change again.
      expect((await decide(emailId, bea, 'approved')).statusCode).toBe(422);
      expect((await editSubject(emailId, 'Sharper hero')).statusCode).toBe(200);
    });

    it('refuses decisions on an email not in review', async () => {
      const email = await org.createEmail(undefined, submitter.headers);
      const response = await decide(email.id, bea, 'approved');
      expect(response.statusCode).toBe(422);
      expect(response.json().errors.status[0]).toContain('is draft');
    });

    it('lets only one of two simultaneous approvals complete a one_of stage', async () => {
      const emailId = await submittedEmail(
        stagesOf({ type: 'one_of', members: [bea, carl] }, { type: 'one_of', members: [dora] }),
      );
      const answers = await Promise.all([
        decide(emailId, bea, 'approved'),
        decide(emailId, carl, 'approved'),
      ]);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 403]);
      const workflow = await workflowOf(emailId);
      expect(workflow.current_stage_position).toBe(2);
      expect(workflow.review_approvals).toHaveLength(1);
    });
  });

  describe('resubmitting', () => {
    it('continues from the stage that asked for changes; earlier approvals keep counting, later ones do not', async () => {
      const emailId = await submittedEmail(
        stagesOf({ type: 'one_of', members: [bea] }, { type: 'all_of', members: [carl, dora] }),
      );
      await decide(emailId, bea, 'approved');
      await decide(emailId, carl, 'approved');
      await decide(emailId, dora, 'request_changes', 'Fix the footer');
      await editSubject(emailId, 'Fixed footer');
      const resubmitted = await submit(emailId, { resubmission: true });
      expect(resubmitted.statusCode).toBe(200);
      expect(resubmitted.json()).toMatchObject({
        current_stage_position: 2,
        round: 2,
        status: 'in_progress',
      });
      expect(resubmitted.json().stages_progress).toMatchObject([
        { position: 1, status: 'completed', approved_by_user_ids: [bea.user.id] },
        {
          position: 2,
          status: 'in_progress',
          approved_by_user_ids: [],
          waiting_on_user_ids: [carl.user.id, dora.user.id],
        },
      ]);
      expect(await statusOf(emailId)).toBe('in_review');
      // Carl's round-1 approval no longer counts: he approves again, and Dora must too.
      expect((await decide(emailId, carl, 'approved')).statusCode).toBe(200);
      expect(await statusOf(emailId)).toBe('in_review');
      expect((await decide(emailId, dora, 'approved')).statusCode).toBe(200);
      expect(await statusOf(emailId)).toBe('approved');
      expect((await workflowOf(emailId)).review_approvals).toHaveLength(5);
      expect((await notificationsOf(carl)).filter((n) => n.email.id === emailId).length).toBe(2);
    });

    it('starts again at stage 1 without the flag, cancelling the earlier workflow', async () => {
      const emailId = await submittedEmail(
        stagesOf({ type: 'one_of', members: [bea] }, { type: 'one_of', members: [carl] }),
      );
      const first = await workflowOf(emailId);
      await decide(emailId, bea, 'approved');
      await decide(emailId, carl, 'request_changes');
      const again = await submit(emailId, {
        stages: stagesOf({ type: 'one_of', members: [bea] }, { type: 'one_of', members: [carl] }),
      });
      expect(again.statusCode).toBe(200);
      expect(again.json()).toMatchObject({ current_stage_position: 1, round: 1, review_approvals: [] });
      expect(again.json().id).not.toBe(first.id);
      // Bea must approve again: the new workflow has no decisions.
      expect((await decide(emailId, carl, 'approved')).statusCode).toBe(403);
    });

    it('refuses resubmission unless changes were requested with a workflow under way', async () => {
      const draft = await org.createEmail(undefined, submitter.headers);
      expect((await submit(draft.id, { resubmission: true })).statusCode).toBe(422);
      const inReview = await submittedEmail(stagesOf({ type: 'one_of', members: [bea] }));
      const refused = await submit(inReview, { resubmission: true });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().errors.status[0]).toContain('only an email whose reviewers requested changes');
      // changes_requested, but its workflow was cancelled (written directly: the API never leaves it so).
      await org.call('POST', url(inReview, 'convert_to_draft'), submitter.headers);
      await app.services.database.db
        .update(emails)
        .set({ status: 'changes_requested' })
        .where(eq(emails.id, inReview));
      const noWorkflow = await submit(inReview, { resubmission: true });
      expect(noWorkflow.statusCode).toBe(422);
      expect(noWorkflow.json().errors.resubmission[0]).toContain('no review to continue');
    });
  });

  describe('what is approved is what ships', () => {
    it('refuses content edits and version restores in review and approved; a rename keeps lock_version', async () => {
      const emailId = await submittedEmail(stagesOf({ type: 'one_of', members: [bea] }));
      const edit = await editSubject(emailId, 'Sneaky change');
      expect(edit.statusCode).toBe(422);
      expect(edit.json().errors.status[0]).toContain('what is approved is what ships');
      const versions = (await org.call('GET', url(emailId, 'versions'), submitter.headers)).json();
      const restore = await org.call(
        'POST',
        url(emailId, `versions/${versions.results[0].version_id}/restore`),
        submitter.headers,
      );
      expect(restore.statusCode).toBe(422);
      const locales = await org.call('PATCH', `${org.base}/emails/${emailId}`, org.admin, {
        locales: ['en-US', 'fr-FR'],
      });
      expect(locales.statusCode).toBe(422);
      await decide(emailId, bea, 'approved');
      expect((await editSubject(emailId, 'After approval')).statusCode).toBe(422);
      const renamed = await org.call('PATCH', `${org.base}/emails/${emailId}`, submitter.headers, {
        name: 'Renamed while approved',
      });
      expect(renamed.statusCode).toBe(200);
      expect(renamed.json()).toMatchObject({
        name: 'Renamed while approved',
        lock_version: 1,
        status: 'approved',
      });
      const published = await org.call('POST', url(emailId, 'publish'), submitter.headers, {});
      expect(published.statusCode).toBe(200);
      expect(published.json().status).toBe('published');
      expect(events).toContainEqual({ type: 'status_changed', email_id: emailId, status: 'published' });
    });

    it('publishes only the approved content: another lock_version is refused unless forced', async () => {
      const emailId = await submittedEmail(stagesOf({ type: 'one_of', members: [bea] }));
      await decide(emailId, bea, 'approved');
      // Content that changed behind the approval (written directly: the API refuses such edits).
      await app.services.database.db.update(emails).set({ lockVersion: 7 }).where(eq(emails.id, emailId));
      const refused = await org.call('POST', url(emailId, 'publish'), submitter.headers, {});
      expect(refused.statusCode).toBe(422);
      expect(refused.json().errors.lock_version[0]).toContain('version 1 was approved');
      const forced = await org.call('POST', url(emailId, 'publish'), org.admin, { force: true });
      expect(forced.statusCode).toBe(200);
    });

    it('converting to draft cancels the workflow under way; decisions are then refused', async () => {
      const emailId = await submittedEmail(stagesOf({ type: 'all_of', members: [bea, carl] }));
      await decide(emailId, bea, 'approved');
      const converted = await org.call('POST', url(emailId, 'convert_to_draft'), submitter.headers);
      expect(converted.json().status).toBe('draft');
      expect((await workflowOf(emailId)).status).toBe('cancelled');
      expect(events).toContainEqual({ type: 'status_changed', email_id: emailId, status: 'draft' });
      expect((await decide(emailId, carl, 'approved')).statusCode).toBe(422);
      // A draft never approved cannot be published without force.
      const publish = await org.call('POST', url(emailId, 'publish'), submitter.headers, {});
      expect(publish.statusCode).toBe(422);
    });

    it('force publish from review cancels the workflow under way', async () => {
      const emailId = await submittedEmail(stagesOf({ type: 'one_of', members: [bea] }));
      const forced = await org.call('POST', url(emailId, 'publish'), org.admin, { force: true });
      expect(forced.json().status).toBe('published');
      expect((await workflowOf(emailId)).status).toBe('cancelled');
    });
  });
});
