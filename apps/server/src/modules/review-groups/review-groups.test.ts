import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvalWorkflows, type StageSnapshot, users } from '../../db/schema.ts';
import {
  createTestEmail,
  createTestOrganization,
  createTestUser,
  signInAs,
  type TestOrganization,
  type TestUser,
} from '../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../test/harness.ts';
import { createReviewGroupRecords, loadReviewGroup } from './review-groups.service.ts';

interface Stage {
  id: number;
  position: number;
  approval_type: string;
  members: { id: number; user_id: number; user: { first_name: string } }[];
}

describe('review groups', () => {
  let app: TestApp;
  let organization: TestOrganization;
  let admin: Record<string, string>;
  let rita: TestUser;
  let sam: TestUser;
  let tom: TestUser;

  beforeAll(async () => {
    app = await buildTestApp();
    organization = await createTestOrganization(app);
    admin = await signInAs(app, organization.admin);
    rita = await createTestUser(app, organization, { firstName: 'Rita' });
    sam = await createTestUser(app, organization, { firstName: 'Sam' });
    tom = await createTestUser(app, organization, { firstName: 'Tom' });
  });
  afterAll(() => app.close());

  const request = (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: object,
    headers = admin,
  ) => app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  let named = 0;
  const twoStages = () => ({
    name: `Legal then brand ${++named}`,
    stages: [
      { position: 1, approval_type: 'one_of', members: [{ user_id: rita.id }, { user_id: sam.id }] },
      { position: 2, approval_type: 'all_of', members: [{ user_id: tom.id }] },
    ],
  });
  const create = async (body: object = twoStages()) => {
    const response = await request('POST', '/api/v1/review_groups', body);
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };
  const errorsOf = async (method: 'POST' | 'PATCH', url: string, body: object) => {
    const response = await request(method, url, body);
    expect(response.statusCode, response.body).toBe(422);
    return response.json().errors;
  };

  it('creates, reads, lists, renames and deletes a group, with its stages and members', async () => {
    const group = await create();
    expect(group).toMatchObject({ reusable: true, name: expect.stringMatching(/^Legal then brand/) });
    expect(
      group.stages.map((stage: Stage) => ({
        position: stage.position,
        approval_type: stage.approval_type,
        members: stage.members.map((member) => [member.user_id, member.user.first_name]),
      })),
    ).toEqual([
      {
        position: 1,
        approval_type: 'one_of',
        members: [
          [rita.id, 'Rita'],
          [sam.id, 'Sam'],
        ],
      },
      { position: 2, approval_type: 'all_of', members: [[tom.id, 'Tom']] },
    ]);
    expect((await request('GET', `/api/v1/review_groups/${group.id}`)).json()).toEqual(group);
    const list = (await request('GET', '/api/v1/review_groups?per=100')).json();
    expect(list.results.map((item: { id: number }) => item.id)).toContain(group.id);

    const renamed = await request('PATCH', `/api/v1/review_groups/${group.id}`, { name: 'Renamed group' });
    expect(renamed.json()).toMatchObject({ name: 'Renamed group', stages: group.stages });

    expect((await request('DELETE', `/api/v1/review_groups/${group.id}`)).statusCode).toBe(204);
    expect((await request('GET', `/api/v1/review_groups/${group.id}`)).statusCode).toBe(404);
  });

  it('orders stages by position and numbers them 1, 2, 3…', async () => {
    const group = await create({
      name: 'Out of order',
      stages: [
        { position: 30, approval_type: 'one_of', members: [{ user_id: tom.id }] },
        { position: 10, approval_type: 'all_of', members: [{ user_id: rita.id }] },
        { position: 20, approval_type: 'one_of', members: [{ user_id: sam.id }] },
      ],
    });
    expect(group.stages.map((stage: Stage) => [stage.position, stage.members[0]?.user_id])).toEqual([
      [1, rita.id],
      [2, sam.id],
      [3, tom.id],
    ]);
  });

  it('lists only reusable groups unless asked for the others', async () => {
    const reusable = await create();
    const oneOff = await create({ ...twoStages(), reusable: false });
    const ids = async (query: string) =>
      (await request('GET', `/api/v1/review_groups?per=100${query}`))
        .json()
        .results.map((group: { id: number }) => group.id);
    expect(await ids('')).toContain(reusable.id);
    expect(await ids('')).not.toContain(oneOff.id);
    expect(await ids('&reusable=false')).toEqual([oneOff.id]);
    expect(await ids('&reusable=all')).toEqual(expect.arrayContaining([reusable.id, oneOff.id]));
    // The one-off group is still readable by id, as its workflow shows it.
    expect((await request('GET', `/api/v1/review_groups/${oneOff.id}`)).json().reusable).toBe(false);
  });

  it('refuses stages without members, shared positions, a user twice in a stage, and no stages', async () => {
    expect(await errorsOf('POST', '/api/v1/review_groups', { name: 'Empty', stages: [] })).toEqual({
      stages: ['must have at least 1 item'],
    });
    expect(
      await errorsOf('POST', '/api/v1/review_groups', {
        name: 'Nobody',
        stages: [{ position: 1, approval_type: 'one_of', members: [] }],
      }),
    ).toEqual({ 'stages.0.members': ['must have at least 1 item'] });
    expect(
      await errorsOf('POST', '/api/v1/review_groups', {
        name: 'Clashing',
        stages: [
          { position: 1, approval_type: 'one_of', members: [{ user_id: rita.id }, { user_id: rita.id }] },
          { position: 1, approval_type: 'all_of', members: [{ user_id: sam.id }] },
        ],
      }),
    ).toEqual({
      'stages.0.members.1.user_id': ['is already a member of this stage'],
      'stages.1.position': ['is the same as stage 1’s'],
    });
    expect(
      await errorsOf('POST', '/api/v1/review_groups', {
        name: 'Odd type',
        stages: [{ position: 1, approval_type: 'majority', members: [{ user_id: rita.id }] }],
      }),
    ).toEqual({ 'stages.0.approval_type': ['must be one of: one_of, all_of'] });
  });

  it('refuses users of another organization and removed users', async () => {
    const other = await createTestOrganization(app);
    const removed = await createTestUser(app, organization);
    await app.services.database.db
      .update(users)
      .set({ deletedAt: new Date() })
      .where(eq(users.id, removed.id));
    expect(
      await errorsOf('POST', '/api/v1/review_groups', {
        name: 'Strangers',
        stages: [
          {
            position: 1,
            approval_type: 'all_of',
            members: [{ user_id: rita.id }, { user_id: other.admin.id }, { user_id: removed.id }],
          },
        ],
      }),
    ).toEqual({
      'stages.0.members.1.user_id': ['is not a user of this organization'],
      'stages.0.members.2.user_id': ['is not a user of this organization'],
    });
  });

  it('keeps names of reusable groups unique, case aside, but not those of one-off groups', async () => {
    await create({ ...twoStages(), name: 'Brand review' });
    expect(await errorsOf('POST', '/api/v1/review_groups', { ...twoStages(), name: 'BRAND review' })).toEqual(
      {
        name: ['is already taken by another review group'],
      },
    );
    const oneOff = await create({ ...twoStages(), name: 'Brand review', reusable: false });
    // Making the one-off group reusable would give two reusable groups one name.
    expect(await errorsOf('PATCH', `/api/v1/review_groups/${oneOff.id}`, { reusable: true })).toEqual({
      name: ['is already taken by another review group'],
    });
  });

  it('PATCH keeps the stages and members sent with their ids, removes the others, adds the new', async () => {
    const group = await create();
    const [first, second] = group.stages as Stage[];
    if (!first || !second) throw new Error('two stages expected');
    const ritaMember = first.members.find((member) => member.user_id === rita.id);
    if (!ritaMember) throw new Error('Rita is a member of stage 1');

    // Stage 2 first (kept, now all_of → one_of), then stage 1 kept with Rita only and Tom added,
    // then a new stage; Sam's membership is left out, so removed.
    const response = await request('PATCH', `/api/v1/review_groups/${group.id}`, {
      stages: [
        {
          id: second.id,
          position: 1,
          approval_type: 'one_of',
          members: [{ id: second.members[0]?.id, user_id: tom.id }],
        },
        {
          id: first.id,
          position: 2,
          approval_type: 'one_of',
          members: [{ id: ritaMember.id, user_id: rita.id }, { user_id: tom.id }],
        },
        { position: 3, approval_type: 'all_of', members: [{ user_id: sam.id }] },
      ],
    });
    expect(response.statusCode, response.body).toBe(200);
    const stages = response.json().stages as Stage[];
    expect(stages.map((stage) => [stage.id, stage.position, stage.approval_type])).toEqual([
      [second.id, 1, 'one_of'],
      [first.id, 2, 'one_of'],
      [expect.any(Number), 3, 'all_of'],
    ]);
    expect(stages[0]?.members.map((member) => member.id)).toEqual([second.members[0]?.id]);
    expect(stages[1]?.members.map((member) => [member.id, member.user_id])).toEqual([
      [ritaMember.id, rita.id],
      [expect.any(Number), tom.id],
    ]);
    expect(stages[2]?.members.map((member) => member.user_id)).toEqual([sam.id]);

    // Leaving a stage out removes it.
    const fewer = await request('PATCH', `/api/v1/review_groups/${group.id}`, {
      stages: [{ id: first.id, position: 1, approval_type: 'all_of', members: [{ user_id: sam.id }] }],
    });
    expect(
      fewer.json().stages.map((stage: Stage) => [stage.id, stage.members.map((m) => m.user_id)]),
    ).toEqual([[first.id, [sam.id]]]);
  });

  it('PATCH refuses ids of another group’s stage and of another stage’s member', async () => {
    const group = await create();
    const other = await create();
    const [otherStage] = other.stages as Stage[];
    const [stage, secondStage] = group.stages as Stage[];
    if (!otherStage || !stage || !secondStage) throw new Error('stages expected');
    expect(
      await errorsOf('PATCH', `/api/v1/review_groups/${group.id}`, {
        stages: [
          { id: otherStage.id, position: 1, approval_type: 'one_of', members: [{ user_id: rita.id }] },
          {
            id: stage.id,
            position: 2,
            approval_type: 'one_of',
            members: [
              { id: secondStage.members[0]?.id, user_id: tom.id },
              { id: otherStage.members[0]?.id, user_id: otherStage.members[0]?.user_id },
              { id: stage.members[0]?.id, user_id: sam.id },
            ],
          },
        ],
      }),
    ).toEqual({
      'stages.0.id': ['is not a stage of this review group'],
      'stages.1.members.0.id': ['is not a member of this stage'],
      'stages.1.members.1.id': ['is not a member of this stage'],
      'stages.1.members.2.user_id': [
        'is not the user of the member kept by id; leave out the id to add someone',
      ],
    });
    // Nothing changed.
    expect((await request('GET', `/api/v1/review_groups/${group.id}`)).json().stages).toEqual(group.stages);
  });

  it('never moves a workflow under way: it keeps its snapshot when the group changes or goes', async () => {
    const group = await create();
    const emailId = await createTestEmail(app, organization, { name: 'Spring sale', content: {} });
    const snapshot: StageSnapshot[] = [
      { position: 1, approval_type: 'one_of', user_ids: [rita.id, sam.id] },
      { position: 2, approval_type: 'all_of', user_ids: [tom.id] },
    ];
    const [workflow] = await app.services.database.db
      .insert(approvalWorkflows)
      .values({
        organizationId: organization.organizationId,
        workspaceId: organization.workspaceId,
        emailId,
        reviewGroupId: group.id,
        creatorId: organization.admin.id,
        stages: snapshot,
        currentStagePosition: 1,
      })
      .returning();
    if (!workflow) throw new Error('workflow insert returned nothing');
    const workflowNow = async () =>
      (
        await app.services.database.db
          .select()
          .from(approvalWorkflows)
          .where(eq(approvalWorkflows.id, workflow.id))
      )[0];

    const changed = await request('PATCH', `/api/v1/review_groups/${group.id}`, {
      stages: [{ position: 1, approval_type: 'all_of', members: [{ user_id: organization.admin.id }] }],
    });
    expect(changed.statusCode).toBe(200);
    expect(await workflowNow()).toMatchObject({ reviewGroupId: group.id, stages: snapshot });

    expect((await request('DELETE', `/api/v1/review_groups/${group.id}`)).statusCode).toBe(204);
    expect(await workflowNow()).toMatchObject({
      reviewGroupId: null,
      stages: snapshot,
      status: 'in_progress',
    });
  });

  it('makes an email’s one-off group inside the caller’s transaction, with its snapshot', async () => {
    const made = await app.services.database.db.transaction((tx) =>
      createReviewGroupRecords(tx, organization.organizationId, {
        name: 'Review of Spring sale',
        reusable: false,
        stages: [
          { position: 2, approval_type: 'all_of', members: [{ user_id: tom.id }, { user_id: sam.id }] },
          { position: 1, approval_type: 'one_of', members: [{ user_id: rita.id }] },
        ],
      }),
    );
    expect(made.stagesSnapshot).toEqual([
      { position: 1, approval_type: 'one_of', user_ids: [rita.id] },
      { position: 2, approval_type: 'all_of', user_ids: [tom.id, sam.id] },
    ]);
    const group = await loadReviewGroup(app.services.database.db, organization.organizationId, made.id);
    expect(group).toMatchObject({ reusable: false, name: 'Review of Spring sale' });
    expect(group?.stages.map((stage) => stage.members.map((member) => member.user_id))).toEqual([
      [rita.id],
      [tom.id, sam.id],
    ]);
    // Another organization's id reads as nothing.
    const other = await createTestOrganization(app);
    expect(await loadReviewGroup(app.services.database.db, other.organizationId, made.id)).toBeNull();
    // A refusal rolls the caller's transaction back.
    await expect(
      app.services.database.db.transaction((tx) =>
        createReviewGroupRecords(tx, organization.organizationId, {
          name: 'Broken',
          stages: [{ position: 1, approval_type: 'one_of', members: [{ user_id: other.admin.id }] }],
        }),
      ),
    ).rejects.toMatchObject({ statusCode: 422 });
  });

  it('needs manage_review_groups to write, and any signed-in user may read', async () => {
    const group = await create();
    const editor = await signInAs(app, await createTestUser(app, organization, { role: 'Editor' }));
    expect((await request('GET', `/api/v1/review_groups/${group.id}`, undefined, editor)).statusCode).toBe(
      200,
    );
    expect((await request('GET', '/api/v1/review_groups', undefined, editor)).statusCode).toBe(200);
    for (const [method, url, body] of [
      ['POST', '/api/v1/review_groups', twoStages()],
      ['PATCH', `/api/v1/review_groups/${group.id}`, { name: 'Mine now' }],
      ['DELETE', `/api/v1/review_groups/${group.id}`, undefined],
    ] as const) {
      const response = await request(method, url, body, editor);
      expect(response.statusCode, `${method} ${url}`).toBe(403);
      expect(response.json().message).toBe('You need the manage_review_groups permission to do this');
    }
  });

  it('answers 404 for another organization’s group', async () => {
    const group = await create();
    const other = await createTestOrganization(app);
    const outsider = await signInAs(app, other.admin);
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { name: 'Taken over' }],
      ['DELETE', undefined],
    ] as const) {
      const response = await request(method, `/api/v1/review_groups/${group.id}`, body, outsider);
      expect(response.statusCode, method).toBe(404);
    }
    const listed = (
      await request('GET', '/api/v1/review_groups?reusable=all&per=100', undefined, outsider)
    ).json();
    expect(listed.results).toEqual([]);
  });
});
