import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/harness.ts';
import {
  type Person,
  type ReviewOrganization,
  setUpReviewOrganization,
  stagesOf,
} from './review-test-setup.ts';

type Headers = Record<string, string>;
interface Problem {
  code: string;
  severity: 'blocking' | 'warning';
  locale: string | null;
  branch: string | null;
  component_instance_id: string | null;
  message: string;
}

/*
 * The pre-send checks gate the workflow as they gate an export: submitting, approving and
 * publishing are refused over blocking problems and carry the warnings; a force publish overrides
 * blocking problems the caller acknowledged, and the audit log records it.
 */
describe('pre-send checks gate submit, approve and publish', () => {
  let app: TestApp;
  let org: ReviewOrganization;
  let submitter: Person;
  let reviewer: Person;
  let system: { id: number; hero: { id: number; template: string } };

  const url = (emailId: number, tail: string) => `${org.base}/emails/${emailId}/${tail}`;
  const statusOf = async (emailId: number) =>
    (await org.call('GET', `${org.base}/emails/${emailId}`, submitter.headers)).json().status;

  /** An English and German email with one Hero; the German button link as given, its image without alt text. */
  async function bilingualEmail(germanButtonUrl: string) {
    const created = await org.call('POST', `${org.base}/emails`, submitter.headers, {
      name: 'Spring sale',
      email_design_system_id: system.id,
      project_id: org.projectId,
      locales: ['en-US', 'de-DE'],
    });
    expect(created.statusCode, created.body).toBe(200);
    const email = created.json();
    const heroId = randomUUID();
    const updated = await org.call('PATCH', `${org.base}/emails/${email.id}`, submitter.headers, {
      email_content: {
        ...email.email_content,
        subject: { branch_content: { null_branch: { 'en-US': 'Spring sale', 'de-DE': 'Frühlingsangebot' } } },
        preheader: {
          branch_content: { null_branch: { 'en-US': 'Ten days only', 'de-DE': 'Nur zehn Tage' } },
        },
        component_instances: [
          {
            id: heroId,
            component_id: system.hero.id,
            field_values: {
              null_branch: {
                'en-US': {
                  headline: { value: 'Spring is here' },
                  image_alt: { value: 'Flowers' },
                  button_text: { value: 'Shop now' },
                  button_url: { value: 'https://example.com/spring' },
                },
                'de-DE': {
                  headline: { value: 'Der Frühling ist da' },
                  image_alt: { value: '' },
                  button_text: { value: 'Jetzt kaufen' },
                  button_url: { value: germanButtonUrl },
                },
              },
            },
          },
        ],
      },
    });
    expect(updated.statusCode, updated.body).toBe(200);
    return { id: email.id as number, heroId };
  }

  /** The Hero template with a link that has no target: a blocking problem in every email that shows a Hero. */
  async function breakHeroTemplate() {
    const response = await org.call(
      'PATCH',
      `${org.base}/email_design_systems/${system.id}/components/${system.hero.id}`,
      org.admin,
      { template: `${system.hero.template}<a href="#">Broken</a>` },
    );
    expect(response.statusCode, response.body).toBe(200);
  }
  async function restoreHeroTemplate() {
    const response = await org.call(
      'PATCH',
      `${org.base}/email_design_systems/${system.id}/components/${system.hero.id}`,
      org.admin,
      { template: system.hero.template },
    );
    expect(response.statusCode, response.body).toBe(200);
  }

  const submit = (emailId: number) =>
    org.call('POST', url(emailId, 'approval_workflow'), submitter.headers, {
      stages: stagesOf({ type: 'one_of', members: [reviewer] }),
    });
  const approve = (emailId: number) =>
    org.call('POST', url(emailId, 'review_approvals'), reviewer.headers, { decision: 'approved' });
  const publish = (emailId: number, body: object = {}, headers: Headers = submitter.headers) =>
    org.call('POST', url(emailId, 'publish'), headers, body);

  beforeAll(async () => {
    app = await buildTestApp();
    org = await setUpReviewOrganization(app);
    submitter = await org.person('Sam', 'Submitter', 'Editor');
    reviewer = await org.person('Bea', 'Reviewer', 'Viewer');
    const systems = (await org.call('GET', `${org.base}/email_design_systems`)).json();
    const id = systems.results.find((found: { name: string }) => found.name === 'Letterset Starter').id;
    const components = (
      await org.call('GET', `${org.base}/email_design_systems/${id}/components?per=100`)
    ).json().results as { name: string; id: number; template: string }[];
    const hero = components.find((component) => component.name === 'hero');
    if (!hero) throw new Error('the starter has no hero');
    system = { id, hero: { id: hero.id, template: hero.template } };
  });
  afterAll(async () => {
    await app.close();
  });

  it('refuses to submit an email with a blocking problem, listing it by locale and component', async () => {
    const email = await bilingualEmail('');
    const refused = await submit(email.id);
    expect(refused.statusCode, refused.body).toBe(422);
    const body = refused.json();
    expect(body.code).toBe('pre_send_checks_failed');
    expect(body.message).toMatch(/cannot be submitted for approval/);
    // The same shape as an export's refusal: messages under checks.<locale>.
    expect(body.errors).toEqual({
      'checks.de-DE': ["Hero: Button link can't be blank", 'A link has no target'],
    });
    expect(body.problems.length).toBeGreaterThan(0);
    for (const problem of body.problems as Problem[]) {
      expect(problem).toMatchObject({ severity: 'blocking', locale: 'de-DE' });
    }
    expect((body.problems as Problem[]).map((problem) => problem.component_instance_id)).toContain(
      email.heroId,
    );
    expect(await statusOf(email.id)).toBe('draft');
    expect((await org.call('GET', url(email.id, 'approval_workflow'), submitter.headers)).statusCode).toBe(
      404,
    );
  });

  it('submits and approves an email without blocking problems, recording the warnings with the approval', async () => {
    const email = await bilingualEmail('https://example.com/fruehling');
    const submitted = await submit(email.id);
    expect(submitted.statusCode, submitted.body).toBe(200);
    const submitWarnings = submitted.json().pre_send_warnings as Problem[];
    expect(submitWarnings.every((problem) => problem.severity === 'warning')).toBe(true);
    expect(submitWarnings).toContainEqual(
      expect.objectContaining({ code: 'missing_alt_text', locale: 'de-DE', severity: 'warning' }),
    );

    const approved = await approve(email.id);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().pre_send_warnings).toEqual(submitWarnings);
    expect(await statusOf(email.id)).toBe('approved');

    // Wherever approvals are listed, their warnings are too.
    const workflow = (await org.call('GET', url(email.id, 'approval_workflow'), submitter.headers)).json();
    expect(workflow.review_approvals).toHaveLength(1);
    expect(workflow.review_approvals[0].pre_send_warnings).toEqual(submitWarnings);
    expect(workflow.pre_send_warnings).toBeUndefined();

    const published = await publish(email.id);
    expect(published.statusCode, published.body).toBe(200);
    expect(published.json()).toMatchObject({ status: 'published', overridden_problems: [] });
    expect(published.json().pre_send_warnings).toEqual(submitWarnings);
  });

  it('refuses an approval over a blocking problem that appeared in review; changes may still be requested', async () => {
    const email = await bilingualEmail('https://example.com/fruehling');
    expect((await submit(email.id)).statusCode).toBe(200);
    await breakHeroTemplate();
    try {
      const refused = await approve(email.id);
      expect(refused.statusCode, refused.body).toBe(422);
      expect(refused.json()).toMatchObject({
        code: 'pre_send_checks_failed',
        errors: { 'checks.en-US': ['A link has no target'], 'checks.de-DE': ['A link has no target'] },
      });
      expect(await statusOf(email.id)).toBe('in_review');
      const workflow = (await org.call('GET', url(email.id, 'approval_workflow'), submitter.headers)).json();
      expect(workflow.review_approvals).toEqual([]);

      const changes = await org.call('POST', url(email.id, 'review_approvals'), reviewer.headers, {
        decision: 'request_changes',
        review_comment: 'The Hero shows a link to nowhere',
      });
      expect(changes.statusCode, changes.body).toBe(200);
      expect(changes.json().pre_send_warnings).toEqual([]);
      expect(await statusOf(email.id)).toBe('changes_requested');
    } finally {
      await restoreHeroTemplate();
    }
  });

  it('refuses a member outside the stage with 403 before the checks say anything', async () => {
    const email = await bilingualEmail('https://example.com/fruehling');
    expect((await submit(email.id)).statusCode).toBe(200);
    await breakHeroTemplate();
    try {
      const outsider = await org.call('POST', url(email.id, 'review_approvals'), submitter.headers, {
        decision: 'approved',
      });
      expect(outsider.statusCode, outsider.body).toBe(403);
    } finally {
      await restoreHeroTemplate();
    }
  });

  it('refuses to publish over a blocking problem; force publish overrides only what was acknowledged, and is audited', async () => {
    const email = await bilingualEmail('https://example.com/fruehling');
    expect((await submit(email.id)).statusCode).toBe(200);
    expect((await approve(email.id)).statusCode).toBe(200);
    await breakHeroTemplate();
    try {
      const refused = await publish(email.id);
      expect(refused.statusCode, refused.body).toBe(422);
      expect(refused.json()).toMatchObject({ code: 'pre_send_checks_failed' });
      const blocking = refused.json().problems as Problem[];
      expect(blocking.map((problem) => [problem.code, problem.locale])).toEqual([
        ['empty_link', 'en-US'],
        ['empty_link', 'de-DE'],
      ]);

      // Without force_publish_emails, force is refused whatever the checks find.
      const withoutKey = await publish(email.id, { force: true, acknowledged_problems: ['empty_link'] });
      expect(withoutKey.statusCode, withoutKey.body).toBe(403);

      // With the key: unacknowledged problems refuse like a plain publish; other problems than
      // those found now are a 409 listing the current ones.
      const unacknowledged = await publish(email.id, { force: true }, org.admin);
      expect(unacknowledged.statusCode, unacknowledged.body).toBe(422);
      expect(unacknowledged.json().code).toBe('pre_send_checks_failed');
      const stale = await publish(
        email.id,
        { force: true, acknowledged_problems: ['empty_link'] },
        org.admin,
      );
      expect(stale.statusCode, stale.body).toBe(409);
      expect(stale.json()).toMatchObject({ code: 'pre_send_checks_changed', problems: blocking });
      expect(await statusOf(email.id)).toBe('approved');

      const forced = await publish(
        email.id,
        { force: true, acknowledged_problems: blocking.map((problem) => problem.code) },
        org.admin,
      );
      expect(forced.statusCode, forced.body).toBe(200);
      expect(forced.json()).toMatchObject({ status: 'published', overridden_problems: blocking });

      const audit = await org.call(
        'GET',
        '/api/v1/audit_logs?resource_type=emails.force_published',
        org.admin,
      );
      expect(audit.statusCode, audit.body).toBe(200);
      expect(audit.json().results).toEqual([
        expect.objectContaining({
          action: 'update',
          resource_type: 'emails.force_published',
          resource_id: String(email.id),
          method: 'POST',
          path: url(email.id, 'publish'),
          status_code: 200,
          request_id: forced.headers['x-request-id'] ?? expect.any(String),
          details: { overridden_problems: blocking },
        }),
      ]);
    } finally {
      await restoreHeroTemplate();
    }
  });

  it('force-publishes an email without blocking problems from draft with no acknowledgement', async () => {
    const email = await bilingualEmail('https://example.com/fruehling');
    const forced = await publish(email.id, { force: true }, org.admin);
    expect(forced.statusCode, forced.body).toBe(200);
    expect(forced.json()).toMatchObject({ status: 'published', overridden_problems: [] });
  });
});
