import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestEmail,
  createTestOrganization,
  createTestUser,
  signInAs,
  type TestOrganization,
} from '../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../test/harness.ts';

describe('conditionals', () => {
  let app: TestApp;
  let organization: TestOrganization;
  let admin: Record<string, string>;
  let base: string;
  let iterable: string;
  let handwritten: string;

  const tiers = [
    { key: 'gold', label: 'Gold' },
    { key: 'silver', label: 'Silver' },
    { key: 'other', label: 'Everyone else' },
  ];
  const defaultValue = {
    closing: '{% endif %}',
    branch_values: {
      gold: "{% if tier == 'gold' %}",
      silver: "{% elsif tier == 'silver' %}",
      other: '{% else %}',
    },
  };
  const picker = {
    uses_ui_picker: true,
    ui_picker_state: {
      include_else_branch: true,
      branches: {
        gold: { conditions: [{ attribute: 'tier', type: 'string', operator: 'equals', value: 'gold' }] },
        silver: { conditions: [{ attribute: 'tier', type: 'string', operator: 'equals', value: 'silver' }] },
      },
    },
  };

  beforeAll(async () => {
    app = await buildTestApp();
    organization = await createTestOrganization(app);
    admin = await signInAs(app, organization.admin);
    base = `/api/v1/workspaces/${organization.workspaceId}`;
    const profile = async (payload: object) =>
      (
        await app.inject({ method: 'POST', url: `${base}/dynamic_content_profiles`, headers: admin, payload })
      ).json().id;
    iterable = await profile({ name: 'Iterable', template_engine_preset: 'handlebars' });
    handwritten = await profile({ name: 'Hand-written' });
  });
  afterAll(() => app.close());

  const create = (payload: object) =>
    app.inject({ method: 'POST', url: `${base}/conditionals`, headers: admin, payload });
  const patch = (id: number, payload: object) =>
    app.inject({ method: 'PATCH', url: `${base}/conditionals/${id}`, headers: admin, payload });
  const createTiers = async (extra: object = {}) => {
    const response = await create({ label: 'Tiers', branches: tiers, default_value: defaultValue, ...extra });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };

  it('creates, reads, lists, updates and deletes; picker syntaxes come compiled', async () => {
    const conditional = await createTiers({
      can_be_used_in_subject_and_preheader: true,
      dynamic_content_profile_values: {
        [iterable]: picker,
        [handwritten]: { closing: '*|END:IF|*', branch_values: { gold: 'G', silver: 'S', other: 'O' } },
      },
    });
    expect(conditional).toMatchObject({
      label: 'Tiers',
      branches: tiers,
      default_syntax: defaultValue,
      can_be_used_in_subject_and_preheader: true,
      organization_id: organization.organizationId,
      dynamic_content_profile_syntaxes: {
        [iterable]: {
          closing: '{{/if}}',
          branch_values: {
            gold: '{{#if (eq tier "gold")}}',
            silver: '{{else if (eq tier "silver")}}',
            other: '{{else}}',
          },
          uses_ui_picker: true,
          ui_picker_state: picker.ui_picker_state,
        },
        [handwritten]: { closing: '*|END:IF|*', uses_ui_picker: false },
      },
    });
    const url = `${base}/conditionals/${conditional.id}`;
    expect((await app.inject({ method: 'GET', url, headers: admin })).json()).toEqual(conditional);
    const list = (
      await app.inject({ method: 'GET', url: `${base}/conditionals?per=1`, headers: admin })
    ).json();
    expect(list.pagination).toMatchObject({ per: 1, page: 1 });
    expect(list.results).toHaveLength(1);
    const renamed = await patch(conditional.id, {
      label: 'Membership tiers',
      can_be_used_in_subject_and_preheader: false,
    });
    expect(renamed.json()).toMatchObject({
      label: 'Membership tiers',
      can_be_used_in_subject_and_preheader: false,
    });
    expect((await app.inject({ method: 'DELETE', url, headers: admin })).statusCode).toBe(204);
    expect((await app.inject({ method: 'GET', url, headers: admin })).statusCode).toBe(404);
  });

  it('keeps the default branch an export without a profile shows: a branch key, or null for the last', async () => {
    const unset = await createTiers();
    expect(unset.default_branch_key).toBeNull();
    const conditional = await createTiers({ default_branch_key: 'silver' });
    expect(conditional.default_branch_key).toBe('silver');
    expect(
      (
        await app.inject({ method: 'GET', url: `${base}/conditionals/${conditional.id}`, headers: admin })
      ).json().default_branch_key,
    ).toBe('silver');

    const unknown = await create({
      label: 'Tiers',
      branches: tiers,
      default_value: defaultValue,
      default_branch_key: 'bronze',
    });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors).toEqual({
      default_branch_key: [
        'is not a branch key of this conditional (its keys: gold, silver, other); use null for the last branch',
      ],
    });

    // Branches that no longer hold the default branch's key are refused, not silently reset.
    const withoutSilver = await patch(conditional.id, {
      branches: tiers.filter((branch) => branch.key !== 'silver'),
      default_value: { ...defaultValue, branch_values: { gold: 'G', other: 'O' } },
    });
    expect(withoutSilver.statusCode).toBe(422);
    expect(Object.keys(withoutSilver.json().errors)).toEqual(['default_branch_key']);
    const moved = await patch(conditional.id, {
      branches: tiers.filter((branch) => branch.key !== 'silver'),
      default_value: { ...defaultValue, branch_values: { gold: 'G', other: 'O' } },
      default_branch_key: 'gold',
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().default_branch_key).toBe('gold');
    expect((await patch(conditional.id, { default_branch_key: null })).json().default_branch_key).toBeNull();
    expect((await patch(conditional.id, { default_branch_key: 'silver' })).statusCode).toBe(422);
  });

  it('refuses duplicate keys, missing or extra openings and unknown profiles', async () => {
    const response = await create({
      label: 'Bad',
      branches: [...tiers, { key: 'gold', label: 'Gold again' }],
      default_value: { closing: '', branch_values: { gold: 'a', bronze: 'b' } },
      dynamic_content_profile_values: { 'not-a-profile': { closing: '', branch_values: {} } },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual({
      'branches.3.key': ['is already the key of another branch'],
      'default_value.branch_values.silver': ['is required: every branch needs its opening syntax'],
      'default_value.branch_values.other': ['is required: every branch needs its opening syntax'],
      'default_value.branch_values.bronze': ['is not a branch key of this conditional'],
      'dynamic_content_profile_values.not-a-profile': ['is not a dynamic content profile of this workspace'],
    });
    const badKey = await create({
      label: 'Bad',
      branches: [{ key: 'has space', label: 'X' }],
      default_value: { closing: '', branch_values: {} },
    });
    expect(badKey.statusCode).toBe(422);
    expect(Object.keys(badKey.json().errors)).toContain('branches.0.key');
    expect((await create({ branches: tiers })).json().errors).toMatchObject({
      label: expect.any(Array),
      default_value: expect.any(Array),
    });
  });

  it('refuses a picker for a profile without a preset, and picker states that do not compile', async () => {
    const response = await create({
      label: 'Bad picker',
      branches: tiers,
      default_value: defaultValue,
      dynamic_content_profile_values: {
        [handwritten]: picker,
        [iterable]: {
          uses_ui_picker: true,
          ui_picker_state: {
            include_else_branch: false,
            branches: {
              gold: {
                conditions: [{ attribute: 'age', type: 'number', operator: 'greater_than', value: 'x' }],
              },
            },
          },
        },
      },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual({
      [`dynamic_content_profile_values.${handwritten}.uses_ui_picker`]: [
        'needs a profile with a template engine preset',
      ],
      [`dynamic_content_profile_values.${iterable}.ui_picker_state.branches.gold.conditions.0.value`]: [
        'must be a number',
      ],
      [`dynamic_content_profile_values.${iterable}.ui_picker_state.branches.silver.conditions`]: [
        'needs at least one condition',
      ],
      [`dynamic_content_profile_values.${iterable}.ui_picker_state.branches.other.conditions`]: [
        'needs at least one condition',
      ],
    });
  });

  it('refuses to remove or rename a branch key that emails still use, naming them', async () => {
    const conditional = await createTiers({ can_be_used_in_subject_and_preheader: true });
    const instance = (values: Record<string, string>) => ({
      id: 'i1',
      component_id: 1,
      conditional_id: conditional.id,
      field_values: Object.fromEntries(
        Object.entries(values).map(([key, text]) => [key, { 'en-US': { headline: { value: text } } }]),
      ),
    });
    const content = (values: Record<string, string>, subject?: object) => ({
      subject: subject ?? { branch_content: { null_branch: { 'en-US': 'Hi' } } },
      preheader: { branch_content: { null_branch: { 'en-US': '' } } },
      container_component_instance: { id: 'c', component_id: 1, field_values: {} },
      component_instances: [instance(values)],
    });
    await createTestEmail(app, organization, {
      name: 'Spring sale',
      content: content({ gold: 'G', silver: 'S' }),
    });
    await createTestEmail(app, organization, { name: 'Welcome', content: content({ gold: 'G' }) });
    await createTestEmail(app, organization, {
      name: 'Subject only',
      content: {
        ...content({}),
        component_instances: [],
        subject: { conditional_id: conditional.id, branch_content: { other: { 'en-US': 'Hello' } } },
      },
    });
    const withoutSilver = await patch(conditional.id, {
      branches: tiers.filter((branch) => branch.key !== 'silver'),
      default_value: { closing: '{% endif %}', branch_values: { gold: '{% if a %}', other: '{% else %}' } },
    });
    expect(withoutSilver.statusCode).toBe(422);
    expect(withoutSilver.json()).toEqual({
      code: 'validation_failed',
      message: 'Emails still use this conditional: “Spring sale”',
      errors: { branches: ['removes branch keys that emails still use (silver): “Spring sale”'] },
    });
    const renamedGold = await patch(conditional.id, {
      branches: [{ key: 'gold_tier', label: 'Gold' }, ...tiers.slice(1)],
      default_value: {
        ...defaultValue,
        branch_values: { ...defaultValue.branch_values, gold_tier: 'x', gold: undefined },
      },
    });
    expect(renamedGold.statusCode).toBe(422);
    expect(renamedGold.json().errors.branches).toEqual([
      'removes branch keys that emails still use (gold): “Spring sale”, “Welcome”',
    ]);
    const noSubject = await patch(conditional.id, { can_be_used_in_subject_and_preheader: false });
    expect(noSubject.json().errors).toEqual({
      can_be_used_in_subject_and_preheader: [
        'cannot be turned off while emails use the conditional in their subject or preheader: “Subject only”',
      ],
    });
    // Keys without content anywhere can go; adding branches is always fine.
    const added = await patch(conditional.id, {
      branches: [...tiers, { key: 'bronze', label: 'Bronze' }],
      default_value: {
        ...defaultValue,
        branch_values: { ...defaultValue.branch_values, bronze: '{% elsif b %}' },
      },
    });
    expect(added.statusCode, added.body).toBe(200);
    const deleted = await app.inject({
      method: 'DELETE',
      url: `${base}/conditionals/${conditional.id}`,
      headers: admin,
    });
    expect(deleted.statusCode).toBe(422);
    expect(deleted.json().message).toBe(
      'The conditional Tiers is used by emails: “Spring sale”, “Subject only”, “Welcome”',
    );
  });

  it('belongs to its workspace, and needs the conditional permissions to change', async () => {
    const conditional = await createTiers();
    const other = (
      await app.inject({
        method: 'POST',
        url: '/api/v1/workspaces',
        headers: admin,
        payload: { name: 'Other workspace', auto_join: false },
      })
    ).json();
    const otherUrl = `/api/v1/workspaces/${other.id}/conditionals`;
    expect(
      (await app.inject({ method: 'GET', url: `${otherUrl}/${conditional.id}`, headers: admin })).statusCode,
    ).toBe(404);
    expect((await app.inject({ method: 'GET', url: otherUrl, headers: admin })).json().pagination.total).toBe(
      0,
    );

    const viewer = await signInAs(app, await createTestUser(app, organization, { role: 'Viewer' }));
    expect(
      (await app.inject({ method: 'GET', url: `${base}/conditionals`, headers: viewer })).statusCode,
    ).toBe(200);
    const refused = await app.inject({
      method: 'POST',
      url: `${base}/conditionals`,
      headers: viewer,
      payload: { label: 'X', branches: tiers, default_value: defaultValue },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('You need the create_conditionals permission to do this');
  });
});
