import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/harness.ts';
import { type Person, type ReviewOrganization, setUpReviewOrganization } from './review-test-setup.ts';

/*
 * A model-based test: random sequences of review events run against the API and against a small
 * pure model of the rules; after each step the answer's status code, the email's status and the
 * workflow's stage, round and status must agree with the model. A blocking pre-send problem comes
 * and goes (the design system's container gains a link with no target, then loses it): while it
 * stands, submitting, approving and publishing are refused, and only a force publish that
 * acknowledges it goes through.
 */

type Status = 'draft' | 'in_review' | 'changes_requested' | 'approved' | 'published';
type Decision = 'approved' | 'request_changes';
interface ModelStage {
  type: 'one_of' | 'all_of';
  members: number[];
}
interface ModelWorkflow {
  status: 'in_progress' | 'completed' | 'cancelled';
  stages: ModelStage[];
  current: number;
  round: number;
  decisions: { person: number; stage: number; round: number; decision: Decision }[];
  approvedLockVersion: number | null;
}
interface Model {
  status: Status;
  lockVersion: number;
  workflow: ModelWorkflow | null;
  /** Whether the pre-send checks find a blocking problem. */
  blocked: boolean;
}

type Step =
  | { kind: 'submit'; stages: ModelStage[] }
  | { kind: 'resubmit' }
  | { kind: 'decide'; person: number; decision: Decision }
  | { kind: 'convert_to_draft' }
  | { kind: 'publish' }
  | { kind: 'force_publish'; acknowledge: boolean }
  | { kind: 'edit_content' }
  | { kind: 'break_checks' }
  | { kind: 'fix_checks' };

/** People 0–2 can be stage members; 3 can see the email but is never a member. */
const reviewerCount = 3;
const deciderCount = 4;

const stageArbitrary: fc.Arbitrary<ModelStage> = fc.record({
  type: fc.constantFrom('one_of' as const, 'all_of' as const),
  members: fc.uniqueArray(fc.integer({ min: 0, max: reviewerCount - 1 }), { minLength: 1, maxLength: 3 }),
});

const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('submit' as const),
      stages: fc.array(stageArbitrary, { minLength: 1, maxLength: 3 }),
    }),
  },
  { weight: 2, arbitrary: fc.constant({ kind: 'resubmit' as const }) },
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant('decide' as const),
      person: fc.integer({ min: 0, max: deciderCount - 1 }),
      decision: fc.constantFrom<Decision>('approved', 'approved', 'approved', 'request_changes'),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'convert_to_draft' as const }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'publish' as const }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('force_publish' as const), acknowledge: fc.boolean() }),
  },
  { weight: 2, arbitrary: fc.constant({ kind: 'edit_content' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'break_checks' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'fix_checks' as const }) },
);

/** The rules, as plainly as they can be said. Returns the expected status code and mutates the model. */
function applyToModel(model: Model, step: Step): number {
  const workflowUnderWay = model.workflow?.status === 'in_progress' ? model.workflow : null;
  switch (step.kind) {
    case 'submit':
      if (model.status !== 'draft' && model.status !== 'changes_requested') return 422;
      if (model.blocked) return 422;
      if (workflowUnderWay) workflowUnderWay.status = 'cancelled';
      model.workflow = {
        status: 'in_progress',
        stages: step.stages,
        current: 0,
        round: 1,
        decisions: [],
        approvedLockVersion: null,
      };
      model.status = 'in_review';
      return 200;
    case 'resubmit':
      if (model.status !== 'changes_requested' || !workflowUnderWay) return 422;
      if (model.blocked) return 422;
      workflowUnderWay.round += 1;
      model.status = 'in_review';
      return 200;
    case 'decide': {
      if (model.status !== 'in_review' || !workflowUnderWay) return 422;
      const stage = workflowUnderWay.stages[workflowUnderWay.current] as ModelStage;
      if (!stage.members.includes(step.person)) return 403;
      const approvedNow = workflowUnderWay.decisions
        .filter(
          (d) =>
            d.stage === workflowUnderWay.current &&
            d.round === workflowUnderWay.round &&
            d.decision === 'approved',
        )
        .map((d) => d.person);
      if (approvedNow.includes(step.person)) return 422;
      // The checks refuse an approval, never a request for changes.
      if (step.decision === 'approved' && model.blocked) return 422;
      workflowUnderWay.decisions.push({
        person: step.person,
        stage: workflowUnderWay.current,
        round: workflowUnderWay.round,
        decision: step.decision,
      });
      if (step.decision === 'request_changes') {
        model.status = 'changes_requested';
        return 200;
      }
      const approvers = [...approvedNow, step.person];
      const complete =
        stage.type === 'one_of' ? true : stage.members.every((member) => approvers.includes(member));
      if (!complete) return 200;
      if (workflowUnderWay.current < workflowUnderWay.stages.length - 1) {
        workflowUnderWay.current += 1;
      } else {
        workflowUnderWay.status = 'completed';
        workflowUnderWay.approvedLockVersion = model.lockVersion;
        model.status = 'approved';
      }
      return 200;
    }
    case 'convert_to_draft':
      if (model.status === 'draft') return 422;
      if (workflowUnderWay) workflowUnderWay.status = 'cancelled';
      model.status = 'draft';
      return 200;
    case 'publish':
      if (model.status !== 'approved') return 422;
      if (model.workflow?.approvedLockVersion !== model.lockVersion) return 422;
      if (model.blocked) return 422;
      model.status = 'published';
      return 200;
    case 'force_publish':
      if (model.status === 'published') return 422;
      // Blocking problems are overridden only when acknowledged.
      if (model.blocked && !step.acknowledge) return 422;
      if (workflowUnderWay) workflowUnderWay.status = 'cancelled';
      model.status = 'published';
      return 200;
    case 'edit_content':
      if (model.status !== 'draft' && model.status !== 'changes_requested') return 422;
      model.lockVersion += 1;
      return 200;
    case 'break_checks':
      model.blocked = true;
      return 200;
    case 'fix_checks':
      model.blocked = false;
      return 200;
  }
}

describe('approval workflows against a model of the rules', () => {
  let app: TestApp;
  let org: ReviewOrganization;
  let submitter: Person;
  let deciders: Person[];
  let container: { url: string; template: string };

  beforeAll(async () => {
    app = await buildTestApp();
    org = await setUpReviewOrganization(app);
    submitter = await org.person('Sam', 'Submitter', 'Editor');
    deciders = [
      await org.person('Bea', 'Reviewer', 'Viewer'),
      await org.person('Carl', 'Checker', 'Viewer'),
      await org.person('Dora', 'Decider', 'Editor'),
      await org.person('Vic', 'Bystander', 'Viewer'),
    ];
    const systems = (await org.call('GET', `${org.base}/email_design_systems`)).json();
    const systemId = systems.results.find(
      (system: { name: string }) => system.name === 'Letterset Starter',
    ).id;
    const components = (
      await org.call('GET', `${org.base}/email_design_systems/${systemId}/components?per=100`)
    ).json().results as { id: number; container: boolean; template: string }[];
    const found = components.find((component) => component.container);
    if (!found) throw new Error('the starter has no container');
    container = {
      url: `${org.base}/email_design_systems/${systemId}/components/${found.id}`,
      template: found.template,
    };
  });

  /** Every email shows the container: a link with no target in it is a blocking problem of each one. */
  async function setContainerBroken(broken: boolean): Promise<number> {
    const template = broken ? `${container.template}<a href="#">Broken</a>` : container.template;
    return (await org.call('PATCH', container.url, org.admin, { template })).statusCode;
  }
  afterAll(async () => {
    await app.close();
  });

  async function runOnApi(emailId: number, step: Step, edits: { count: number }): Promise<number> {
    const url = (tail: string) => `${org.base}/emails/${emailId}/${tail}`;
    switch (step.kind) {
      case 'submit':
        return (
          await org.call('POST', url('approval_workflow'), submitter.headers, {
            stages: step.stages.map((stage) => ({
              approval_type: stage.type,
              members: stage.members.map((index) => ({ user_id: deciders[index]?.user.id })),
            })),
          })
        ).statusCode;
      case 'resubmit':
        return (await org.call('POST', url('approval_workflow'), submitter.headers, { resubmission: true }))
          .statusCode;
      case 'decide':
        return (
          await org.call('POST', url('review_approvals'), deciders[step.person]?.headers, {
            decision: step.decision,
          })
        ).statusCode;
      case 'convert_to_draft':
        return (await org.call('POST', url('convert_to_draft'), submitter.headers)).statusCode;
      case 'publish':
        return (await org.call('POST', url('publish'), submitter.headers, {})).statusCode;
      case 'force_publish': {
        // As the web app's confirmation does: name the blocking problems the checks find now.
        const checks = (await org.call('GET', url('checks'), org.admin)).json();
        const blocking = checks.problems
          .filter((problem: { severity: string }) => problem.severity === 'blocking')
          .map((problem: { code: string }) => problem.code);
        return (
          await org.call('POST', url('publish'), org.admin, {
            force: true,
            ...(step.acknowledge ? { acknowledged_problems: blocking } : {}),
          })
        ).statusCode;
      }
      case 'break_checks':
        return setContainerBroken(true);
      case 'fix_checks':
        return setContainerBroken(false);
      case 'edit_content': {
        const email = (await org.call('GET', `${org.base}/emails/${emailId}`, submitter.headers)).json();
        edits.count += 1;
        email.email_content.subject.branch_content.null_branch['en-US'] = `Edit ${edits.count}`;
        return (
          await org.call('PATCH', `${org.base}/emails/${emailId}`, submitter.headers, {
            email_content: email.email_content,
          })
        ).statusCode;
      }
    }
  }

  it('agrees with the model on every step of random review sequences', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(stepArbitrary, { minLength: 1, maxLength: 14 }), async (steps) => {
        expect(await setContainerBroken(false)).toBe(200);
        const email = await org.createEmail('Modelled', submitter.headers);
        const model: Model = { status: 'draft', lockVersion: 1, workflow: null, blocked: false };
        const edits = { count: 0 };
        for (const [index, step] of steps.entries()) {
          const expectedCode = applyToModel(model, step);
          const code = await runOnApi(email.id, step, edits);
          const where = `step ${index} ${JSON.stringify(step)}`;
          expect(code, where).toBe(expectedCode);
          const actual = (await org.call('GET', `${org.base}/emails/${email.id}`, submitter.headers)).json();
          expect(actual.status, where).toBe(model.status);
          expect(actual.lock_version, where).toBe(model.lockVersion);
          const workflow = await org.call(
            'GET',
            `${org.base}/emails/${email.id}/approval_workflow`,
            submitter.headers,
          );
          if (!model.workflow) {
            expect(workflow.statusCode, where).toBe(404);
            continue;
          }
          expect(
            {
              status: workflow.json().status,
              stage: workflow.json().current_stage_position,
              round: workflow.json().round,
              decisions: workflow.json().review_approvals.length,
              approvedLockVersion: workflow.json().approved_lock_version,
            },
            where,
          ).toEqual({
            status: model.workflow.status,
            stage: model.workflow.current + 1,
            round: model.workflow.round,
            decisions: model.workflow.decisions.length,
            approvedLockVersion: model.workflow.approvedLockVersion,
          });
        }
      }),
      { numRuns: Number(process.env.REVIEW_MODEL_RUNS ?? 30) },
    );
    // Thirty sequences of up to fourteen steps, each submit, approval and publish rendering the email for its checks.
  }, 180_000);
});
